package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// These tests run every service of the client against the reference
// server over loopback: the typed fields must match what a real server
// sends, not what the client's author imagined.

func loggedIn(t *testing.T, srv *refserver.Server, user, password string) *client.Client {
	t.Helper()
	anon, err := client.New(srv.BaseURL(), "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := anon.Account.Login(context.Background(), user, password)
	if err != nil {
		t.Fatal(err)
	}
	return anon.WithToken(res.Token)
}

// result carries a call's two results, so check(f()).in(t) fails the test
// on an error and returns the value.
type result[T any] struct {
	v   T
	err error
}

func check[T any](v T, err error) result[T] { return result[T]{v, err} }

func (r result[T]) in(t *testing.T) T {
	t.Helper()
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.v
}

func TestReposIssuesAgainstRefserver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := refservertest.Start(t)
	check(srv.CreateUser("alice", "alice-password-123", "user")).in(t)
	c := loggedIn(t, srv, "alice", "alice-password-123")

	repo := check(c.Repos.Create(ctx, client.RepoCreate{Name: "demo", Description: "a demo", AutoInit: true})).in(t)
	name := repo.RepoName()
	if name.String() != "alice/demo" || repo.ID == 0 || !strings.HasSuffix(repo.CloneURL, ".git") || repo.DefaultBranch == "" || repo.Owner.Login != "alice" {
		t.Fatalf("created repo %+v", repo)
	}
	got := check(c.Repos.Get(ctx, name)).in(t)
	if got.Description != "a demo" || got.HTMLURL == "" || got.SSHURL == "" {
		t.Fatalf("repo %+v", got)
	}
	desc := "changed"
	priv := true
	upd := check(c.Repos.Update(ctx, name, client.RepoUpdate{Description: &desc, Private: &priv})).in(t)
	if upd.Description != "changed" || !upd.Private {
		t.Fatalf("updated %+v", upd)
	}
	repos := check(client.Collect(c.Repos.List(ctx, client.ListOptions{}), 0)).in(t)
	if len(repos) != 1 || repos[0].UpdatedAt.IsZero() {
		t.Fatalf("list %+v", repos)
	}

	// Contents: the top directory, then a file.
	_, dir, err := c.Repos.Contents(ctx, name, "", client.ContentsOptions{})
	if err != nil || len(dir) == 0 || dir[0].Name != "README.md" || dir[0].Type != "file" {
		t.Fatalf("dir %+v, err %v", dir, err)
	}
	file, _, err := c.Repos.Contents(ctx, name, "README.md", client.ContentsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if body, err := file.Decoded(); err != nil || !strings.HasPrefix(string(body), "# demo") {
		t.Fatalf("README %q, err %v", body, err)
	}
	commits := check(client.Collect(c.Repos.Commits(ctx, name, client.ListOptions{}), 0)).in(t)
	if len(commits) != 1 || len(commits[0].SHA) < 7 || commits[0].Commit.Message == "" || commits[0].Commit.Author.Date.IsZero() {
		t.Fatalf("commits %+v", commits)
	}

	// Collaborators.
	check(srv.CreateUser("bob", "bob-password-1234", "user")).in(t)
	if err := c.Repos.AddCollaborator(ctx, name, "bob", "write"); err != nil {
		t.Fatal(err)
	}
	collabs := check(client.Collect(c.Repos.Collaborators(ctx, name, client.ListOptions{}), 0)).in(t)
	found := false
	for _, cb := range collabs {
		found = found || (cb.Login == "bob" && cb.Permission == "write")
	}
	if !found {
		t.Fatalf("collaborators %+v", collabs)
	}

	// Issues: create, comment, close, list by state, read with comments.
	is := check(c.Issues.Create(ctx, name, client.IssueCreate{Title: "Broken", Body: "It broke."})).in(t)
	if is.Number != 1 || is.State != "open" || is.HTMLURL == "" || is.User.Login != "alice" {
		t.Fatalf("issue %+v", is)
	}
	cm := check(c.Issues.Comment(ctx, name, 1, "Looking.")).in(t)
	if cm.Body != "Looking." {
		t.Fatalf("comment %+v", cm)
	}
	closed := check(c.Issues.Close(ctx, name, 1)).in(t)
	if closed.State != "closed" || closed.Number != 1 {
		t.Fatalf("closed %+v", closed)
	}
	open := check(client.Collect(c.Issues.List(ctx, name, client.IssueListOptions{State: "open"}), 0)).in(t)
	all := check(client.Collect(c.Issues.List(ctx, name, client.IssueListOptions{State: "all"}), 0)).in(t)
	if len(open) != 0 || len(all) != 1 || all[0].Comments != 1 {
		t.Fatalf("open %d, all %+v", len(open), all)
	}
	full := check(c.Issues.Get(ctx, name, 1)).in(t)
	if len(full.CommentsList) != 1 || full.CommentsList[0].User.Login != "alice" || full.CommentsList[0].CreatedAt.IsZero() {
		t.Fatalf("issue with comments %+v", full)
	}
	if _, err := c.Issues.Reopen(ctx, name, 1); err != nil {
		t.Fatal(err)
	}
	_, err = c.Issues.Get(ctx, name, 99)
	if !client.IsNotFound(err) {
		t.Fatalf("missing issue: %v", err)
	}

	if err := c.Repos.Delete(ctx, name); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Repos.Get(ctx, name); !client.IsNotFound(err) {
		t.Fatalf("deleted repo: %v", err)
	}
}

func TestPaginationAgainstRefserver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := refservertest.Start(t)
	check(srv.CreateUser("alice", "alice-password-123", "user")).in(t)
	check(srv.CreateRepo("alice", "many", refserver.RepoOptions{})).in(t)
	for i := 0; i < 7; i++ {
		check(srv.CreateIssue("alice/many", "alice", "issue", "")).in(t)
	}
	c := loggedIn(t, srv, "alice", "alice-password-123")
	name := client.RepoName{Owner: "alice", Name: "many"}
	issues := check(client.Collect(c.Issues.List(ctx, name, client.IssueListOptions{ListOptions: client.ListOptions{PerPage: 2}}), 0)).in(t)
	if len(issues) != 7 {
		t.Fatalf("%d issues over pages of 2", len(issues))
	}
	seen := map[int64]bool{}
	for _, is := range issues {
		if seen[is.Number] {
			t.Fatalf("issue %d twice", is.Number)
		}
		seen[is.Number] = true
	}
	first3 := check(client.Collect(c.Issues.List(ctx, name, client.IssueListOptions{ListOptions: client.ListOptions{PerPage: 2}}), 3)).in(t)
	if len(first3) != 3 {
		t.Fatalf("limit 3: %d", len(first3))
	}
}

