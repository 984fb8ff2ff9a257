package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// TestMain keeps the tests off the machine's real keyring.
func TestMain(m *testing.M) {
	keyring.MockInit()
	if os.Getenv("FORGE_TEST_NO_KEYRING") != "" {
		keyring.MockInitWithError(errors.New("no keyring service"))
	}
	os.Exit(m.Run())
}

func withProfile(p *Profile) func(*File) error {
	return func(f *File) error {
		f.CurrentProfile = "dev"
		f.SetProfile("dev", p)
		return nil
	}
}

func secretProfile() *Profile {
	return &Profile{BaseURL: "http://127.0.0.1:1/api/v2", User: "alice", Token: "fgt_secret-token-1", AgentKey: "agk_secret-key-2", RegistryUser: "alice", RegistryPassword: "secret-password-3"}
}

func assertNoSecrets(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "secret-") {
		t.Fatalf("a secret is in %s:\n%s", path, b)
	}
}

func TestSecretsGoToTheKeyring(t *testing.T) {
	keyring.MockInit()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := Update(path, withProfile(secretProfile())); err != nil {
		t.Fatal(err)
	}
	assertNoSecrets(t, path)
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p := f.Profile("dev")
	if p.Token != "fgt_secret-token-1" || p.AgentKey != "agk_secret-key-2" || p.RegistryPassword != "secret-password-3" {
		t.Fatalf("secrets not read back: %+v", p)
	}
	for _, k := range SecretKeys {
		if got := p.SecretLocation(k); got != InKeyring {
			t.Errorf("%s is in %q", k, got)
		}
	}
	s, err := Resolve(f, "", env(nil))
	if err != nil || s.Token != "fgt_secret-token-1" || s.Sources["token"] != FromFile {
		t.Fatalf("resolved %+v, %v", s, err)
	}
	// A change elsewhere leaves the secrets where they are.
	if err := Update(path, func(f *File) error { f.Profile("dev").AgentURL = "http://127.0.0.1:2"; return nil }); err != nil {
		t.Fatal(err)
	}
	assertNoSecrets(t, path)
	if f, _ := Load(path); f.Profile("dev").Token != "fgt_secret-token-1" {
		t.Fatal("token lost by an unrelated update")
	}
}

