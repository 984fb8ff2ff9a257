package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver/ci"
	"github.com/forgehq/forge/refserver/store"
)

var t0 = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// open opens a store over dir ("" in memory) on the fixed clock t0,
// closed when the test ends.
func open(t *testing.T, dir string) *store.Store {
	t.Helper()
	s, err := store.Open(dir, func() time.Time { return t0 })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// reopen closes s and opens its directory again, as a restarted server.
func reopen(t *testing.T, s *store.Store, dir string) *store.Store {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return open(t, dir)
}

// must(f())(t) fails the test on f's error and returns its value.
func must[T any](v T, err error) func(*testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func user(t *testing.T, s *store.Store, login string) store.User {
	t.Helper()
	return must(s.CreateUser(store.NewUser{Login: login, Email: login + "@example.com", Role: store.RoleUser, Activated: true}))(t)
}

// aliceApp opens a store over dir with alice and her repository app.
func aliceApp(t *testing.T, dir string) (*store.Store, store.User, store.Repo) {
	t.Helper()
	s := open(t, dir)
	alice := user(t, s, "alice")
	return s, alice, must(s.CreateRepo(alice, "app", "", false))(t)
}

// TestReopenKeepsEverything: what one run wrote, deletions included, is
// there after a restart over the same directory; numbering and IDs carry
// on where they stopped.
func TestReopenKeepsEverything(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := open(t, dir)
	alice, bob := user(t, s, "alice"), user(t, s, "bob")
	tok := must(s.IssueToken(alice.ID, false))(t)
	must(s.AddKey(alice.ID, "laptop", "ssh-ed25519 AAAA alice", "SHA256:alice"))(t)
	app := must(s.CreateRepo(alice, "app", "the app", true))(t)
	gone := must(s.CreateRepo(alice, "gone", "", false))(t)
	must(s.SetCollaborator(app.ID, bob, store.PermWrite))(t)
	must(s.CreateIssue(app.ID, bob, "First", "body", time.Time{}))(t)
	issue := must(s.CreateIssue(app.ID, alice, "Second", "", time.Time{}))(t)
	must(s.AddComment(app.ID, issue.Number, bob, "a comment", time.Time{}))(t)
	closed := store.StateClosed
	must(s.UpdateIssue(app.ID, issue.Number, alice, store.IssuePatch{State: &closed}))(t)
	must(s.CreatePull(app.ID, store.Pull{Title: "Feature", State: store.StateOpen, Author: "bob", AuthorID: bob.ID, Head: "feature", Base: "main"}))(t)
	must(s.CreateRelease(app.ID, store.Release{TagName: "v1.0.0", Author: "alice", AuthorID: alice.ID}))(t)
	run := must(s.CreateRun(app.ID, store.Run{Name: "CI", Actor: "alice", Plan: ci.Plan{Jobs: []ci.JobPlan{{Name: "build"}, {Name: "test"}}}}))(t)
	if err := s.DeleteRepo(gone.ID); err != nil {
		t.Fatal(err)
	}

	s = reopen(t, s, dir)
	if u, _, ok := s.Authenticate(tok); !ok || u.Login != "alice" {
		t.Errorf("alice's token after restart: %v %v", u.Login, ok)
	}
	if keys := s.Keys(alice.ID); len(keys) != 1 || keys[0].Fingerprint != "SHA256:alice" {
		t.Errorf("keys %+v", keys)
	}
	r, ok := s.RepoByName("ALICE", "App")
	if !ok || !r.Private || r.Description != "the app" || r.LastIssue != 2 {
		t.Fatalf("alice/app %+v %v", r, ok)
	}
	if _, ok := s.RepoByName("alice", "gone"); ok {
		t.Error("a deleted repository came back")
	}
	if p := s.Permission(app.ID, bob.ID); p != store.PermWrite {
		t.Errorf("bob's permission %q", p)
	}
	got, comments, ok := s.IssueByNumber(app.ID, 2)
	if !ok || got.State != store.StateClosed || got.ClosedBy != "alice" || len(comments) != 1 || comments[0].Body != "a comment" {
		t.Errorf("issue 2 %+v, comments %+v", got, comments)
	}
	if pr, ok := s.PullByNumber(app.ID, 1); !ok || pr.Head != "feature" {
		t.Errorf("pull 1 %+v %v", pr, ok)
	}
	if rels := s.Releases(app.ID); len(rels) != 1 || rels[0].PublishedAt == nil {
		t.Errorf("releases %+v", rels)
	}
	if ro, ok := s.RunOfJob(app.ID, run.Plan.Jobs[1].ID); !ok || ro.ID != run.ID || ro.ActorID != alice.ID {
		t.Errorf("run of job %d: %+v %v", run.Plan.Jobs[1].ID, ro, ok)
	}
	// Numbers and IDs carry on: no reuse of a deleted or a job's ID.
	third := must(s.CreateIssue(app.ID, alice, "Third", "", time.Time{}))(t)
	if third.Number != 3 || third.ID <= run.Plan.Jobs[1].ID || third.ID <= gone.ID {
		t.Errorf("after restart: issue number %d, ID %d (last job ID %d)", third.Number, third.ID, run.Plan.Jobs[1].ID)
	}
}

// TestFailedUpdateChangesNothing: an update refused for a conflict leaves
// the state, and the journal, as they were.
func TestFailedUpdateChangesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := open(t, dir)
	alice := user(t, s, "alice")
	_, err := s.CreateUser(store.NewUser{Login: "Alice", Role: store.RoleUser})
	if store.KindOf(err) != store.Taken {
		t.Errorf("a login taken in another case: %v (kind %d)", err, store.KindOf(err))
	}
	if _, err := s.CreateUser(store.NewUser{Login: "carol", Role: "owner"}); store.KindOf(err) != store.InvalidInput {
		t.Errorf("an unknown role: %v", err)
	}
	app := must(s.CreateRepo(alice, "app", "", false))(t)
	if _, err := s.CreateRepo(alice, "APP", "", false); store.KindOf(err) != store.Taken {
		t.Errorf("a repository name taken in another case: %v", err)
	}
	must(s.CreateRelease(app.ID, store.Release{TagName: "v1"}))(t)
	if _, err := s.CreateRelease(app.ID, store.Release{TagName: "v1", Name: "again"}); store.KindOf(err) != store.Taken {
		t.Errorf("a second release of a tag: %v", err)
	}
	s = reopen(t, s, dir)
	if n := len(s.Users(nil)); n != 1 {
		t.Errorf("%d users after the refused ones", n)
	}
	if rels := s.Releases(app.ID); len(rels) != 1 || rels[0].Name != "" {
		t.Errorf("releases %+v", rels)
	}
	if err := errors.New("x"); store.KindOf(err) != store.Internal {
		t.Error("an error of no status is not a 500")
	}
}

// journalOf writes a journal of two updates (alice, then bob) and returns
// its bytes.
func journalOf(t *testing.T, dir string) []byte {
	t.Helper()
	s := open(t, dir)
	user(t, s, "alice")
	user(t, s, "bob")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "journal.jsonl"))
	if err != nil || bytes.Count(b, []byte("\n")) != 2 {
		t.Fatalf("journal %q %v", b, err)
	}
	return b
}

