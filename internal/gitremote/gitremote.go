// Package gitremote finds which repository of the service a command is
// about: from -R (OWNER/REPO, HOST/OWNER/REPO or a clone URL), from
// FORGE_REPO, or from the git remotes of the current directory whose URL
// points at the profile's host.
package gitremote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
)

// Repo names a repository of the service.
type Repo struct {
	Owner string
	Name  string
}

// String is OWNER/REPO.
func (r Repo) String() string { return r.Owner + "/" + r.Name }

// IsZero reports whether r names nothing.
func (r Repo) IsZero() bool { return r.Owner == "" && r.Name == "" }

// Parse reads a repository as -R and FORGE_REPO give it: OWNER/REPO,
// HOST/OWNER/REPO, or a clone URL (https://HOST/OWNER/REPO[.git],
// ssh://[user@]HOST[:port]/OWNER/REPO[.git], the scp-like
// [user@]HOST:OWNER/REPO[.git]). host is "" for OWNER/REPO; otherwise it is
// the lower-case host (with the port, when the text gives one), which the
// caller must match to a server rather than drop.
func Parse(s string) (host string, r Repo, err error) {
	s = strings.TrimSpace(s)
	parts := strings.Split(s, "/")
	hostPort := len(parts) == 3 && !strings.Contains(s, "@") && validHostPort(parts[0])
	if !hostPort && (strings.Contains(s, "://") || strings.Contains(s, "@") || strings.Contains(s, ":")) {
		if h, r, ok := ParseURL(s); ok {
			return h, r, nil
		}
		return "", Repo{}, fmt.Errorf("cannot read a repository from %q; use OWNER/REPO, HOST/OWNER/REPO or a clone URL", s)
	}
	if len(parts) == 3 && validHostPort(parts[0]) {
		host, parts = strings.ToLower(parts[0]), parts[1:]
	}
	if len(parts) != 2 {
		return "", Repo{}, fmt.Errorf("invalid repository %q; use OWNER/REPO or HOST/OWNER/REPO", s)
	}
	r = Repo{Owner: parts[0], Name: strings.TrimSuffix(parts[1], ".git")}
	if !validPart(r.Owner) || !validPart(r.Name) {
		return "", Repo{}, fmt.Errorf("invalid repository %q; use OWNER/REPO or HOST/OWNER/REPO", s)
	}
	return host, r, nil
}

// validHostPort reports whether s is HOST or HOST:PORT.
func validHostPort(s string) bool {
	h, port, ok := strings.Cut(s, ":")
	if ok {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
			return false
		}
	}
	return validHost(h)
}

// validHost reports whether s can be a host name: letters, digits, '-'
// and '.', not starting or ending with '.'.
func validHost(s string) bool {
	if s == "" || len(s) > 253 || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

func validPart(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// ParseURL reads a git remote URL in any of the forms git accepts for a
// network remote — https://host[:port]/[prefix/]OWNER/REPO[.git],
// ssh://[user@]host[:port]/OWNER/REPO[.git] and the scp-like
// [user@]host:OWNER/REPO[.git] — and returns its host (with port, when
// given) and repository. Only the last two path segments name the
// repository, so a server mounting git under a prefix still matches.
func ParseURL(raw string) (host string, repo Repo, ok bool) {
	raw = strings.TrimSpace(raw)
	var path string
	if strings.Contains(raw, "://") {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return "", Repo{}, false
		}
		host, path = u.Host, u.Path
	} else {
		// scp-like: [user@]host:path, with no slash before the colon.
		at := strings.Index(raw, "@")
		colon := strings.Index(raw, ":")
		slash := strings.Index(raw, "/")
		if colon < 0 || (slash >= 0 && slash < colon) {
			return "", Repo{}, false
		}
		host, path = raw[at+1:colon], raw[colon+1:]
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) < 2 || host == "" {
		return "", Repo{}, false
	}
	r := Repo{Owner: parts[len(parts)-2], Name: strings.TrimSuffix(parts[len(parts)-1], ".git")}
	if !validPart(r.Owner) || !validPart(r.Name) {
		return "", Repo{}, false
	}
	return strings.ToLower(host), r, true
}

// Remote is one git remote of a working tree.
type Remote struct {
	Name string
	URL  string
	// Default says the remote was chosen as the repository's default
	// (git config remote.NAME.forge-resolved base, as gh's gh-resolved).
	Default bool
}

// defaultKey is the git config key under remote.NAME that marks the
// default remote.
const defaultKey = "forge-resolved"

// ErrNoGit means git is not installed or the directory is not in a git
// working tree.
var ErrNoGit = errors.New("not in a git repository")

// Remotes lists the remotes of the git working tree at dir.
func Remotes(ctx context.Context, dir string) ([]Remote, error) {
	cmd := exec.CommandContext(ctx, "git", "config", "--local", "--get-regexp", `^remote\..*\.(url|`+defaultKey+`)$`)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return nil, nil // a repository without remotes
		}
		return nil, ErrNoGit
	}
	var remotes []Remote
	marked := map[string]bool{}
	for _, line := range strings.Split(out.String(), "\n") {
		key, val, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			continue
		}
		if name, ok := strings.CutSuffix(strings.TrimPrefix(key, "remote."), "."+defaultKey); ok {
			marked[name] = val == "base"
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(key, "remote."), ".url")
		remotes = append(remotes, Remote{Name: name, URL: val})
	}
	for i := range remotes {
		remotes[i].Default = marked[remotes[i].Name]
	}
	return remotes, nil
}

