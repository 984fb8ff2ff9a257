package agentctx

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/chat"
)

func TestRedactEachForm(t *testing.T) {
	const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlX2J5dGVz"
	cases := []struct{ in, want, secret string }{
		{"using token fgt_AbCdEf0123456789AbCdEf0123456789AbCdEf01 for the push", "using token fgt_**** for the push", "fgt_AbCdEf0123456789"},
		{"AGENT_API_KEY=agk_0123456789abcdef0123456789abcdef", "AGENT_API_KEY=agk_****", "agk_0123456789abcdef"},
		{"registry token: " + jwt, "registry token: ****", jwt},
		{"> Authorization: token s3cr3t-value", "> Authorization: token ****", "s3cr3t-value"},
		{"authorization: Bearer abc.def.ghi", "authorization: Bearer ****", "abc.def.ghi"},
		{`-H "Authorization: Basic YWxpY2U6cGFzcw=="`, `-H "Authorization: Basic ****"`, "YWxpY2U6cGFzcw"},
		{"Authorization=raw-secret-1", "Authorization=****", "raw-secret-1"},
		{"X-API-Key: k3y-value", "X-API-Key: ****", "k3y-value"},
		{"fetching https://alice:hunter2pass@git.example.com/alice/demo.git", "fetching https://alice:****@git.example.com/alice/demo.git", "hunter2pass"},
		{"DATABASE_URL=postgres://app:pa%40ss@db:5432/app", "DATABASE_URL=postgres://app:****@db:5432/app", "pa%40ss"},
	}
	for _, c := range cases {
		got := Redact(c.in)
		if got != c.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
		if strings.Contains(got, c.secret) {
			t.Errorf("Redact(%q) kept the secret %q", c.in, c.secret)
		}
	}
}

func TestRedactLeavesOrdinaryLines(t *testing.T) {
	for _, s := range []string{
		"2026-01-02T03:04:05.000Z ##[error]Process completed with exit code 1.",
		"see https://example.com/docs for the authorization rules",
		"ok  \texample.com/app\t0.012s",
		"fgt_short is not a token",
	} {
		if got := Redact(s); got != s {
			t.Errorf("Redact(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestParseRef(t *testing.T) {
	good := map[string]Ref{
		"issue:12":            {Kind: "issue", N: 12},
		"run:57":              {Kind: "run", N: 57},
		"file:docs/a b.md":    {Kind: "file", Path: "docs/a b.md"},
		"file:/go.mod@v0.1.0": {Kind: "file", Path: "go.mod", Rev: "v0.1.0"},
		"commit:ABCdef1":      {Kind: "commit", SHA: "abcdef1"},
		"Issue:#3":            {Kind: "issue", N: 3},
	}
	for in, want := range good {
		got, err := ParseRef(in)
		want.Raw = in
		if err != nil || got != want {
			t.Errorf("ParseRef(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "12", "issue:", "issue:x", "run:-1", "file:", "file:a@", "commit:xyz1", "commit:ab", "pr:3"} {
		_, err := ParseRef(in)
		if err == nil || !IsRefError(err) || !strings.Contains(err.Error(), Forms) {
			t.Errorf("ParseRef(%q) = %v; want a RefError naming the forms", in, err)
		}
	}
}

func TestFinishMakesTitlesPrintable(t *testing.T) {
	a := &chat.Attachment{Title: "Issue #1: \x1b]0;pwned\x07 title", Sections: []*chat.Section{{Title: "job \x1b[2Jx (failure): log", Lines: []string{"\x1b[31mred\x1b[0m"}}}}
	finish(a, Options{})
	if strings.ContainsAny(a.Title+a.Sections[0].Title, "\x1b\x07") {
		t.Errorf("titles keep control characters: %q, %q", a.Title, a.Sections[0].Title)
	}
	// The lines go to the agent, not to a terminal: left as they are.
	if a.Sections[0].Lines[0] != "\x1b[31mred\x1b[0m" {
		t.Errorf("a log line was changed: %q", a.Sections[0].Lines[0])
	}
}
