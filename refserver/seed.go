package refserver

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver/ci"
	"github.com/forgehq/forge/refserver/gitstore"
	"github.com/forgehq/forge/refserver/store"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// Seeding: Go methods that create data directly in the store, bypassing
// HTTP and permission checks, for tests and the demo. Each returns the
// record as stored.

// Store is the server's state, for tests that need more than the seeding
// methods.
func (s *Server) Store() *store.Store { return s.st }

// CreateUser creates an activated account with a password and a role
// ("" is user). Passwords are not checked against the API's minimum
// length, so tests may use short ones.
func (s *Server) CreateUser(login, password, role string) (store.User, error) {
	if role == "" {
		role = store.RoleUser
	}
	if why := store.ValidLogin(login); why != "" {
		return store.User{}, fmt.Errorf("user %q: %s", login, why)
	}
	hash, err := store.HashPassword(password, s.opts.PasswordCost)
	if err != nil {
		return store.User{}, err
	}
	return s.st.CreateUser(store.NewUser{Login: login, Email: login + "@example.com", FullName: login,
		Role: role, PasswordHash: hash, Activated: true})
}

func (s *Server) user(login string) (store.User, error) {
	u, ok := s.st.UserByLogin(login)
	if !ok {
		return store.User{}, fmt.Errorf("no user %q", login)
	}
	return u, nil
}

// Token issues an API token for login, as a completed login would.
func (s *Server) Token(login string) (string, error) {
	u, err := s.user(login)
	if err != nil {
		return "", err
	}
	return s.st.IssueToken(u.ID, false)
}

// EnableTwoFA turns on two-factor authentication for login and returns
// the TOTP secret (base32), from which tests compute codes with
// github.com/pquerna/otp/totp.
func (s *Server) EnableTwoFA(login string) (string, error) {
	u, err := s.user(login)
	if err != nil {
		return "", err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: "forge", AccountName: u.Login, Digits: otp.DigitsSix})
	if err != nil {
		return "", err
	}
	return key.Secret(), s.st.SetTwoFA(u.ID, key.Secret())
}

// RepoOptions describe a repository to seed.
type RepoOptions struct {
	Description string
	Private     bool
	// AutoInit makes a first commit with a README.md.
	AutoInit bool
}

// CreateRepo creates owner/name.
func (s *Server) CreateRepo(owner, name string, o RepoOptions) (store.Repo, error) {
	u, err := s.user(owner)
	if err != nil {
		return store.Repo{}, err
	}
	if why := store.ValidName(name); why != "" {
		return store.Repo{}, fmt.Errorf("repository %q: %s", name, why)
	}
	repo, err := s.st.CreateRepo(u, name, o.Description, o.Private)
	if err != nil {
		return store.Repo{}, err
	}
	if err := s.git.Init(repo.ID, repo.DefaultBranch); err != nil {
		return store.Repo{}, err
	}
	if o.AutoInit {
		readme := "# " + name + "\n"
		if o.Description != "" {
			readme += "\n" + o.Description + "\n"
		}
		if _, err := s.CommitFiles(repo.FullName(), "", map[string]string{"README.md": readme}, "Initial commit"); err != nil {
			return store.Repo{}, err
		}
	}
	repo, _ = s.st.RepoByID(repo.ID)
	return repo, nil
}

func (s *Server) repo(fullName string) (store.Repo, error) {
	owner, name, _ := strings.Cut(fullName, "/")
	r, ok := s.st.RepoByName(owner, name)
	if !ok {
		return store.Repo{}, fmt.Errorf("no repository %q", fullName)
	}
	return r, nil
}

// CommitFiles commits files (path -> content; "" content is kept as an
// empty file) to branch ("" is the default branch) as the repository's
// owner, and returns the commit hash. It counts as a push: the
// repository's updated_at moves; no workflow run starts.
func (s *Server) CommitFiles(fullName, branch string, files map[string]string, message string) (string, error) {
	repo, err := s.repo(fullName)
	if err != nil {
		return "", err
	}
	owner, err := s.user(repo.Owner)
	if err != nil {
		return "", err
	}
	if branch == "" {
		branch = repo.DefaultBranch
	}
	g, err := s.git.Open(repo.ID)
	if err != nil {
		return "", err
	}
	bs := make(map[string][]byte, len(files))
	for p, c := range files {
		bs[p] = []byte(c)
	}
	sha, err := g.Commit(branch, bs, strings.TrimRight(message, "\n")+"\n",
		gitstore.Signature{Name: owner.FullName, Email: owner.Email, When: s.now()})
	if err != nil {
		return "", err
	}
	s.st.TouchRepo(repo.ID)
	return sha, nil
}