// SetDefault marks the remote name as the working tree's default (none
// when name is ""), unmarking the others.
func SetDefault(ctx context.Context, dir string, remotes []Remote, name string) error {
	for _, rm := range remotes {
		if rm.Default && rm.Name != name {
			if err := gitConfig(ctx, dir, "--unset", "remote."+rm.Name+"."+defaultKey); err != nil {
				return err
			}
		}
	}
	if name == "" {
		return nil
	}
	return gitConfig(ctx, dir, "remote."+name+"."+defaultKey, "base")
}

func gitConfig(ctx context.Context, dir string, args ...string) error {
	cmd := exec.CommandContext(ctx, "git", append([]string{"config", "--local"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git config %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Candidates are the remotes that point at host, each with its
// repository, in Pick's order of preference (best first).
func Candidates(remotes []Remote, host string) []Candidate {
	var out []Candidate
	rest := remotes
	for len(rest) > 0 {
		r, rm, ok := Pick(rest, host)
		if !ok {
			break
		}
		out = append(out, Candidate{Remote: rm, Repo: r})
		var next []Remote
		for _, x := range rest {
			if x.Name != rm.Name {
				next = append(next, x)
			}
		}
		rest = next
	}
	return out
}

// Candidate is a remote that points at the service and its repository.
type Candidate struct {
	Remote Remote
	Repo   Repo
}

// Pick chooses the repository from remotes that point at host (host[:port]
// of the profile's base URL): the remote marked as the default
// (SetDefault) first, then upstream, then origin, then the others in
// order. A remote with the same host and port wins over one that only
// shares the host name (SSH remotes rarely carry the HTTP port).
func Pick(remotes []Remote, host string) (Repo, Remote, bool) {
	host = strings.ToLower(host)
	hostname := stripPort(host)
	best, bestScore := -1, -1
	var bestRepo Repo
	for i, rm := range remotes {
		h, r, ok := ParseURL(rm.URL)
		if !ok {
			continue
		}
		match := 0
		switch {
		case h == host:
			match = 2
		case stripPort(h) == hostname:
			match = 1
		default:
			continue
		}
		score := match*10 + rank(rm.Name)
		if rm.Default {
			score += 100
		}
		if score > bestScore {
			best, bestScore, bestRepo = i, score, r
		}
	}
	if best < 0 {
		return Repo{}, Remote{}, false
	}
	return bestRepo, remotes[best], true
}

func rank(name string) int {
	switch name {
	case "upstream":
		return 2
	case "origin":
		return 1
	}
	return 0
}

func stripPort(h string) string {
	if i := strings.LastIndex(h, ":"); i >= 0 && !strings.HasSuffix(h, "]") {
		return h[:i]
	}
	return h
}

// UsesForge reports whether git's credential helper for origin (what
// `forge auth setup-git` sets) is forge's: then fetch and push there use
// the profile's token instead of asking for a password.
func UsesForge(ctx context.Context, origin string) bool {
	out, err := exec.CommandContext(ctx, "git", "config", "--get-urlmatch", "credential.helper", origin+"/").Output()
	return err == nil && strings.Contains(string(out), "auth git-credential")
}

// CurrentBranch is the branch checked out in the working tree at dir ("" on
// a detached HEAD), or ErrNoGit outside one.
func CurrentBranch(ctx context.Context, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "symbolic-ref", "--quiet", "--short", "HEAD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return "", nil // detached
		}
		return "", ErrNoGit
	}
	return strings.TrimSpace(string(out)), nil
}
