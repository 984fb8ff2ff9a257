package refserver_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

func TestRepos(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	bob := mustUser(t, s, "bob", "bob-password-1234", "")

	r := want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "app", "description": "An app", "private": false, "auto_init": true}), 201)
	if r.str("full_name") != "alice/app" || r.str("default_branch") != "main" || r.obj["private"] != false ||
		r.str("html_url") != s.URL()+"/alice/app" || r.str("clone_url") != s.URL()+"/alice/app.git" ||
		!strings.HasPrefix(r.str("ssh_url"), "git@127.0.0.1:alice/app.git") || r.str("description") != "An app" {
		t.Errorf("created repo %s", r.raw)
	}
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "APP"}), 409)
	for _, bad := range []string{"", "a b", "x.git", "..", strings.Repeat("x", 101), "é"} {
		want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": bad}), 400)
	}
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "ok", "private": "yes"}), 400)
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "secret", "private": true}), 201)

	l := want(t, call(t, s, "GET", "/repos", alice, nil), 200)
	if len(l.arr) != 2 {
		t.Fatalf("alice's repos %s", l.raw)
	}
	for _, x := range l.arr {
		if x.(map[string]any)["updated_at"] == "" {
			t.Errorf("no updated_at in %v", x)
		}
	}
	if l := want(t, call(t, s, "GET", "/repos", bob, nil), 200); len(l.arr) != 0 {
		t.Errorf("bob's repos %s", l.raw)
	}

	// Private: 404 for strangers, visible to collaborators.
	want(t, call(t, s, "GET", "/repos/alice/secret", bob, nil), 404)
	want(t, call(t, s, "GET", "/repos/alice/app", bob, nil), 200)
	want(t, call(t, s, "POST", "/repos/alice/secret/collaborators", alice, map[string]string{"username": "bob", "permission": "read"}), 201)
	want(t, call(t, s, "GET", "/repos/alice/secret", bob, nil), 200)
	if l := want(t, call(t, s, "GET", "/repos", bob, nil), 200); len(l.arr) != 1 {
		t.Errorf("bob's repos as collaborator %s", l.raw)
	}

	// Patch and delete need admin.
	want(t, call(t, s, "PATCH", "/repos/alice/app", bob, map[string]any{"description": "mine now"}), 403)
	p := want(t, call(t, s, "PATCH", "/repos/alice/app", alice, map[string]any{"description": "Better", "private": true}), 200)
	if p.str("description") != "Better" || p.obj["private"] != true {
		t.Errorf("patched %s", p.raw)
	}
	want(t, call(t, s, "PATCH", "/repos/alice/app", alice, map[string]any{"default_branch": "nope"}), 400)
	want(t, call(t, s, "PATCH", "/repos/alice/app", alice, `{"private": 1}`), 400)
	want(t, call(t, s, "DELETE", "/repos/alice/app", bob, nil), 404) // private now, bob is not a collaborator
	want(t, call(t, s, "DELETE", "/repos/alice/secret", bob, nil), 403)
	want(t, call(t, s, "DELETE", "/repos/alice/app", alice, nil), 200)
	want(t, call(t, s, "GET", "/repos/alice/app", alice, nil), 404)
	want(t, call(t, s, "GET", "/repos/alice/nothing", alice, nil), 404)
}