// TestTornLastLine: a last line without its newline (an update cut off by
// a crash, never acknowledged) is dropped and reported; the rest is kept.
func TestTornLastLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := journalOf(t, dir)
	torn := b[:len(b)-10]
	if err := os.WriteFile(filepath.Join(dir, "journal.jsonl"), torn, 0o600); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir)
	if _, ok := s.UserByLogin("alice"); !ok {
		t.Error("alice, on the whole first line, was lost")
	}
	if _, ok := s.UserByLogin("bob"); ok {
		t.Error("bob, on the torn line, was kept")
	}
	last := torn[bytes.IndexByte(torn, '\n')+1:]
	if want := fmt.Sprintf("dropped its torn last line (%d bytes", len(last)); !strings.Contains(s.Dropped(), want) {
		t.Errorf("Dropped %q, want it to say %q", s.Dropped(), want)
	}
	// Open starts from a fresh snapshot: the next start drops nothing.
	if s = reopen(t, s, dir); s.Dropped() != "" {
		t.Errorf("second start: %q", s.Dropped())
	}
}

// TestDamagedLineRefused: a damaged line before the last is not a crash's
// doing; Open refuses the directory, naming the line, rather than start
// with updates missing.
func TestDamagedLineRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := journalOf(t, dir)
	b[2] = '#'
	if err := os.WriteFile(filepath.Join(dir, "journal.jsonl"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := store.Open(dir, nil)
	if err == nil || !strings.Contains(err.Error(), "journal.jsonl line 1") {
		t.Errorf("Open: %v", err)
	}
}

// TestCompaction: past 8 MiB the journal is folded into the snapshot and
// starts again empty; nothing is lost.
func TestCompaction(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, alice, app := aliceApp(t, dir)
	body := strings.Repeat("x", 1<<20)
	for i := range 9 {
		must(s.CreateIssue(app.ID, alice, fmt.Sprint("Issue ", i+1), body, time.Time{}))(t)
	}
	// The eighth update took the journal past 8 MiB: the snapshot holds
	// the first eight issues, the journal only the ninth.
	j, _ := os.ReadFile(filepath.Join(dir, "journal.jsonl"))
	snap, _ := os.ReadFile(filepath.Join(dir, "state.json"))
	if bytes.Count(j, []byte("\n")) != 1 || !bytes.Contains(j, []byte("Issue 9")) || !bytes.Contains(snap, []byte("Issue 8")) {
		t.Fatalf("after 9 MiB of updates: a journal of %d lines, a snapshot of %d bytes", bytes.Count(j, []byte("\n")), len(snap))
	}
	must(s.CreateIssue(app.ID, alice, "Issue 10", "", time.Time{}))(t)
	s = reopen(t, s, dir)
	if n := s.OpenIssueCount(app.ID); n != 10 {
		t.Errorf("%d issues after compaction and restart", n)
	}
	if i, _, _ := s.IssueByNumber(app.ID, 9); len(i.Body) != 1<<20 {
		t.Errorf("issue 9's body is %d bytes", len(i.Body))
	}
}

// TestTokens: a token exists in clear only once (the store keeps its
// hash); a new password or disabling the account revokes every token;
// wrong two-factor codes revoke a pending token after max.
func TestTokens(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := open(t, dir)
	alice := user(t, s, "alice")
	first := must(s.IssueToken(alice.ID, false))(t)
	second := must(s.IssueToken(alice.ID, false))(t)
	if !strings.HasPrefix(first, "fgt_") || first == second {
		t.Errorf("tokens %q %q", first, second)
	}
	if _, err := s.IssueToken(999, false); store.KindOf(err) != store.Missing {
		t.Errorf("a token for no one: %v", err)
	}
	kept := must(s.SetPassword(alice.ID, []byte("new hash"), true))(t)
	for _, tok := range []string{first, second} {
		if _, _, ok := s.Authenticate(tok); ok {
			t.Error("a token from before the new password still works")
		}
	}
	if _, _, ok := s.Authenticate(kept); !ok {
		t.Error("the session that changed the password lost its token")
	}
	must(s.SetDisabled(alice.ID, true))(t)
	must(s.SetDisabled(alice.ID, false))(t)
	if _, _, ok := s.Authenticate(kept); ok {
		t.Error("a token survived disabling the account")
	}

	pending := must(s.IssueToken(alice.ID, true))(t)
	_, tok, ok := s.Authenticate(pending)
	if !ok || !tok.Pending {
		t.Fatalf("pending token %+v %v", tok, ok)
	}
	for i := 1; i <= 3; i++ {
		revoked, err := s.CountBadCode(tok.ID, 3)
		if err != nil || revoked != (i == 3) {
			t.Errorf("bad code %d: revoked %v, %v", i, revoked, err)
		}
	}
	if err := s.VerifyToken(tok.ID); store.KindOf(err) != store.Revoked {
		t.Errorf("verifying a revoked token: %v", err)
	}
	s.Close()
	for _, name := range []string{"state.json", "journal.jsonl"} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		for _, tok := range []string{first, second, kept, pending} {
			if bytes.Contains(b, []byte(tok)) {
				t.Errorf("%s holds a token in clear", name)
			}
		}
	}
}

