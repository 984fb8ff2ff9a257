package gitremote

import (
	"context"
	"errors"
	"os/exec"
	"testing"
)

func TestParseURL(t *testing.T) {
	cases := []struct {
		in, host, repo string
	}{
		{"https://forge.example.com/alice/app.git", "forge.example.com", "alice/app"},
		{"https://forge.example.com/alice/app", "forge.example.com", "alice/app"},
		{"http://127.0.0.1:8080/alice/app.git", "127.0.0.1:8080", "alice/app"},
		{"http://127.0.0.1:8080/git/alice/app.git", "127.0.0.1:8080", "alice/app"},
		{"https://user:tok@Forge.Example.com/alice/app.git", "forge.example.com", "alice/app"},
		{"git@forge.example.com:alice/app.git", "forge.example.com", "alice/app"},
		{"forge.example.com:alice/app", "forge.example.com", "alice/app"},
		{"ssh://git@forge.example.com:2222/alice/app.git", "forge.example.com:2222", "alice/app"},
		{"ssh://forge.example.com/alice/my.app.git", "forge.example.com", "alice/my.app"},
	}
	for _, c := range cases {
		host, r, ok := ParseURL(c.in)
		if !ok || host != c.host || r.String() != c.repo {
			t.Errorf("ParseURL(%q) = %q %q %v; want %q %q", c.in, host, r, ok, c.host, c.repo)
		}
	}
	for _, bad := range []string{"", "/local/path/repo", "./repo", "https://host/onlyone", "file:///srv/a/b.git"} {
		if _, _, ok := ParseURL(bad); ok {
			t.Errorf("ParseURL(%q) accepted", bad)
		}
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"alice/app":                                "/alice/app",
		"alice/app.git":                            "/alice/app",
		"forge.example.com/alice/app":              "forge.example.com/alice/app",
		"Forge.Example.com:8443/alice/app":         "forge.example.com:8443/alice/app",
		"https://forge.example.com/alice/app":      "forge.example.com/alice/app",
		"https://forge.example.com/alice/app.git":  "forge.example.com/alice/app",
		"http://127.0.0.1:8080/alice/app":          "127.0.0.1:8080/alice/app",
		"git@forge.example.com:alice/app.git":      "forge.example.com/alice/app",
		"ssh://git@forge.example.com:22/alice/app": "forge.example.com:22/alice/app",
		"github.com/alice/webapp":                  "github.com/alice/webapp",
	} {
		if h, r, err := Parse(in); err != nil || h+"/"+r.String() != want {
			t.Errorf("Parse(%q) = %q %v, %v; want %s", in, h, r, err, want)
		}
	}
	for _, bad := range []string{"", "alice", "alice/", "/app", "a/b/c/d", "al ice/app", "../x", "h st/a/b"} {
		if _, _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestPick(t *testing.T) {
	remotes := []Remote{
		{Name: "mirror", URL: "https://other.example/alice/app.git"},
		{Name: "fork", URL: "git@forge.example.com:bob/app.git"},
		{Name: "origin", URL: "git@forge.example.com:alice/app.git"},
		{Name: "upstream", URL: "https://forge.example.com:8443/team/app.git"},
	}
	cases := []struct {
		host, want, remote string
	}{
		{"forge.example.com:8443", "team/app", "upstream"}, // exact host:port wins
		{"forge.example.com", "alice/app", "origin"},       // origin before other same-host remotes
		{"other.example", "alice/app", "mirror"},
	}
	for _, c := range cases {
		r, rm, ok := Pick(remotes, c.host)
		if !ok || r.String() != c.want || rm.Name != c.remote {
			t.Errorf("Pick(%s) = %v %v %v; want %s from %s", c.host, r, rm.Name, ok, c.want, c.remote)
		}
	}
	if _, _, ok := Pick(remotes, "nowhere.example"); ok {
		t.Error("picked a remote for an unrelated host")
	}
	// Same host only: upstream over origin over others.
	r, _, _ := Pick([]Remote{{Name: "a", URL: "git@h:x/a.git"}, {Name: "origin", URL: "git@h:x/o.git"}, {Name: "upstream", URL: "git@h:x/u.git"}}, "h:80")
	if r.Name != "u" {
		t.Errorf("preference order broken: %v", r)
	}
}

func TestRemotesFromRealRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ctx := context.Background()
	if _, err := Remotes(ctx, dir); !errors.Is(err, ErrNoGit) {
		t.Fatalf("outside a repository: err = %v", err)
	}
	run("init", "-q")
	if rs, err := Remotes(ctx, dir); err != nil || len(rs) != 0 {
		t.Fatalf("no remotes: %v %v", rs, err)
	}
	run("remote", "add", "origin", "http://127.0.0.1:8080/alice/app.git")
	run("remote", "add", "upstream", "git@127.0.0.1:team/app.git")
	rs, err := Remotes(ctx, dir)
	if err != nil || len(rs) != 2 {
		t.Fatalf("remotes = %v, %v", rs, err)
	}
	r, rm, ok := Pick(rs, "127.0.0.1:8080")
	if !ok || r.String() != "alice/app" || rm.Name != "origin" {
		t.Fatalf("Pick = %v %v %v", r, rm, ok)
	}
}
