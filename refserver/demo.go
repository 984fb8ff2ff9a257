package refserver

import (
	"fmt"
	"time"

	"github.com/forgehq/forge/refserver/ci"
	"github.com/forgehq/forge/refserver/store"
)

// DemoPassword is the password of every --demo account but the admin.
const DemoPassword = "forge-demo-password"

// DemoUsers lists the --demo accounts and their roles.
var DemoUsers = [][2]string{
	{"alice", store.RoleUser}, {"bob", store.RoleUser}, {"carol", store.RoleCustomerAdmin},
	{"dave", store.RoleUser}, {"erin", store.RoleSiteAdmin},
}

// SeedDemo adds the --demo world (see seedDemo) to a server that has only
// its admin account, as Options.Demo does on a fresh one: for tests that
// want the demo world on a server they started themselves.
func (s *Server) SeedDemo() error { return s.seedDemo() }

// seedDemo fills an empty server with the --demo world: users of each
// role (dave invited by carol), public and private repositories with a
// few commits, open and closed issues with comments, pull requests in each
// state, releases, and workflow runs in each state — one of them starting
// now, so `forge run watch` has something to watch. Records are dated
// over the past weeks.
func (s *Server) seedDemo() error {
	d := demo{s: s}
	defer s.ago.Store(0)
	d.at(30 * 24 * time.Hour)
	for _, u := range DemoUsers {
		d.user(u[0], u[1])
	}
	d.do(s.st.UpdateProfile(d.id("alice"), store.Profile{FullName: ptr("Alice Martin"), Location: ptr("Lyon"), Website: ptr("https://alice.example.com")}))
	d.do(s.st.UpdateProfile(d.id("bob"), store.Profile{FullName: ptr("Bob Okafor")}))
	d.do(s.st.UpdateProfile(d.id("carol"), store.Profile{FullName: ptr("Carol Chen")}))
	d.do(s.st.UpdateProfile(d.id("dave"), store.Profile{FullName: ptr("Dave Kowalski")}))
	d.do(s.st.UpdateProfile(d.id("erin"), store.Profile{FullName: ptr("Erin Walsh")}))
	d.at(29 * 24 * time.Hour)
	d.invite("carol", "frank", false)

	d.at(28 * 24 * time.Hour)
	d.do(s.CreateRepo("alice", "webapp", RepoOptions{Description: "A small web application in Go", AutoInit: true}))
	d.at(27 * 24 * time.Hour)
	d.do(s.CommitFiles("alice/webapp", "", map[string]string{
		"go.mod":            "module example.com/webapp\n\ngo 1.26\n",
		"main.go":           "package main\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n)\n\nfunc main() {\n\thttp.HandleFunc(\"/\", func(w http.ResponseWriter, r *http.Request) {\n\t\tfmt.Fprintln(w, \"hello\")\n\t})\n\thttp.ListenAndServe(\":8080\", nil)\n}\n",
		"docs/deploy.md":    "# Deploying\n\nBuild with `go build` and run the binary behind a proxy.\n",
		".forge/ci.yml":     "jobs: [build, test]\n",
		"internal/db/db.go": "package db\n\n// Open connects to the database.\nfunc Open(dsn string) error { return nil }\n",
	}, "Add the server, the db package and docs"))
	d.at(20 * 24 * time.Hour)
	d.do(s.CommitFiles("alice/webapp", "", map[string]string{"README.md": "# webapp\n\nA small web application in Go.\n\n## Run\n\n    go run .\n"}, "README: how to run"))
	d.do(nil, s.AddCollaborator("alice/webapp", "bob", store.PermWrite))
	d.do(nil, s.AddCollaborator("alice/webapp", "dave", store.PermRead))

	d.do(s.CreateRepo("alice", "infra", RepoOptions{Description: "Deployment scripts (private)", Private: true, AutoInit: true}))
	d.do(s.CommitFiles("alice/infra", "", map[string]string{"deploy.sh": "#!/bin/sh\nset -e\necho deploying\n"}, "Add deploy script"))
	d.do(nil, s.AddCollaborator("alice/infra", "bob", store.PermAdmin))
	d.at(15 * 24 * time.Hour)
	d.do(s.CreateRepo("bob", "dotfiles", RepoOptions{Description: "My shell and editor settings", AutoInit: true}))
	d.do(s.CommitFiles("bob/dotfiles", "", map[string]string{".bashrc": "export EDITOR=vim\n", ".vimrc": "set number\n"}, "Add bashrc and vimrc"))
	d.do(s.CreateRepo("carol", "handbook", RepoOptions{Description: "Team handbook", AutoInit: true}))
	d.do(s.CreateRepo("dave", "scratch", RepoOptions{Description: "Empty for now"}))

	// Issues, with comments, some closed.
	issues := []struct {
		author, title, body string
		ago                 time.Duration
		comments            [][2]string
		closed              bool
	}{
		{"bob", "Server crashes on empty request body", "Sending `POST /` with no body panics:\n\n```\npanic: runtime error: invalid memory address\n```", 19, [][2]string{{"alice", "Thanks, I can reproduce it."}, {"bob", "Fixed by checking the body first?"}}, true},
		{"dave", "Document the deploy process", "The docs only say *build and run*. What about TLS?", 12, [][2]string{{"alice", "Good point, I'll write it up."}}, false},
		{"alice", "Add a health check endpoint", "`GET /healthz` should answer 200 when the database is reachable.", 9, nil, false},
		{"bob", "Use structured logging", "Switch to `log/slog` with JSON output in production.", 6, [][2]string{{"alice", "Yes please."}, {"dave", "+1"}, {"bob", "Started on a branch."}}, false},
		{"alice", "Typo in README", "\"applicaton\"", 5, nil, true},
		{"dave", "Support graceful shutdown", "Ctrl-C should drain connections.", 2, nil, false},
	}
	for _, is := range issues {
		d.at(is.ago * 24 * time.Hour)
		i, err := s.CreateIssue("alice/webapp", is.author, is.title, is.body)
		d.do(i, err)
		for k, c := range is.comments {
			d.at((is.ago*24 - time.Duration(k+1)*3) * time.Hour)
			d.do(s.AddComment("alice/webapp", i.Number, c[0], c[1]))
		}
		if is.closed {
			d.at((is.ago*24 - 20) * time.Hour)
			d.do(nil, s.SetIssueState("alice/webapp", i.Number, store.StateClosed))
		}
	}
	d.at(3 * 24 * time.Hour)
	d.do(s.CreateIssue("bob/dotfiles", "bob", "Try a new prompt", ""))

	// Pull requests in each state.
	d.at(10 * 24 * time.Hour)
	d.do(s.CreatePull("alice/webapp", PullSeed{Title: "Fix crash on empty body", Body: "Fixes #1.", Author: "bob", Head: "fix-empty-body", State: "merged"}))
	d.at(7 * 24 * time.Hour)
	d.do(s.CreatePull("alice/webapp", PullSeed{Title: "Experiment: switch router", Author: "dave", Head: "router", State: "closed"}))
	d.at(4 * 24 * time.Hour)
	d.do(s.CreatePull("alice/webapp", PullSeed{Title: "Structured logging with slog", Body: "Closes #4.", Author: "bob", Head: "slog"}))
	d.at(1 * 24 * time.Hour)
	d.do(s.CreatePull("alice/webapp", PullSeed{Title: "Health check endpoint", Author: "alice", Head: "healthz", Draft: true}))

	// Releases.
	d.at(21 * 24 * time.Hour)
	d.do(s.CreateRelease("alice/webapp", ReleaseSeed{Tag: "v0.1.0", Name: "First release", Body: "The server answers hello."}))
	d.at(9 * 24 * time.Hour)
	d.do(s.CreateRelease("alice/webapp", ReleaseSeed{Tag: "v0.2.0", Name: "v0.2.0", Body: "- Fix crash on empty body (#1)"}))
	d.at(2 * 24 * time.Hour)
	d.do(s.CreateRelease("alice/webapp", ReleaseSeed{Tag: "v0.3.0-rc.1", Name: "v0.3.0 release candidate", Prerelease: true}))
	d.do(s.CreateRelease("alice/webapp", ReleaseSeed{Tag: "v0.3.0", Name: "v0.3.0 (draft)", Draft: true}))

	// Workflow runs in each state.
	runs := []struct {
		ago                               time.Duration
		branch, event, status, conclusion string
	}{
		{8 * 24 * time.Hour, "main", "push", ci.Completed, ci.Success},
		{6 * 24 * time.Hour, "fix-empty-body", "pull_request", ci.Completed, ci.Failure},
		{5 * 24 * time.Hour, "fix-empty-body", "pull_request", ci.Completed, ci.Success},
		{3 * 24 * time.Hour, "router", "pull_request", ci.Completed, ci.Cancelled},
		{2 * time.Hour, "slog", "pull_request", ci.InProgress, ""},
		{time.Hour, "healthz", "pull_request", ci.Queued, ""},
	}
	for _, r := range runs {
		d.at(r.ago)
		d.do(s.CreateRun("alice/webapp", RunSeed{Branch: r.branch, Event: r.event, Status: r.status, Conclusion: r.conclusion}))
	}
	d.at(0)
	d.do(s.CreateRun("alice/webapp", RunSeed{Branch: "main", Event: "push"}))
	d.do(s.CreateRun("bob/dotfiles", RunSeed{Status: ci.Completed}))
	return d.err
}