func TestPullsReleasesActionsAgainstRefserver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := refservertest.Start(t)
	check(srv.CreateUser("alice", "alice-password-123", "user")).in(t)
	check(srv.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true})).in(t)
	check(srv.CreatePull("alice/app", refserver.PullSeed{Title: "Add feature", Body: "Adds it.", Draft: true})).in(t)
	check(srv.CreateRelease("alice/app", refserver.ReleaseSeed{Tag: "v1.0.0", Body: "First."})).in(t)
	run := check(srv.CreateRun("alice/app", refserver.RunSeed{Status: "completed", Conclusion: "failure"})).in(t)
	c := loggedIn(t, srv, "alice", "alice-password-123")
	name := client.RepoName{Owner: "alice", Name: "app"}

	pulls := check(client.Collect(c.Pulls.List(ctx, name, client.PullListOptions{}), 0)).in(t)
	if len(pulls) != 1 {
		t.Fatalf("pulls %+v", pulls)
	}
	pr := check(c.Pulls.Get(ctx, name, pulls[0].Number)).in(t)
	if pr.Title != "Add feature" || pr.State != "open" || !pr.Draft || pr.Head.Ref == "" || pr.Base.Ref == "" || pr.Head.SHA == "" || pr.User.Login != "alice" || pr.CreatedAt.IsZero() {
		t.Fatalf("pull %+v", pr)
	}
	if !strings.Contains(string(pr.RawJSON()), `"number"`) {
		t.Fatalf("raw %s", pr.RawJSON())
	}

	rels := check(client.Collect(c.Releases.List(ctx, name, client.ListOptions{}), 0)).in(t)
	if len(rels) != 1 || rels[0].TagName != "v1.0.0" || rels[0].Body != "First." || rels[0].Author.Login != "alice" {
		t.Fatalf("releases %+v", rels)
	}

	runs := check(client.Collect(c.Actions.ListRuns(ctx, name, client.RunListOptions{}), 0)).in(t)
	if len(runs) != 1 || runs[0].ID != run.ID || runs[0].Status != "completed" || runs[0].Conclusion != "failure" || runs[0].HeadBranch == "" {
		t.Fatalf("runs %+v", runs)
	}
	got := check(c.Actions.GetRun(ctx, name, run.ID)).in(t)
	if got.Name != "CI" || got.Event != "push" || got.HeadSHA == "" {
		t.Fatalf("run %+v", got)
	}
	jobs := check(client.Collect(c.Actions.ListJobs(ctx, name, run.ID, client.ListOptions{}), 0)).in(t)
	if len(jobs) == 0 || jobs[0].RunID != run.ID || len(jobs[0].Steps) == 0 || jobs[len(jobs)-1].Conclusion != "failure" {
		t.Fatalf("jobs %+v", jobs)
	}
	rc, err := c.Actions.JobLogs(ctx, name, jobs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	logs, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || len(logs) == 0 {
		t.Fatalf("logs %q, err %v", logs, err)
	}
	if _, err := c.Actions.JobLogs(ctx, name, 999999); !client.IsNotFound(err) {
		t.Fatalf("missing job logs: %v", err)
	}
}