func TestContentsAndCommits(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "empty"}), 201)
	want(t, call(t, s, "GET", "/repos/alice/empty/contents", alice, nil), 404)
	if c := want(t, call(t, s, "GET", "/repos/alice/empty/commits", alice, nil), 200); len(c.arr) != 0 {
		t.Errorf("commits of an empty repo %s", c.raw)
	}

	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "app", "description": "An app", "auto_init": true}), 201)
	root := want(t, call(t, s, "GET", "/repos/alice/app/contents", alice, nil), 200)
	if len(root.arr) != 1 || root.arr[0].(map[string]any)["name"] != "README.md" || root.arr[0].(map[string]any)["type"] != "file" {
		t.Fatalf("root %s", root.raw)
	}
	readme := want(t, call(t, s, "GET", "/repos/alice/app/contents/README.md", alice, nil), 200)
	body, err := base64.StdEncoding.DecodeString(readme.str("content"))
	if err != nil || string(body) != "# app\n\nAn app\n" || readme.str("encoding") != "base64" || readme.obj["size"] != float64(len(body)) {
		t.Errorf("README %s (%q)", readme.raw, body)
	}

	first, err := s.CommitFiles("alice/app", "", map[string]string{"src/main.go": "package main\n", "src/util/u.go": "package util\n", "bin.dat": "\x00\x01\xff"}, "Add code")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CommitFiles("alice/app", "", map[string]string{"README.md": "# app\n\nv2\n"}, "Update README"); err != nil {
		t.Fatal(err)
	}
	src := want(t, call(t, s, "GET", "/repos/alice/app/contents/src", alice, nil), 200)
	names := ""
	for _, e := range src.arr {
		m := e.(map[string]any)
		names += fmt.Sprintf("%s:%s:%s:%v ", m["name"], m["type"], m["path"], m["size"])
	}
	if names != "main.go:file:src/main.go:13 util:dir:src/util:0 " {
		t.Errorf("src listing %q", names)
	}
	bin := want(t, call(t, s, "GET", "/repos/alice/app/contents/bin.dat", alice, nil), 200)
	if b, _ := base64.StdEncoding.DecodeString(bin.str("content")); string(b) != "\x00\x01\xff" {
		t.Errorf("binary content %q", b)
	}
	// ?ref= reads an older version.
	old := want(t, call(t, s, "GET", "/repos/alice/app/contents/README.md?ref="+first, alice, nil), 200)
	if b, _ := base64.StdEncoding.DecodeString(old.str("content")); string(b) != "# app\n\nAn app\n" {
		t.Errorf("README at %s: %q", first, b)
	}
	want(t, call(t, s, "GET", "/repos/alice/app/contents/nope.txt", alice, nil), 404)
	want(t, call(t, s, "GET", "/repos/alice/app/contents/README.md?ref=nobranch", alice, nil), 404)

	commits := want(t, call(t, s, "GET", "/repos/alice/app/commits", alice, nil), 200)
	if len(commits.arr) != 3 {
		t.Fatalf("commits %s", commits.raw)
	}
	c0 := commits.arr[0].(map[string]any)
	inner := c0["commit"].(map[string]any)
	if inner["message"] != "Update README\n" || inner["author"].(map[string]any)["name"] == "" ||
		inner["author"].(map[string]any)["email"] != "alice@example.com" || inner["author"].(map[string]any)["date"] == "" ||
		c0["html_url"] != s.URL()+"/alice/app/commit/"+c0["sha"].(string) || len(c0["sha"].(string)) != 40 {
		t.Errorf("newest commit %v", c0)
	}
	if commits.arr[1].(map[string]any)["sha"] != first {
		t.Errorf("second commit is not %s", first)
	}
	paged := want(t, call(t, s, "GET", "/repos/alice/app/commits?per_page=2&page=2", alice, nil), 200)
	if len(paged.arr) != 1 || !strings.Contains(paged.header.Get("Link"), `rel="prev"`) {
		t.Errorf("page 2: %d items, Link %q", len(paged.arr), paged.header.Get("Link"))
	}
	want(t, call(t, s, "GET", "/repos/alice/app/commits/"+first, alice, nil), 200)
	// ?path= keeps the commits that changed it; ?sha= starts elsewhere; an
	// abbreviated hash resolves.
	if c := want(t, call(t, s, "GET", "/repos/alice/app/commits?path=src", alice, nil), 200); len(c.arr) != 1 || c.arr[0].(map[string]any)["sha"] != first {
		t.Errorf("commits touching src %s", c.raw)
	}
	if c := want(t, call(t, s, "GET", "/repos/alice/app/commits?path=README.md", alice, nil), 200); len(c.arr) != 2 {
		t.Errorf("commits touching README.md %s", c.raw)
	}
	if c := want(t, call(t, s, "GET", "/repos/alice/app/commits?sha="+first[:7], alice, nil), 200); len(c.arr) != 2 || c.arr[0].(map[string]any)["sha"] != first {
		t.Errorf("commits from %s %s", first[:7], c.raw)
	}
	want(t, call(t, s, "GET", "/repos/alice/app/commits/ffffffffffffffffffffffffffffffffffffffff", alice, nil), 404)
}

