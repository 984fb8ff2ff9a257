package client

import (
	"net/http"
	"net/url"
	"testing"
)

func TestOtherNamesFilled(t *testing.T) {
	r, _ := decodeNew[WorkflowRun]([]byte(`{"id":7,"title":"Build 7","commit_sha":"abc","ref":"main","triggered_by":"carol","status":"failed"}`))
	if r.DisplayTitle != "Build 7" || r.HeadSHA != "abc" || r.HeadBranch != "main" || r.Actor.Login != "carol" || r.Status != "completed" || r.Conclusion != "failure" || !r.Failed() {
		t.Errorf("run: %+v", r)
	}
	j, _ := decodeNew[Job]([]byte(`{"id":61,"status":"canceled"}`))
	if j.Name != "61" || j.Conclusion != "cancelled" || !j.Failed() {
		t.Errorf("job: %+v", j)
	}
	p, _ := decodeNew[PullRequest]([]byte(`{"iid":4,"state":"merged","author":{"username":"bob"},"source_branch":"x","target_branch":"main"}`))
	if p.Number != 4 || !p.Merged || p.Open() || p.User.Login != "bob" || p.Head.Ref != "x" || p.Base.Ref != "main" {
		t.Errorf("pull request: %+v", p)
	}
	for tag, pre := range map[string]bool{"v1.1.0-rc1": true, "1.2.3-beta.2": true, "v1.0.0": false, "release-2026": false, "v2-final": false} {
		rel, _ := decodeNew[Release]([]byte(`{"tag_name":"` + tag + `"}`))
		if rel.Prerelease != pre {
			t.Errorf("release %s without a flag: prerelease %v", tag, rel.Prerelease)
		}
	}
	rel, _ := decodeNew[Release]([]byte(`{"tag_name":"v1.1.0-rc1","prerelease":false}`))
	if rel.Prerelease {
		t.Error("a release saying prerelease false was read as one")
	}
	inv, _ := decodeNew[Invite]([]byte(`{"id":801,"status":"pending","inviter":{"login":"alice"}}`))
	if inv.State != "pending" || inv.InvitedBy != "alice" || inv.Label() != "invite 801" {
		t.Errorf("invite: %+v", inv)
	}
}

func TestPagerReadsEachStyle(t *testing.T) {
	u, _ := url.Parse("http://x/api/v2/issues?per_page=2&limit=2")
	h := func(kv ...string) http.Header {
		hd := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			hd.Add(kv[i], kv[i+1])
		}
		return hd
	}
	cases := []struct {
		name  string
		h     http.Header
		count int
		want  string
	}{
		{"link bare rel, relative", h("Link", `</api/v2/issues?cursor=abc>; rel=next`), 2, "http://x/api/v2/issues?cursor=abc"},
		{"link several rels", h("Link", `<http://x/p2>; rel="next last"`), 2, "http://x/p2"},
		{"x-next-page", h("X-Next-Page", "2"), 2, "http://x/api/v2/issues?limit=2&page=2&per_page=2"},
		{"total says more", h("X-Total-Count", "5"), 2, "http://x/api/v2/issues?limit=2&page=2&per_page=2"},
		{"total reached", h("X-Total-Count", "2"), 2, ""},
		{"short page", h(), 1, ""},
		{"full page, no total", h(), 2, "http://x/api/v2/issues?limit=2&page=2&per_page=2"},
	}
	for _, c := range cases {
		p := NewPager(2)
		if got, use := p.Next(u, c.h, []byte("[1,2]"), c.count); got != c.want || !use {
			t.Errorf("%s: next %q (use %v), want %q", c.name, got, use, c.want)
		}
	}
	// A service that ignores page: the second answer repeats the first.
	p := NewPager(2)
	next, _ := p.Next(u, h(), []byte("[1,2]"), 2)
	n, _ := url.Parse(next)
	if got, use := p.Next(n, h(), []byte("[1,2]"), 2); got != "" || use || p.Unsure() == "" {
		t.Errorf("repeated page: next %q, use %v, unsure %q", got, use, p.Unsure())
	}
}

// A pull request's state word is one rule for forge pr, the TUI and an
// agent's context: merged and draft on top of open and closed, in any
// case the service writes them.
func TestPullStateWord(t *testing.T) {
	for _, c := range []struct {
		json, want string
	}{
		{`{"state":"open"}`, "open"},
		{`{"state":"OPEN"}`, "open"},
		{`{"state":"open","draft":true}`, "draft"},
		{`{"state":"Open","draft":true}`, "draft"},
		{`{"state":"closed"}`, "closed"},
		{`{"state":"Closed","draft":true}`, "closed"},
		{`{"state":"closed","merged":true}`, "merged"},
		{`{"state":"closed","merged_at":"2026-01-03T03:04:05Z"}`, "merged"},
		{`{"state":"merged"}`, "merged"},     // GitLab
		{`{"state":"opened"}`, "open"},       // GitLab
		{`{"state":"locked"}`, "closed"},     // Gitea
		{`{"state":"DECLINED"}`, "declined"}, // a word forge does not know
		{`{}`, "unknown"},
	} {
		p, err := decodeNew[PullRequest]([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.StateWord(); got != c.want {
			t.Errorf("%s: %q, want %q", c.json, got, c.want)
		}
	}
}
