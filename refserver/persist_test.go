package refserver_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/forgehq/forge/refserver/store"
)

// TestPersistence: everything written through the API survives a restart
// with the same data directory, git contents included, and no secret is
// stored in clear.
func TestPersistence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s1 := refservertest.Start(t, refservertest.DataDir(dir))
	admin := login(t, s1, "admin", refservertest.AdminPassword)
	inv := want(t, call(t, s1, "POST", "/admin/invites", admin, map[string]string{"username": "alice", "email": "alice@example.com"}), 201)
	alice := login(t, s1, "alice", inv.str("temporary_password"))
	want(t, call(t, s1, "POST", "/me/password", alice, map[string]string{"old_password": inv.str("temporary_password"), "new_password": "alice-password-123"}), 200)
	alice = login(t, s1, "alice", "alice-password-123")
	want(t, call(t, s1, "POST", "/repos", alice, map[string]any{"name": "app", "auto_init": true, "private": true}), 201)
	want(t, call(t, s1, "POST", "/repos/alice/app/issues", alice, map[string]string{"title": "Persist me"}), 201)
	want(t, call(t, s1, "POST", "/repos/alice/app/issues/1/comments", alice, map[string]string{"body": "and me"}), 201)
	want(t, call(t, s1, "POST", "/repos/alice/app/issues/1/state", alice, map[string]string{"state": "closed"}), 200)
	line, fp := newKey(t, "k")
	want(t, call(t, s1, "POST", "/me/keys", alice, map[string]string{"title": "k", "key": line}), 201)
	if _, err := s1.CommitFiles("alice/app", "", map[string]string{"src/a.txt": "hello"}, "Add a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s1.CreateRun("alice/app", refserver.RunSeed{Status: "completed"}); err != nil {
		t.Fatal(err)
	}
	if err := s1.Close(); err != nil {
		t.Fatal(err)
	}

	// Secrets: the data directory holds no token or password in clear.
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		for _, secret := range []string{alice, "alice-password-123", inv.str("temporary_password")} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s holds a secret in clear", p)
			}
		}
		return nil
	})

	// Restart without --admin-password: the given one still works.
	s2 := refservertest.Start(t, refservertest.DataDir(dir))
	want(t, call(t, s2, "GET", "/me", alice, nil), 200) // tokens survive
	st := want(t, call(t, s2, "GET", "/me/state", alice, nil), 200)
	if st.str("invited_by") != "admin" || st.str("activated_at") == "" || st.obj["ssh_key_added"] != true {
		t.Errorf("state after restart %s", st.raw)
	}
	is := want(t, call(t, s2, "GET", "/repos/alice/app/issues/1", alice, nil), 200)
	if is.str("state") != "closed" || len(is.obj["comments_list"].([]any)) != 1 {
		t.Errorf("issue after restart %s", is.raw)
	}
	f := want(t, call(t, s2, "GET", "/repos/alice/app/contents/src/a.txt", alice, nil), 200)
	if b, _ := base64.StdEncoding.DecodeString(f.str("content")); string(b) != "hello" {
		t.Errorf("file after restart %q", b)
	}
	if c := want(t, call(t, s2, "GET", "/repos/alice/app/commits", alice, nil), 200); len(c.arr) != 2 {
		t.Errorf("commits after restart %s", c.raw)
	}
	keys := want(t, call(t, s2, "GET", "/me/keys", alice, nil), 200)
	if len(keys.arr) != 1 || keys.arr[0].(map[string]any)["fingerprint"] != fp {
		t.Errorf("keys after restart %s", keys.raw)
	}
	if r := want(t, call(t, s2, "GET", "/repos/alice/app/actions/runs", alice, nil), 200); len(r.arr) != 1 || r.arr[0].(map[string]any)["conclusion"] != "success" {
		t.Errorf("runs after restart %s", r.raw)
	}
	// New records get fresh IDs and numbers.
	n := want(t, call(t, s2, "POST", "/repos/alice/app/issues", alice, map[string]string{"title": "Second"}), 201)
	if n.obj["number"] != float64(2) || n.obj["id"].(float64) <= is.obj["id"].(float64) {
		t.Errorf("new issue after restart %s", n.raw)
	}
}

// TestGeneratedAdminPasswordKept: a generated admin password is kept in
// the data directory and reported again on the next start.
func TestGeneratedAdminPasswordKept(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	generated := func(o *refserver.Options) { o.AdminPassword = "" }
	s1 := refservertest.New(t, refservertest.DataDir(dir), generated)
	pw := s1.AdminPassword()
	s1.Close()
	if len(pw) < 16 {
		t.Fatalf("generated password %q", pw)
	}
	if fi, err := os.Stat(filepath.Join(dir, "admin-password")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("admin-password file: %v %v", fi, err)
	}
	s2 := refservertest.Start(t, refservertest.DataDir(dir), generated)
	if s2.AdminPassword() != pw {
		t.Errorf("second start reports %q, want %q", s2.AdminPassword(), pw)
	}
	login(t, s2, "admin", pw)
}

// TestJournalCrash: writes are durable as soon as they return — a process
// that exits without closing the store (a crash) loses none — and a torn
// last line (a write that never returned) is ignored.
func TestJournalCrash(t *testing.T) {
	if dir := os.Getenv("FORGE_CRASH_DIR"); dir != "" {
		// The child: write, then die without Close.
		st, err := store.Open(dir, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		for _, l := range []string{"alice", "bob"} {
			if _, err := st.CreateUser(store.NewUser{Login: l, Role: "user"}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
		os.Exit(0)
	}
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestJournalCrash$")
	cmd.Env = append(os.Environ(), "FORGE_CRASH_DIR="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("crashing child: %v %s", err, out)
	}
	// Tear a half-written line on, as a crash in mid-write would.
	f, err := os.OpenFile(filepath.Join(dir, "journal.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`[{"t":"user","id":99,"v":{"login":"car`)
	f.Close()
	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, l := range []string{"alice", "bob"} {
		if _, ok := st.UserByLogin(l); !ok {
			t.Errorf("%s lost", l)
		}
	}
	if got := len(st.Users(nil)); got != 2 {
		t.Errorf("%d users after the crash, want 2", got)
	}
	// IDs continue after the highest one seen.
	u, err := st.CreateUser(store.NewUser{Login: "carol", Role: "user"})
	if err != nil || u.ID <= 2 {
		t.Errorf("carol: %+v %v", u, err)
	}
}

// A torn last journal line is dropped with one line saying so on the
// server's log; a clean journal logs nothing.
func TestTornJournalLineIsLogged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var log bytes.Buffer
	logTo := func(o *refserver.Options) { o.Log = &log }
	s1 := refservertest.New(t, refservertest.DataDir(dir), logTo)
	if _, err := s1.CreateUser("alice", "alice-password-123", "user"); err != nil {
		t.Fatal(err)
	}
	s1.Close()
	if log.Len() != 0 {
		t.Fatalf("clean start logged %q", log.String())
	}
	f, err := os.OpenFile(filepath.Join(dir, "journal.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`[{"t":"user","id":99,"v":{"login":"car`)
	f.Close()
	s2 := refservertest.New(t, refservertest.DataDir(dir), logTo)
	got := log.String()
	if strings.Count(got, "\n") != 1 || !strings.Contains(got, "journal.jsonl: dropped its torn last line (38 bytes") {
		t.Errorf("log %q, want one line about the torn line", got)
	}
	if _, ok := s2.Store().UserByLogin("alice"); !ok {
		t.Error("alice lost")
	}
}