func TestIssues(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	bob := mustUser(t, s, "bob", "bob-password-1234", "")
	carl := mustUser(t, s, "carl", "carl-password-123", "")
	if _, err := s.CreateRepo("alice", "app", refserver.RepoOptions{}); err != nil {
		t.Fatal(err)
	}
	i1 := want(t, call(t, s, "POST", "/repos/alice/app/issues", bob, map[string]string{"title": "Crash on start", "body": "It crashes."}), 201)
	if i1.obj["number"] != float64(1) || i1.str("state") != "open" || i1.str("html_url") != s.URL()+"/alice/app/issues/1" ||
		i1.obj["user"].(map[string]any)["login"] != "bob" || i1.str("created_at") == "" {
		t.Errorf("issue 1 %s", i1.raw)
	}
	want(t, call(t, s, "POST", "/repos/alice/app/issues", alice, map[string]string{"title": "Second"}), 201)
	want(t, call(t, s, "POST", "/repos/alice/app/issues", alice, map[string]string{"body": "no title"}), 400)
	want(t, call(t, s, "POST", "/repos/alice/app/issues", alice, map[string]string{"title": "  "}), 400)

	c := want(t, call(t, s, "POST", "/repos/alice/app/issues/1/comments", carl, map[string]string{"body": "Me too"}), 201)
	if c.str("body") != "Me too" || c.obj["user"].(map[string]any)["login"] != "carl" {
		t.Errorf("comment %s", c.raw)
	}
	want(t, call(t, s, "POST", "/repos/alice/app/issues/1/comments", carl, map[string]string{}), 400)
	want(t, call(t, s, "POST", "/repos/alice/app/issues/9/comments", carl, map[string]string{"body": "x"}), 404)

	got := want(t, call(t, s, "GET", "/repos/alice/app/issues/1", carl, nil), 200)
	cl, ok := got.obj["comments_list"].([]any)
	if !ok || len(cl) != 1 || cl[0].(map[string]any)["body"] != "Me too" || got.obj["comments"] != float64(1) {
		t.Errorf("issue with comments %s", got.raw)
	}
	want(t, call(t, s, "GET", "/repos/alice/app/issues/99", carl, nil), 404)
	want(t, call(t, s, "GET", "/repos/alice/app/issues/x", carl, nil), 404)

	// State: a stranger may not close; the author and the owner may.
	want(t, call(t, s, "POST", "/repos/alice/app/issues/1/state", carl, map[string]string{"state": "closed"}), 403)
	want(t, call(t, s, "POST", "/repos/alice/app/issues/1/state", bob, map[string]string{"state": "shut"}), 400)
	cls := want(t, call(t, s, "POST", "/repos/alice/app/issues/1/state", bob, map[string]string{"state": "closed"}), 200)
	if cls.str("state") != "closed" || cls.str("closed_at") == "" {
		t.Errorf("closed %s", cls.raw)
	}
	want(t, call(t, s, "POST", "/repos/alice/app/issues/1/state", bob, map[string]string{"state": "closed"}), 200)
	want(t, call(t, s, "POST", "/repos/alice/app/issues/2/state", bob, map[string]string{"state": "closed"}), 403)
	want(t, call(t, s, "POST", "/repos/alice/app/issues/2/state", alice, map[string]string{"state": "closed"}), 200)
	want(t, call(t, s, "POST", "/repos/alice/app/issues/2/state", alice, map[string]string{"state": "open"}), 200)

	list := func(q string) string {
		r := want(t, call(t, s, "GET", "/repos/alice/app/issues"+q, carl, nil), 200)
		out := ""
		for _, x := range r.arr {
			m := x.(map[string]any)
			out += fmt.Sprintf("%v:%v:%v ", m["number"], m["state"], m["comments"])
		}
		return out
	}
	if got := list(""); got != "2:open:0 " {
		t.Errorf("open issues %q", got)
	}
	if got := list("?state=closed"); got != "1:closed:1 " {
		t.Errorf("closed issues %q", got)
	}
	if got := list("?state=all"); got != "2:open:0 1:closed:1 " {
		t.Errorf("all issues %q", got)
	}
	want(t, call(t, s, "GET", "/repos/alice/app/issues?state=bogus", carl, nil), 400)

	// PATCH edits, with the same rules.
	want(t, call(t, s, "PATCH", "/repos/alice/app/issues/1", carl, map[string]string{"title": "mine"}), 403)
	e := want(t, call(t, s, "PATCH", "/repos/alice/app/issues/1", bob, map[string]string{"title": "Crash at start", "state": "open"}), 200)
	if e.str("title") != "Crash at start" || e.str("state") != "open" {
		t.Errorf("patched issue %s", e.raw)
	}
	// Lists are served from a cache of encodings: it follows every change.
	if got := list(""); got != "2:open:0 1:open:1 " {
		t.Errorf("open issues after reopening %q", got)
	}
	want(t, call(t, s, "POST", "/repos/alice/app/issues/2/comments", carl, map[string]string{"body": "Second"}), 201)
	l := want(t, call(t, s, "GET", "/repos/alice/app/issues", carl, nil), 200)
	if m := l.arr[0].(map[string]any); m["comments"] != float64(1) || l.arr[1].(map[string]any)["title"] != "Crash at start" {
		t.Errorf("list after comment and edit %s", l.raw)
	}
	if l := want(t, call(t, s, "GET", "/repos/alice/app/issues/1/comments", carl, nil), 200); len(l.arr) != 1 {
		t.Errorf("comments %s", l.raw)
	}
}