// TestUseStep: each TOTP time step is accepted once, and never one at or
// before the last accepted, across a restart too.
func TestUseStep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := open(t, dir)
	alice := user(t, s, "alice")
	if err := s.ChangeTwoFA(alice.ID, 100, "SECRET", 0); err != nil {
		t.Fatal(err)
	}
	for _, step := range []int64{100, 99} {
		if err := s.UseStep(alice.ID, step); err != store.ErrReplay {
			t.Errorf("step %d again: %v", step, err)
		}
	}
	s = reopen(t, s, dir)
	if err := s.UseStep(alice.ID, 100); err != store.ErrReplay {
		t.Errorf("step 100 after a restart: %v", err)
	}
	if err := s.ChangeTwoFA(alice.ID, 100, "", 0); err != store.ErrReplay {
		t.Errorf("disabling with step 100 after a restart: %v", err)
	}
	if err := s.UseStep(alice.ID, 101); err != nil {
		t.Errorf("step 101: %v", err)
	}
	if u, _ := s.UserByID(alice.ID); !u.TwoFA || u.LastStep != 101 {
		t.Errorf("alice %+v", u)
	}
}

// TestDeleteUser takes the account's tokens, keys, collaborations and
// repositories with it, and returns the repositories' IDs.
func TestDeleteUser(t *testing.T) {
	t.Parallel()
	s := open(t, "")
	alice, bob := user(t, s, "alice"), user(t, s, "bob")
	app := must(s.CreateRepo(alice, "app", "", false))(t)
	must(s.SetCollaborator(app.ID, bob, store.PermRead))(t)
	dots := must(s.CreateRepo(bob, "dotfiles", "", false))(t)
	must(s.AddKey(bob.ID, "k", "ssh-ed25519 AAAA bob", "SHA256:bob"))(t)
	if _, err := s.AddKey(alice.ID, "k", "ssh-ed25519 AAAA bob", "SHA256:bob"); store.KindOf(err) != store.Taken {
		t.Errorf("a key of bob's added to alice: %v", err)
	}
	tok := must(s.IssueToken(bob.ID, false))(t)
	repos, err := s.DeleteUser(bob.ID)
	if err != nil || len(repos) != 1 || repos[0] != dots.ID {
		t.Fatalf("DeleteUser: %v %v", repos, err)
	}
	if _, _, ok := s.Authenticate(tok); ok {
		t.Error("bob's token works")
	}
	if c := s.Collaborators(app.ID); len(c) != 0 {
		t.Errorf("collaborators %+v", c)
	}
	if _, ok := s.RepoByID(dots.ID); ok {
		t.Error("bob/dotfiles is left")
	}
	if _, err := s.AddKey(alice.ID, "k", "ssh-ed25519 AAAA bob", "SHA256:bob"); err != nil {
		t.Errorf("bob's old key for alice: %v", err)
	}
	if _, err := s.DeleteUser(bob.ID); store.KindOf(err) != store.Missing {
		t.Errorf("deleting bob twice: %v", err)
	}
}