// AddCollaborator grants login perm (read, write or admin) on fullName.
func (s *Server) AddCollaborator(fullName, login, perm string) error {
	repo, err := s.repo(fullName)
	if err != nil {
		return err
	}
	u, err := s.user(login)
	if err != nil {
		return err
	}
	if store.PermRank(perm) == 0 {
		return fmt.Errorf("permission %q: want read, write or admin", perm)
	}
	_, err = s.st.SetCollaborator(repo.ID, u, perm)
	return err
}

// CreateIssue opens an issue by author ("" is the repository's owner).
func (s *Server) CreateIssue(fullName, author, title, body string) (store.Issue, error) {
	repo, err := s.repo(fullName)
	if err != nil {
		return store.Issue{}, err
	}
	if author == "" {
		author = repo.Owner
	}
	u, err := s.user(author)
	if err != nil {
		return store.Issue{}, err
	}
	return s.st.CreateIssue(repo.ID, u, title, body, time.Time{})
}

// SetIssueState closes ("closed") or reopens ("open") an issue, as its
// repository's owner.
func (s *Server) SetIssueState(fullName string, number int64, state string) error {
	repo, err := s.repo(fullName)
	if err != nil {
		return err
	}
	if state != store.StateOpen && state != store.StateClosed {
		return fmt.Errorf("state %q: want open or closed", state)
	}
	u, err := s.user(repo.Owner)
	if err != nil {
		return err
	}
	_, err = s.st.UpdateIssue(repo.ID, number, u, store.IssuePatch{State: &state})
	return err
}

// AddComment comments on an issue as author ("" is the owner).
func (s *Server) AddComment(fullName string, number int64, author, body string) (store.Comment, error) {
	repo, err := s.repo(fullName)
	if err != nil {
		return store.Comment{}, err
	}
	if author == "" {
		author = repo.Owner
	}
	u, err := s.user(author)
	if err != nil {
		return store.Comment{}, err
	}
	return s.st.AddComment(repo.ID, number, u, body, time.Time{})
}

// PullSeed describes a pull request to seed. Head defaults to a new
// branch named after the title's first word, created with one commit when
// it does not exist; Base to the default branch; Author to the owner;
// State is open, closed or merged.
type PullSeed struct {
	Title, Body, Author, Head, Base, State string
	Draft                                  bool
}

// CreatePull seeds a pull request.
func (s *Server) CreatePull(fullName string, p PullSeed) (store.Pull, error) {
	repo, err := s.repo(fullName)
	if err != nil {
		return store.Pull{}, err
	}
	if p.Author == "" {
		p.Author = repo.Owner
	}
	u, err := s.user(p.Author)
	if err != nil {
		return store.Pull{}, err
	}
	if p.Base == "" {
		p.Base = repo.DefaultBranch
	}
	if p.Head == "" {
		p.Head = "topic-" + strconv.FormatInt(repo.LastPull+1, 10)
	}
	g, err := s.git.Open(repo.ID)
	if err != nil {
		return store.Pull{}, err
	}
	if g.Head(p.Base) == "" {
		if _, err := s.CommitFiles(fullName, p.Base, map[string]string{"README.md": "# " + repo.Name + "\n"}, "Initial commit"); err != nil {
			return store.Pull{}, err
		}
	}
	if g.Head(p.Head) == "" {
		if err := g.Branch(p.Head, g.Head(p.Base)); err != nil {
			return store.Pull{}, err
		}
		if _, err := s.CommitFiles(fullName, p.Head, map[string]string{"CHANGES/" + p.Head + ".md": p.Title + "\n"}, p.Title); err != nil {
			return store.Pull{}, err
		}
	}
	pr := store.Pull{Title: p.Title, Body: p.Body, AuthorID: u.ID, Author: u.Login, Head: p.Head, HeadSHA: g.Head(p.Head),
		Base: p.Base, BaseSHA: g.Head(p.Base), Draft: p.Draft}
	now := s.st.Now()
	switch p.State {
	case "", store.StateOpen:
	case store.StateClosed:
		pr.State, pr.ClosedAt = store.StateClosed, &now
	case "merged":
		pr.State, pr.ClosedAt, pr.MergedAt, pr.Merged = store.StateClosed, &now, &now, true
	default:
		return store.Pull{}, fmt.Errorf("pull request state %q: want open, closed or merged", p.State)
	}
	return s.st.CreatePull(repo.ID, pr)
}

// ReleaseSeed describes a release to seed; its tag is created at the
// default branch when missing.
type ReleaseSeed struct {
	Tag, Name, Body, Author string
	Draft, Prerelease       bool
}

