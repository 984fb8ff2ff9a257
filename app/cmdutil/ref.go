package cmdutil

import (
	"net/url"
	"strings"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
)

// ParseRef reads the item a command takes: its number ("12") or,
// as gh allows, its web address (http://HOST/OWNER/REPO/issues/12 as the
// service's html_url gives it), whose repository then becomes *repoFlag
// (HOST/OWNER/REPO, so the host selects the profile). kind is the path
// segment before the number: "issues", "pull", "actions/runs". what names
// the number in errors ("issue number"). A URL for another repository
// than -R names is a usage error.
func ParseRef(arg, what, kind string, repoFlag *string) (int64, error) {
	if !strings.Contains(arg, "://") {
		return cmdcore.ParseNumber(arg, what)
	}
	u, err := url.Parse(arg)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return 0, cmdcore.UsageErrorf("cannot read the %s from %q: give the number or the web address", what, arg)
	}
	path := "/" + strings.Trim(u.Path, "/") + "/"
	before, after, ok := strings.Cut(path, "/"+kind+"/")
	segs := strings.Split(strings.Trim(before, "/"), "/")
	num, _, _ := strings.Cut(after, "/")
	if !ok || len(segs) < 2 || num == "" {
		return 0, cmdcore.UsageErrorf("cannot read the %s from %q: want http(s)://HOST/OWNER/REPO/%s/NUMBER", what, arg, kind)
	}
	n, err := cmdcore.ParseNumber(num, what)
	if err != nil {
		return 0, err
	}
	repo := u.Host + "/" + segs[len(segs)-2] + "/" + segs[len(segs)-1]
	if *repoFlag != "" && !strings.EqualFold(strings.TrimSuffix(*repoFlag, "/"), repo) && !strings.EqualFold(*repoFlag, segs[len(segs)-2]+"/"+segs[len(segs)-1]) {
		return 0, cmdcore.UsageErrorf("the address is in %s, but -R says %s: give one of them", repo, *repoFlag)
	}
	*repoFlag = repo
	return n, nil
}