// TestIssuesPage: newest first, filtered by state; bounds is told how
// many match.
func TestIssuesPage(t *testing.T) {
	t.Parallel()
	s, alice, app := aliceApp(t, "")
	for i := 1; i <= 5; i++ {
		must(s.CreateIssue(app.ID, alice, fmt.Sprint(i), "", time.Time{}))(t)
	}
	closed := store.StateClosed
	must(s.UpdateIssue(app.ID, 4, alice, store.IssuePatch{State: &closed}))(t)
	page := func(state string, lo, hi int) string {
		var total int
		l, err := s.Issues(app.ID, state, func(n int) (int, int, error) { total = n; return lo, min(hi, n), nil })
		if err != nil {
			t.Fatal(err)
		}
		var nums []string
		for _, i := range l {
			nums = append(nums, fmt.Sprint(i.Number))
		}
		return fmt.Sprintf("%d: %s", total, strings.Join(nums, " "))
	}
	for _, c := range []struct {
		state  string
		lo, hi int
		want   string
	}{
		{"open", 0, 10, "4: 5 3 2 1"},
		{"open", 1, 3, "4: 3 2"},
		{"closed", 0, 10, "1: 4"},
		{"all", 3, 10, "5: 2 1"},
	} {
		if got := page(c.state, c.lo, c.hi); got != c.want {
			t.Errorf("%s [%d,%d): %q, want %q", c.state, c.lo, c.hi, got, c.want)
		}
	}
	if n := s.OpenIssueCount(app.ID); n != 4 {
		t.Errorf("open count %d", n)
	}
}

