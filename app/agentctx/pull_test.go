package agentctx_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/agentctx"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// leakyPull seeds alice/demo with bob's pull request from the branch
// leak: a config file that holds a token-looking assignment and a
// 400-line file. It returns the pull request's number.
func leakyPull(t *testing.T, srv *refserver.Server) int64 {
	t.Helper()
	refservertest.User(t, srv, "bob", "")
	// The first pull request makes the branch (from main); the second
	// one's head is the branch with the files committed.
	if _, err := srv.CreatePull("alice/demo", refserver.PullSeed{Title: "Start", Author: "bob", Head: "leak", Base: "main"}); err != nil {
		t.Fatal(err)
	}
	var big strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&big, "row %d of the table\n", i)
	}
	files := map[string]string{
		"deploy.env": "REGION=eu\nDEPLOY_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ0123456789\ndb password=hunter2-correct-horse\n",
		"table.txt":  big.String(),
	}
	if _, err := srv.CommitFiles("alice/demo", "leak", files, "Add the deploy settings"); err != nil {
		t.Fatal(err)
	}
	pr, err := srv.CreatePull("alice/demo", refserver.PullSeed{Title: "Deploy to eu", Body: "Deploys the app.\nSee deploy.env.", Author: "bob", Head: "leak", Base: "main"})
	if err != nil {
		t.Fatal(err)
	}
	return pr.Number
}

// TestPullRequestContext: pull:N attaches the pull request's fields and
// its diff, the secret in the diff masked, and a budget cuts the diff
// from its end with a note.
func TestPullRequestContext(t *testing.T) {
	srv, c := start(t)
	n := leakyPull(t, srv)
	repo := client.RepoName{Owner: "alice", Name: "demo"}
	ref := fmt.Sprintf("pull:%d", n)
	a, err := agentctx.Build(context.Background(), c, repo, ref, agentctx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	block := a.Block()
	for _, want := range []string{
		"```forge-context " + ref + "\n",
		fmt.Sprintf("Pull request #%d in alice/demo: Deploy to eu\n", n),
		"state: open; opened by bob on ",
		"branches: main ← leak (base ← head)\n",
		"Deploys the app.\nSee deploy.env.\n",
		"@@ diff: 3 changed files, +404 -0 @@\n",
		"added deploy.env (+3 -0)\n--- a/deploy.env\n+++ b/deploy.env\n@@ -0,0 +1,3 @@\n+REGION=eu\n+DEPLOY_TOKEN=",
		"+db password=****\n",
		"added table.txt (+400 -0)\n",
		"+row 400 of the table\n",
		"added CHANGES/leak.md (+1 -0)\n",
	} {
		if !strings.Contains(block, want) {
			t.Errorf("the attachment lacks %q:\n%s", want, block)
		}
	}
	for _, secret := range []string{"ghp_0123456789", "hunter2"} {
		if strings.Contains(block, secret) {
			t.Errorf("the attachment holds the secret %q", secret)
		}
	}

	if !chat.Fit([]*chat.Attachment{a}, 600) {
		t.Fatal("600 tokens do not fit even the titles")
	}
	cut := a.Block()
	if a.Tokens() > 600 || !strings.Contains(cut, "@@ diff: 3 changed files, +404 -0 @@\n[forge: cut ") ||
		!strings.Contains(cut, " lines from the end to fit the token budget]\n") || strings.Contains(cut, "row 400 ") {
		t.Errorf("cut to 600 tokens (%d):\n%s", a.Tokens(), cut)
	}
	if cuts := a.Cuts(); len(cuts) == 0 || !strings.HasPrefix(cuts[len(cuts)-1], ref+": cut ") || !strings.HasSuffix(cuts[len(cuts)-1], " lines from the end of diff: 3 changed files, +404 -0 to fit the token budget") {
		t.Errorf("cut notes: %q", cuts)
	}
}

func TestPullRequestRef(t *testing.T) {
	for ref, want := range map[string]string{"pull:3": "", "pull:#3": "", "pull:x": "pull takes a positive number", "pull:0": "pull takes a positive number"} {
		_, err := agentctx.ParseRef(ref)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", ref, err, want)
		}
	}
}