// CreateRelease seeds a release.
func (s *Server) CreateRelease(fullName string, rs ReleaseSeed) (store.Release, error) {
	repo, err := s.repo(fullName)
	if err != nil {
		return store.Release{}, err
	}
	if rs.Author == "" {
		rs.Author = repo.Owner
	}
	u, err := s.user(rs.Author)
	if err != nil {
		return store.Release{}, err
	}
	if g, err := s.git.Open(repo.ID); err == nil && !g.Empty() {
		if err := g.EnsureTag(rs.Tag, repo.DefaultBranch); err != nil {
			return store.Release{}, err
		}
	}
	if rs.Name == "" {
		rs.Name = rs.Tag
	}
	return s.st.CreateRelease(repo.ID, store.Release{TagName: rs.Tag, Target: repo.DefaultBranch, Name: rs.Name, Body: rs.Body,
		Draft: rs.Draft, Prerelease: rs.Prerelease, AuthorID: u.ID, Author: u.Login})
}

// RunSeed describes a workflow run to seed.
type RunSeed struct {
	// Name is the workflow's name (default "CI"); Branch defaults to the
	// default branch, Event to "push", Actor to the owner.
	Name, Branch, Event, Actor string
	// Status: "" starts the run now and lets it progress; "queued" and
	// "in_progress" hold it in that state (it never moves on);
	// "completed" makes it complete already.
	Status string
	// Conclusion: "success" (default), "failure" (the last job's last
	// step fails) or "cancelled" (cancelled halfway).
	Conclusion string
	// Jobs replace the default build and test jobs.
	Jobs []ci.JobPlan
	// Tick overrides Options.CITick for this run.
	Tick time.Duration
	// Stepped makes the run move one tick each time it is read (alone or
	// in the list of runs) instead of with time, from queued to its end: a test that
	// watches it sees each state on a machine of any speed.
	Stepped bool
}

// CreateRun seeds a workflow run.
func (s *Server) CreateRun(fullName string, rs RunSeed) (store.Run, error) {
	repo, err := s.repo(fullName)
	if err != nil {
		return store.Run{}, err
	}
	if rs.Name == "" {
		rs.Name = "CI"
	}
	if rs.Branch == "" {
		rs.Branch = repo.DefaultBranch
	}
	if rs.Event == "" {
		rs.Event = "push"
	}
	if rs.Actor == "" {
		rs.Actor = repo.Owner
	}
	if rs.Tick <= 0 {
		rs.Tick = s.opts.CITick
	}
	plan := ci.DefaultPlan()
	if len(rs.Jobs) > 0 {
		plan = ci.Plan{Jobs: rs.Jobs}
	}
	length := plan.Length()
	clock := ci.Clock{Origin: s.now(), Tick: rs.Tick}
	switch rs.Conclusion {
	case "", ci.Success:
	case ci.Failure:
		last := plan.Jobs[len(plan.Jobs)-1]
		plan.FailJob, plan.FailStep = len(plan.Jobs), len(last.Steps)
		length = plan.Length()
	case ci.Cancelled:
		c := length / 2
		clock.CancelAt = &c
	default:
		return store.Run{}, fmt.Errorf("conclusion %q: want success, failure or cancelled", rs.Conclusion)
	}
	switch rs.Status {
	case "":
	case ci.Queued:
		h := int64(0)
		clock.Hold = &h
	case ci.InProgress:
		h := length / 2
		if clock.CancelAt != nil {
			h = *clock.CancelAt - 1
		}
		clock.Hold = &h
	case ci.Completed:
		clock.Origin = clock.Origin.Add(-time.Duration(length+1) * rs.Tick)
	default:
		return store.Run{}, fmt.Errorf("status %q: want queued, in_progress or completed", rs.Status)
	}
	if rs.Stepped {
		if clock.Hold == nil {
			h := int64(0)
			clock.Hold = &h
		}
		// Ticks already past, so the hold alone decides where the run is.
		clock.Origin = clock.Origin.Add(-time.Duration(length+1) * rs.Tick)
		clock.Stepped = true
	}
	sha := ""
	if g, err := s.git.Open(repo.ID); err == nil {
		sha = g.Head(rs.Branch)
	}
	if sha == "" {
		sum := sha1.Sum([]byte(fullName + rs.Branch + clock.Origin.String()))
		sha = hex.EncodeToString(sum[:])
	}
	return s.st.CreateRun(repo.ID, store.Run{Name: rs.Name, Title: rs.Name + " on " + rs.Branch, Event: rs.Event,
		Branch: rs.Branch, SHA: sha, Actor: rs.Actor, CreatedAt: clock.Origin.UTC().Truncate(time.Second), Plan: plan, Clock: clock})
}
