package listing

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/spf13/cobra"
)

// issuesOn starts a reference server with alice/app holding count issues
// and returns a client logged in as alice.
func issuesOn(t *testing.T, count int) *client.Client {
	t.Helper()
	srv := refservertest.Start(t)
	tok := refservertest.User(t, srv, "alice", "")
	if _, err := srv.CreateRepo("alice", "app", refserver.RepoOptions{}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= count; i++ {
		if _, err := srv.CreateIssue("alice/app", "alice", fmt.Sprintf("Issue %d", i), ""); err != nil {
			t.Fatal(err)
		}
	}
	c, err := client.New(srv.BaseURL(), tok)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func flagsFor(t *testing.T, args ...string) *Flags {
	t.Helper()
	l := &Flags{}
	cmd := &cobra.Command{Use: "list"}
	l.Add(cmd, DefaultLimit, "issues", "number", "title")
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	return l
}

func TestValidate(t *testing.T) {
	if err := flagsFor(t, "--limit", "0").Validate(); cmdcore.ExitCode(err) != cmdcore.ExitUsage {
		t.Errorf("--limit 0: %v", err)
	}
	if err := flagsFor(t, "--jq", ".[").Validate(); cmdcore.ExitCode(err) != cmdcore.ExitUsage {
		t.Errorf("bad jq: %v", err)
	}
	if err := flagsFor(t, "-L", "250").Validate(); err != nil {
		t.Errorf("valid flags: %v", err)
	}
	if got := flagsFor(t, "-L", "250").PerPage().PerPage; got != 100 {
		t.Errorf("PerPage for 250 = %d, want the service's maximum 100", got)
	}
	if got := flagsFor(t, "-L", "7").PerPage().PerPage; got != 7 {
		t.Errorf("PerPage for 7 = %d", got)
	}
}

func TestDrainStopsAtTheLimit(t *testing.T) {
	c := issuesOn(t, 5)
	ctx := context.Background()
	app := client.RepoName{Owner: "alice", Name: "app"}
	l := flagsFor(t, "--limit", "3")
	ios, _, out, _ := iostreams.Test()
	var titles []string
	n, err := Drain(ios, l, c.Issues.List(ctx, app, client.IssueListOptions{ListOptions: l.PerPage()}), func(is *client.Issue) {
		titles = append(titles, is.Title)
	})
	if err != nil || n != 3 || len(titles) != 3 || out.Len() != 0 {
		t.Fatalf("n=%d titles=%v err=%v out=%q", n, titles, err, out)
	}

	l = flagsFor(t, "--limit", "4", "--json=number")
	n, err = Drain(ios, l, c.Issues.List(ctx, app, client.IssueListOptions{ListOptions: l.PerPage()}), func(*client.Issue) {
		t.Error("row called while exporting JSON")
	})
	var got []map[string]int
	if err != nil || n != 4 || json.Unmarshal(out.Bytes(), &got) != nil || len(got) != 4 || got[0]["number"] == 0 {
		t.Fatalf("JSON export: n=%d err=%v out=%s", n, err, out)
	}
}

func TestDrainEmptyListIsAnEmptyArray(t *testing.T) {
	c := issuesOn(t, 0)
	ios, _, out, _ := iostreams.Test()
	l := flagsFor(t, "--json")
	n, err := Drain(ios, l, c.Issues.List(context.Background(), client.RepoName{Owner: "alice", Name: "app"}, client.IssueListOptions{}), func(*client.Issue) {})
	if err != nil || n != 0 || out.String() != "[]\n" {
		t.Fatalf("n=%d err=%v out=%q", n, err, out)
	}
}

// TestEmptySentenceNamesTheFilters: with filters given, an empty list says
// nothing matched them and drops the hint to create the first record.
func TestEmptySentenceNamesTheFilters(t *testing.T) {
	none := func() []string { return nil }
	two := func() []string { return []string{"--user bob", `--search "a b"`} }
	for _, c := range []struct {
		empty   string
		filters func() []string
		want    string
	}{
		{"No releases in alice/app", none, "No releases in alice/app"},
		{"No releases in alice/app", nil, "No releases in alice/app"},
		{"No workflow runs in alice/app.", two, `No workflow runs in alice/app match --user bob --search "a b"`},
		{"No repositories yet; create one with `forge repo create NAME`.", two, `No repositories match --user bob --search "a b"`},
	} {
		if got := emptySentence(c.empty, c.filters); got != c.want {
			t.Errorf("emptySentence(%q) = %q, want %q", c.empty, got, c.want)
		}
	}
}