func TestInsecureStorageKeepsSecretsInTheFile(t *testing.T) {
	keyring.MockInit()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := Update(path, withProfile(secretProfile())); err != nil {
		t.Fatal(err)
	}
	f, _ := Load(path)
	id := f.Profile("dev").KeyringID
	// The token moves to the file; its keyring entry goes.
	err := Update(path, func(f *File) error {
		f.InsecureStorage = true
		f.Profile("dev").Token = "fgt_secret-token-4"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f, _ = Load(path)
	p := f.Profile("dev")
	if p.SecretLocation("token") != InFile || p.Token != "fgt_secret-token-4" || p.SecretLocation("agent_key") != InKeyring {
		t.Fatalf("token in %q, agent key in %q", p.SecretLocation("token"), p.SecretLocation("agent_key"))
	}
	if v, err := keyring.Get(keyringService, id); err != nil || strings.Contains(v, "token") || !strings.Contains(v, `"agent_key":"agk_secret-key-2"`) {
		t.Fatalf("the keyring entry holds %q (%v); want the agent key and no token", v, err)
	}
}

func TestNoKeyringFallsBackToTheFile(t *testing.T) {
	keyring.MockInitWithError(errors.New("no keyring service"))
	defer keyring.MockInit()
	path := filepath.Join(t.TempDir(), "config.yaml")
	var saved *File
	err := Update(path, func(f *File) error {
		saved = f
		return withProfile(secretProfile())(f)
	})
	if err != nil {
		t.Fatal(err)
	}
	if saved.KeyringErr == nil {
		t.Error("no KeyringErr after falling back")
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %o", st.Mode().Perm())
	}
	f, _ := Load(path)
	p := f.Profile("dev")
	if p.Token != "fgt_secret-token-1" || p.SecretLocation("token") != InFile || p.SecretLocation("registry_password") != InFile {
		t.Fatalf("%+v", p)
	}
}

// hungKeyring does not answer until released, like a session bus that
// accepts the connection and then says nothing.
type hungKeyring struct {
	libKeyring
	release chan struct{}
}

func (k hungKeyring) Set(service, user, pw string) error {
	<-k.release
	return errors.New("released")
}

func TestHungKeyringFallsBackToTheFile(t *testing.T) {
	hung := hungKeyring{release: make(chan struct{})}
	store, keyringTimeout = hung, 10*time.Millisecond
	defer func() {
		close(hung.release)
		callMu.Lock() // the released call has given up the lock
		down = nil
		callMu.Unlock()
		store, keyringTimeout = libKeyring{}, 3*time.Second
	}()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := Update(path, withProfile(secretProfile())); err != nil {
		t.Fatal(err)
	}
	f, _ := Load(path)
	if p := f.Profile("dev"); p.SecretLocation("token") != InFile || p.Token != "fgt_secret-token-1" {
		t.Fatalf("%+v", p)
	}
}

func TestClearedAndRemovedProfilesLeaveNoKeyringEntry(t *testing.T) {
	keyring.MockInit()
	path := filepath.Join(t.TempDir(), "config.yaml")
	err := Update(path, func(f *File) error {
		f.SetProfile("dev", secretProfile())
		f.SetProfile("prod", secretProfile())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := Load(path)
	dev, prod := f.Profile("dev").KeyringID, f.Profile("prod").KeyringID
	if dev == prod {
		t.Fatal("two profiles share a keyring id")
	}
	err = Update(path, func(f *File) error {
		f.Profile("dev").ClearSecrets()
		delete(f.Profiles, "prod")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{dev, prod} {
		if _, err := keyring.Get(keyringService, id); !errors.Is(err, keyring.ErrNotFound) {
			t.Errorf("entry %s stayed (%v)", id, err)
		}
	}
	f, _ = Load(path)
	if f.Profile("dev").HasSecrets() || f.Profile("dev").InKeyring != nil {
		t.Fatalf("%+v", f.Profile("dev"))
	}
}

func TestUnreadableKeyringEntryIsKept(t *testing.T) {
	keyring.MockInit()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := Update(path, withProfile(secretProfile())); err != nil {
		t.Fatal(err)
	}
	keyring.MockInitWithError(errors.New("keyring locked"))
	f, _ := Load(path)
	if f.Profile("dev").SecretError("token") == nil {
		t.Fatal("no error for an unreadable token")
	}
	if err := Update(path, func(f *File) error { f.Profile("dev").User = "bob"; return nil }); err != nil {
		t.Fatal(err)
	}
	keyring.MockInit()
	f, _ = Load(path)
	if p := f.Profile("dev"); p.SecretLocation("token") != InKeyring {
		t.Fatalf("an update while the keyring was locked dropped the token: %+v", p)
	}
}

func TestFailedWriteLeavesNoNewKeyringEntry(t *testing.T) {
	keyring.MockInit()
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f := &File{}
	f.SetProfile("dev", secretProfile())
	if err := f.Save(filepath.Join(notADir, "config.yaml")); err == nil {
		t.Fatal("saved under a file")
	}
	id := f.Profile("dev").KeyringID
	if id == "" {
		t.Fatal("no keyring entry was made")
	}
	if _, err := keyring.Get(keyringService, id); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("a failed write left its keyring entry (%v)", err)
	}
}

// countingKeyring counts lookups.
type countingKeyring struct {
	libKeyring
	gets *int
}

func (k countingKeyring) Get(service, user string) (string, error) {
	*k.gets++
	return k.libKeyring.Get(service, user)
}

func TestLoadLooksUpOneEntryPerProfile(t *testing.T) {
	keyring.MockInit()
	path := filepath.Join(t.TempDir(), "config.yaml")
	err := Update(path, func(f *File) error {
		f.SetProfile("dev", secretProfile())
		f.SetProfile("prod", secretProfile())
		f.SetProfile("nosecrets", &Profile{BaseURL: "http://127.0.0.1:3/api/v2"})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	gets := 0
	store = countingKeyring{gets: &gets}
	defer func() { store = libKeyring{} }()
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if gets != 2 || f.Profile("prod").AgentKey != "agk_secret-key-2" {
		t.Fatalf("%d lookups for two profiles with three secrets each", gets)
	}
}

func TestNewSecretWhileTheEntryIsUnreadableGoesToTheFile(t *testing.T) {
	keyring.MockInit()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := Update(path, withProfile(secretProfile())); err != nil {
		t.Fatal(err)
	}
	keyring.MockInitWithError(errors.New("keyring locked"))
	var saved *File
	err := Update(path, func(f *File) error {
		saved = f
		f.Profile("dev").Token = "fgt_secret-token-5"
		return nil
	})
	if err != nil || saved.KeyringErr == nil {
		t.Fatalf("err %v, KeyringErr %v", err, saved.KeyringErr)
	}
	f, _ := Load(path)
	p := f.Profile("dev")
	if p.SecretLocation("token") != InFile || p.Token != "fgt_secret-token-5" || p.SecretLocation("agent_key") != InKeyring {
		t.Fatalf("token in %q, agent key in %q", p.SecretLocation("token"), p.SecretLocation("agent_key"))
	}
	keyring.MockInit()
}