func TestPagination(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	if _, err := s.CreateRepo("alice", "big", refserver.RepoOptions{}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 75; i++ {
		if _, err := s.CreateIssue("alice/big", "", fmt.Sprintf("Issue %d", i), ""); err != nil {
			t.Fatal(err)
		}
	}
	r := want(t, call(t, s, "GET", "/repos/alice/big/issues", alice, nil), 200)
	if len(r.arr) != 30 || r.arr[0].(map[string]any)["number"] != float64(75) {
		t.Fatalf("default page: %d items", len(r.arr))
	}
	link := r.header.Get("Link")
	next := s.BaseURL() + "/repos/alice/big/issues?page=2&per_page=30"
	last := s.BaseURL() + "/repos/alice/big/issues?page=3&per_page=30"
	if link != fmt.Sprintf(`<%s>; rel="next", <%s>; rel="last"`, next, last) {
		t.Errorf("Link %q", link)
	}
	// Follow next to the end: every issue exactly once.
	seen := map[float64]bool{}
	url := s.BaseURL() + "/repos/alice/big/issues?per_page=20"
	for pages := 0; url != ""; pages++ {
		r := want(t, call(t, s, "GET", url, alice, nil), 200)
		for _, x := range r.arr {
			n := x.(map[string]any)["number"].(float64)
			if seen[n] {
				t.Fatalf("issue %v twice", n)
			}
			seen[n] = true
		}
		url = ""
		for _, part := range strings.Split(r.header.Get("Link"), ", ") {
			if strings.HasSuffix(part, `rel="next"`) {
				url = strings.TrimSuffix(strings.TrimPrefix(strings.Split(part, ";")[0], "<"), ">")
			}
		}
		if pages > 10 {
			t.Fatal("too many pages")
		}
	}
	if len(seen) != 75 {
		t.Errorf("saw %d issues, want 75", len(seen))
	}
	if r := want(t, call(t, s, "GET", "/repos/alice/big/issues?per_page=500", alice, nil), 200); len(r.arr) != 75 && len(r.arr) != 100 {
		t.Errorf("per_page over 100 gave %d", len(r.arr))
	}
	if r := want(t, call(t, s, "GET", "/repos/alice/big/issues?page=9", alice, nil), 200); string(r.raw) != "[]\n" {
		t.Errorf("past the end: %s", r.raw)
	}
	for _, q := range []string{"page=0", "page=x", "per_page=-1"} {
		want(t, call(t, s, "GET", "/repos/alice/big/issues?"+q, alice, nil), 400)
	}
}

// GET .../commits/{sha} lists the files the commit changed, with line
// counts for text and none for binary files.
func TestCommitFiles(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	if _, err := s.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CommitFiles("alice/app", "", map[string]string{"a.txt": "one\ntwo\n"}, "first"); err != nil {
		t.Fatal(err)
	}
	sha, err := s.CommitFiles("alice/app", "", map[string]string{"a.txt": "one\nTWO\nthree\n", "logo.bin": "\x00\x01\x02"}, "second")
	if err != nil {
		t.Fatal(err)
	}
	c := want(t, call(t, s, "GET", "/repos/alice/app/commits/"+sha, alice, nil), 200)
	files, _ := c.obj["files"].([]any)
	got := map[string]map[string]any{}
	for _, f := range files {
		m := f.(map[string]any)
		got[m["filename"].(string)] = m
	}
	if a := got["a.txt"]; a == nil || a["status"] != "modified" || a["additions"] != float64(2) || a["deletions"] != float64(1) {
		t.Errorf("a.txt: %v (all: %s)", a, c.raw)
	}
	if b := got["logo.bin"]; b == nil || b["status"] != "added" || b["additions"] != nil {
		t.Errorf("logo.bin: %v (all: %s)", b, c.raw)
	}
	if len(got) != 2 {
		t.Errorf("files %s", c.raw)
	}
}