// demo carries the first error through the seeding steps.
type demo struct {
	s   *Server
	err error
}

func (d *demo) at(ago time.Duration) { d.s.ago.Store(int64(ago)) }

func (d *demo) do(_ any, err error) {
	if d.err == nil && err != nil {
		d.err = err
	}
}

// invite creates login as invited by inviter, activated or still pending.
func (d *demo) invite(inviter, login string, activated bool) {
	by, ok := d.s.st.UserByLogin(inviter)
	if !ok {
		d.do(nil, fmt.Errorf("no demo user %s", inviter))
		return
	}
	hash, err := store.HashPassword(DemoPassword, d.s.opts.PasswordCost)
	d.do(nil, err)
	inv, err := d.s.st.CreateInvite(store.NewUser{Login: login, Email: login + "@example.com", Role: store.RoleUser, PasswordHash: hash, InvitedBy: &by})
	d.do(inv, err)
	if err == nil && activated {
		d.do(nil, d.s.st.MarkActivated(inv.UserID))
	}
}

func (d *demo) user(login, role string) {
	if login == "dave" {
		d.invite("carol", login, true)
		return
	}
	_, err := d.s.CreateUser(login, DemoPassword, role)
	d.do(nil, err)
	if err == nil {
		u, _ := d.s.st.UserByLogin(login)
		d.do(d.s.st.UpdateProfile(u.ID, store.Profile{Email: ptr(login + "@example.com")}))
	}
}

func (d *demo) id(login string) int64 {
	u, ok := d.s.st.UserByLogin(login)
	if !ok {
		d.do(nil, fmt.Errorf("no demo user %s", login))
	}
	return u.ID
}

func ptr[T any](v T) *T { return &v }