func TestAdminAgainstRefserver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := refservertest.Start(t)
	admin := loggedIn(t, srv, srv.AdminUser(), srv.AdminPassword())
	inv := check(admin.Admin.CreateInvite(ctx, client.InviteCreate{Username: "newbie", Email: "newbie@example.com", FullName: "New Bie", Role: "user"})).in(t)
	if inv.Username != "newbie" || inv.FullName != "New Bie" || inv.Role != "user" {
		t.Fatalf("invite %+v\n%s", inv, inv.RawJSON())
	}
	invites := check(client.Collect(admin.Admin.ListInvites(ctx, client.ListOptions{}), 0)).in(t)
	found := false
	for _, i := range invites {
		found = found || (i.Username == "newbie" && i.Email == "newbie@example.com" && i.FullName == "New Bie")
	}
	if !found {
		t.Fatalf("invites %+v", invites)
	}
	check(srv.CreateUser("carl", "carl-password-123", "user")).in(t)
	users := check(client.Collect(admin.Admin.ListUsers(ctx, client.ListOptions{}), 0)).in(t)
	if len(users) < 2 {
		t.Fatalf("users %+v", users)
	}
	if already, err := admin.Admin.DisableUser(ctx, "carl"); err != nil || already {
		t.Fatalf("disable: already %v, %v", already, err)
	}
	if already, err := admin.Admin.DisableUser(ctx, "carl"); err != nil || !already {
		t.Fatalf("second disable: already %v, %v", already, err)
	}
	anon, _ := client.New(srv.BaseURL(), "")
	_, err := anon.Account.Login(ctx, "carl", "carl-password-123")
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusForbidden || !strings.Contains(apiErr.Message, "disabled") {
		t.Fatalf("disabled login: %v", err)
	}
	if already, err := admin.Admin.EnableUser(ctx, "carl"); err != nil || already {
		t.Fatalf("enable: already %v, %v", already, err)
	}
	carl := loggedIn(t, srv, "carl", "carl-password-123")
	// A plain user may not administer.
	_, err = client.Collect(carl.Admin.ListUsers(ctx, client.ListOptions{}), 0)
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusForbidden {
		t.Fatalf("user listing users: %v", err)
	}
	if err := admin.Admin.DeleteUser(ctx, "carl"); err != nil {
		t.Fatal(err)
	}
	if _, err := anon.Account.Login(ctx, "carl", "carl-password-123"); !client.HasStatus(err, http.StatusUnauthorized) {
		t.Fatalf("deleted user login: %v", err)
	}
}