// TestConcurrentIssues: issues opened at once get the numbers 1..n, each
// once.
func TestConcurrentIssues(t *testing.T) {
	t.Parallel()
	s, alice, app := aliceApp(t, t.TempDir())
	var wg sync.WaitGroup
	numbers := make(chan int64, 40)
	for range 4 {
		wg.Go(func() {
			for range 10 {
				i, err := s.CreateIssue(app.ID, alice, "at once", "", time.Time{})
				if err != nil {
					t.Error(err)
					return
				}
				numbers <- i.Number
			}
		})
	}
	wg.Wait()
	close(numbers)
	seen := map[int64]bool{}
	for n := range numbers {
		if seen[n] || n < 1 || n > 40 {
			t.Errorf("number %d twice or out of 1..40", n)
		}
		seen[n] = true
	}
	if len(seen) != 40 {
		t.Errorf("%d numbers", len(seen))
	}
}

func TestValidLoginAndName(t *testing.T) {
	t.Parallel()
	for login, ok := range map[string]bool{
		"alice": true, "a": true, "a.b-c_d9": true, strings.Repeat("a", 39): true,
		"": false, "Alice": false, "a..b": false, "-a": false, "a-": false, "a b": false, strings.Repeat("a", 40): false,
	} {
		if got := store.ValidLogin(login) == ""; got != ok {
			t.Errorf("ValidLogin(%q) accepts: %v, want %v", login, got, ok)
		}
	}
	for name, ok := range map[string]bool{
		"app": true, "My.App-2_x": true, strings.Repeat("a", 100): true,
		"": false, ".": false, "..": false, "app.git": false, "a/b": false, "a b": false, strings.Repeat("a", 101): false,
	} {
		if got := store.ValidName(name) == ""; got != ok {
			t.Errorf("ValidName(%q) accepts: %v, want %v", name, got, ok)
		}
	}
}

// TestLockDir: a second server over a directory in use is refused, and
// may start once the first has let go.
func TestLockDir(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	unlock, err := store.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.LockDir(dir); err == nil || !strings.Contains(err.Error(), "in use by another server") {
		t.Errorf("second lock: %v", err)
	}
	unlock()
	again, err := store.LockDir(dir)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	again()
}

// A snapshot whose tables are null (as json.Marshal writes an empty map
// that was nil) opens as empty tables that take new records.
func TestSnapshotWithNullTables(t *testing.T) {
	dir := t.TempDir()
	tables := []string{"users", "tokens", "keys", "invites", "repos", "collaborators", "issues", "comments", "pulls", "releases", "runs"}
	var b strings.Builder
	for i, name := range tables {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%q:null", name)
	}
	if err := os.WriteFile(filepath.Join(dir, "state.json"), []byte("{"+b.String()+"}"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir)
	if _, err := s.CreateUser(store.NewUser{Login: "dana", Role: store.RoleUser}); err != nil {
		t.Fatalf("CreateUser on a snapshot of null tables: %v", err)
	}
}
