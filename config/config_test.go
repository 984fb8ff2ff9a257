package config

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func sampleFile() *File {
	f := &File{CurrentProfile: "dev"}
	f.SetProfile("dev", &Profile{BaseURL: "http://dev.example/api/v2", Token: "file-token-1234567", User: "alice"})
	f.SetProfile("prod", &Profile{BaseURL: "https://prod.example/api/v2", AgentURL: "https://agent.example", Token: "prod-token-7654321"})
	return f
}

func TestResolvePrecedence(t *testing.T) {
	f := sampleFile()
	tests := []struct {
		name        string
		flag        string
		env         map[string]string
		wantProfile string
		wantSrc     Source
		wantBase    string
		wantToken   string
		wantAgent   string
	}{
		{"file current profile", "", nil, "dev", FromFile, "http://dev.example/api/v2", "file-token-1234567", "http://dev.example"},
		{"env profile beats file", "", map[string]string{"FORGE_PROFILE": "prod"}, "prod", FromEnv, "https://prod.example/api/v2", "prod-token-7654321", "https://agent.example"},
		{"flag beats env", "dev", map[string]string{"FORGE_PROFILE": "prod"}, "dev", FromFlag, "http://dev.example/api/v2", "file-token-1234567", "http://dev.example"},
		{"env values beat file values", "", map[string]string{"FORGE_TOKEN": "env-token", "FORGE_BASE_URL": "http://env.example/api/v2", "AGENT_URL": "http://agent.env"}, "dev", FromFile, "http://env.example/api/v2", "env-token", "http://agent.env"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Resolve(f, tt.flag, env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if s.Profile != tt.wantProfile || s.ProfileSource != tt.wantSrc {
				t.Errorf("profile = %s from %s, want %s from %s", s.Profile, s.ProfileSource, tt.wantProfile, tt.wantSrc)
			}
			if s.BaseURL != tt.wantBase || s.Token != tt.wantToken || s.AgentURL != tt.wantAgent {
				t.Errorf("got base %q token %q agent %q", s.BaseURL, s.Token, s.AgentURL)
			}
		})
	}
}

// TestResolveReadsEveryProfileField fills every field of a profile and
// checks each one reaches Settings, so a field without an environment
// variable cannot be forgotten.
func TestResolveReadsEveryProfileField(t *testing.T) {
	f := &File{CurrentProfile: "p"}
	f.SetProfile("p", &Profile{
		BaseURL: "http://b/api/v2", AgentURL: "http://a", RegistryURL: "http://r", User: "alice",
		Token: "t", AgentKey: "k", RegistryUser: "ru", RegistryPassword: "rp",
	})
	s, err := Resolve(f, "", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	got := []string{s.BaseURL, s.AgentURL, s.RegistryURL, s.User, s.Token, s.AgentKey, s.RegistryUser, s.RegistryPassword}
	want := []string{"http://b/api/v2", "http://a", "http://r", "alice", "t", "k", "ru", "rp"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("field %d = %q, want %q", i, got[i], want[i])
		}
		if len(s.Sources) != len(want) {
			t.Errorf("sources = %v", s.Sources)
			break
		}
	}
	// The registry user defaults to the profile's user.
	f.Profile("p").RegistryUser = ""
	if s, _ := Resolve(f, "", env(nil)); s.RegistryUser != "alice" || s.Sources["registry_user"] != FromDefault {
		t.Errorf("registry user default = %q from %q", s.RegistryUser, s.Sources["registry_user"])
	}
}

func TestResolveSources(t *testing.T) {
	s, err := Resolve(sampleFile(), "", env(map[string]string{"FORGE_TOKEN": "x"}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Source{"token": FromEnv, "base_url": FromFile, "agent_url": FromDefault, "registry_url": FromDefault}
	for k, src := range want {
		if s.Sources[k] != src {
			t.Errorf("source of %s = %q, want %q", k, s.Sources[k], src)
		}
	}
}

func TestResolveUnknownProfile(t *testing.T) {
	_, err := Resolve(sampleFile(), "staging", env(nil))
	var upe *UnknownProfileError
	if !errors.As(err, &upe) || !strings.Contains(err.Error(), "dev, prod") || !strings.Contains(err.Error(), "forge profile add staging") {
		t.Fatalf("err = %v", err)
	}
	// The implicit default profile need not exist.
	s, err := Resolve(&File{}, "", env(nil))
	if err != nil || s.Profile != DefaultProfile {
		t.Fatalf("empty config: %v %v", s, err)
	}
}

func TestNormalizeBaseURL(t *testing.T) {
	good := map[string]string{
		"http://127.0.0.1:8080/api/v2":   "http://127.0.0.1:8080/api/v2",
		"https://h.example/api/v2/":      "https://h.example/api/v2",
		"https://h.example":              "https://h.example/api/v2",
		"https://h.example/forge/api/v2": "https://h.example/forge/api/v2",
	}
	for in, want := range good {
		got, err := NormalizeBaseURL(in)
		if err != nil || got != want {
			t.Errorf("NormalizeBaseURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "127.0.0.1:8080", "ftp://h/api/v2", "https://h.example/api/v1", "http://u:p@h/api/v2", "http:///api/v2"} {
		if _, err := NormalizeBaseURL(bad); err == nil {
			t.Errorf("NormalizeBaseURL(%q) accepted", bad)
		}
	}
}

func TestMask(t *testing.T) {
	cases := map[string]string{"": "", "short": "****", "0123456789abcdef": "****cdef"}
	for in, want := range cases {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSaveLoadRoundTripKeepsUnknownKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "forge", "config.yaml")
	src := "current_profile: dev\nfuture_setting: 7\nprofiles:\n  dev:\n    base_url: http://x/api/v2\n    shiny_new_key: sparkle\n"
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Update(path, func(f *File) error { f.Profile("dev").User = "bob"; return nil }); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{"future_setting: 7", "shiny_new_key: sparkle", "user: bob"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("rewritten file lost %q:\n%s", want, data)
		}
	}
}

func TestSavePermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "forge")
	path := filepath.Join(dir, "config.yaml")
	if err := sampleFile().Save(path); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s mode = %v, want %v", p, st.Mode().Perm(), want)
		}
	}
}

func TestCorruptFileIsReportedAndNeverOverwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	bad := "current_profile: dev\nprofiles:\n  dev: [unclosed\n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	var pe *ParseError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "line") {
		t.Fatalf("Load error = %v; want a ParseError naming the file and line", err)
	}
	if err := Update(path, func(f *File) error { f.CurrentProfile = "x"; return nil }); err == nil {
		t.Fatal("Update of a corrupt file succeeded")
	}
	if data, _ := os.ReadFile(path); string(data) != bad {
		t.Fatalf("corrupt file was rewritten:\n%s", data)
	}
}

func TestUpdateErrorWritesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := sampleFile().Save(path); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	boom := errors.New("boom")
	if err := Update(path, func(f *File) error { f.CurrentProfile = "prod"; return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Fatal("a failed update changed the file")
	}
}

// TestKillMidWriteLeavesOldFile runs a child process that stops between
// writing the temporary file and renaming it, kills it there, and checks
// the configuration is the old one, whole; that the orphaned temporary
// file holds no secret when the keyring holds them; and that the next
// write removes it, since without a keyring it does hold the token.
func TestKillMidWriteLeavesOldFile(t *testing.T) {
	if os.Getenv("FORGE_TEST_HANG_IN_SAVE") != "" {
		afterTempWrite = func() {
			os.WriteFile(os.Getenv("FORGE_TEST_HANG_IN_SAVE"), []byte("ready"), 0o600)
			select {}
		}
		big := sampleFile()
		big.Profile("dev").Extra = map[string]any{"padding": strings.Repeat("x", 1<<20)}
		big.Save(os.Getenv("FORGE_TEST_CONFIG"))
		return
	}
	for _, keyring := range []bool{true, false} {
		dir := t.TempDir()
		path := filepath.Join(dir, "config.yaml")
		if err := (&File{CurrentProfile: "dev"}).Save(path); err != nil {
			t.Fatal(err)
		}
		before, _ := os.ReadFile(path)
		ready := filepath.Join(dir, "ready")
		child := exec.Command(os.Args[0], "-test.run=^TestKillMidWriteLeavesOldFile$")
		child.Env = append(os.Environ(), "FORGE_TEST_HANG_IN_SAVE="+ready, "FORGE_TEST_CONFIG="+path)
		if !keyring {
			child.Env = append(child.Env, "FORGE_TEST_NO_KEYRING=1")
		}
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			if _, err := os.Stat(ready); err == nil {
				break
			}
			if time.Now().After(deadline) {
				child.Process.Kill()
				t.Fatal("child never reached the rename")
			}
			time.Sleep(10 * time.Millisecond)
		}
		child.Process.Kill()
		child.Wait()
		after, err := os.ReadFile(path)
		if err != nil || string(after) != string(before) {
			t.Fatalf("config changed by a killed write (err %v)", err)
		}
		if _, err := Load(path); err != nil {
			t.Fatalf("config unreadable after a killed write: %v", err)
		}
		temps, _ := filepath.Glob(filepath.Join(dir, ".config-*.yaml.tmp"))
		if len(temps) != 1 {
			t.Fatalf("temporary files after the kill: %q", temps)
		}
		orphan, _ := os.ReadFile(temps[0])
		if holds := strings.Contains(string(orphan), "file-token-1234567"); holds != !keyring {
			t.Errorf("keyring %v: the orphaned temporary file holds the token: %v", keyring, holds)
		}
		if err := Update(path, func(*File) error { return nil }); err != nil {
			t.Fatal(err)
		}
		if temps, _ := filepath.Glob(filepath.Join(dir, ".config-*.yaml.tmp")); len(temps) != 0 {
			t.Fatalf("the next write left the orphaned temporary files: %q", temps)
		}
	}
}

func TestDir(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"FORGE_CONFIG_DIR": "/a", "XDG_CONFIG_HOME": "/b", "HOME": "/c"}, "/a"},
		{map[string]string{"XDG_CONFIG_HOME": "/b", "HOME": "/c"}, "/b/forge"},
		{map[string]string{"HOME": "/c"}, "/c/.config/forge"},
	}
	for _, c := range cases {
		if got, _ := Dir(env(c.env)); got != c.want {
			t.Errorf("Dir(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

func TestValidProfileName(t *testing.T) {
	for _, ok := range []string{"dev", "prod-eu.1", "A_b", "0"} {
		if ValidProfileName(ok) != nil {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", "-dev", ".x", "a b", "a/b", strings.Repeat("x", 65), "é"} {
		if ValidProfileName(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Profile names are case-insensitive: new ones are stored in lower case,
// an existing profile written with capitals keeps its key and is found by
// any spelling, through --profile, FORGE_PROFILE and current_profile.
func TestProfileNamesCaseInsensitive(t *testing.T) {
	f := &File{CurrentProfile: "PROD", Profiles: map[string]*Profile{
		"Prod": {BaseURL: "https://forge.example.com/api/v2", Token: "tok_prod_0123456789"},
		"dev":  {BaseURL: "http://127.0.0.1:8080/api/v2"},
	}}
	for _, c := range []struct{ flag, env, want string }{
		{"", "", "Prod"}, {"prod", "", "Prod"}, {"DEV", "", "dev"}, {"", "Dev", "dev"},
	} {
		s, err := Resolve(f, c.flag, func(k string) string {
			if k == "FORGE_PROFILE" {
				return c.env
			}
			return ""
		})
		if err != nil || s.Profile != c.want {
			t.Errorf("flag %q env %q: profile %v, %v; want %s", c.flag, c.env, s, err, c.want)
		}
	}
	s, _ := Resolve(f, "pROD", func(string) string { return "" })
	if s.Token != "tok_prod_0123456789" {
		t.Errorf("mixed-case profile lost its token: %+v", s)
	}
	f.SetProfile("Staging", &Profile{BaseURL: "https://staging.example.com/api/v2"})
	f.SetProfile("PROD", &Profile{BaseURL: "https://forge2.example.com/api/v2"})
	if got := f.ProfileNames(); strings.Join(got, " ") != "Prod dev staging" {
		t.Errorf("profiles after SetProfile: %v", got)
	}
	if f.Profile("prod").BaseURL != "https://forge2.example.com/api/v2" {
		t.Errorf("SetProfile(PROD) did not replace Prod")
	}
}

// A stored secret goes only to the origin its profile stores for that
// interface; an override elsewhere takes the environment's secret, else
// the secret of the profile at that origin, else none.
func TestSecretsStayWithTheirOrigin(t *testing.T) {
	f := &File{CurrentProfile: "a", Profiles: map[string]*Profile{
		"a": {BaseURL: "http://127.0.0.1:1000/api/v2", User: "alice", Token: "tok_a", AgentKey: "agk_a",
			RegistryUser: "alice", RegistryPassword: "pw_a"},
		"b": {BaseURL: "http://127.0.0.1:2000/api/v2", AgentURL: "http://127.0.0.1:2001", User: "bob", Token: "tok_b", AgentKey: "agk_b"},
	}}
	resolve := func(env map[string]string) *Settings {
		t.Helper()
		s, err := Resolve(f, "", func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := resolve(nil)
	if s.Token != "tok_a" || s.AgentKey != "agk_a" || s.RegistryPassword != "pw_a" || len(s.Withheld) != 0 {
		t.Errorf("own origins: %+v", s)
	}
	// Same origin, other spelling: still home.
	s = resolve(map[string]string{"FORGE_BASE_URL": "http://127.0.0.1:1000/api/v2/"})
	if s.Token != "tok_a" {
		t.Errorf("same origin lost the token: %+v", s)
	}
	// Another port of the same host, where profile b is logged in: b's
	// token is b's alone — nothing is lent, and the error names both
	// profiles and the override.
	s = resolve(map[string]string{"FORGE_BASE_URL": "http://127.0.0.1:2000/api/v2"})
	if s.Token != "" || s.User != "" || s.Withheld["base_url"] != "http://127.0.0.1:2000" {
		t.Errorf("b's origin: token %q user %q withheld %v", s.Token, s.User, s.Withheld)
	}
	if msg := s.WithheldError("base_url"); !strings.Contains(msg, `FORGE_BASE_URL points there, and profile "a" (the current profile) is logged in on http://127.0.0.1:1000`) ||
		!strings.Contains(msg, "pass --profile b (logged in there)") {
		t.Errorf("withheld error: %s", msg)
	}
	if s.AgentKey != "" || s.RegistryPassword != "" || s.RegistryUser == "alice" ||
		s.Withheld["agent_url"] != "http://127.0.0.1:2000" || s.Withheld["registry_url"] != "http://127.0.0.1:2000" {
		t.Errorf("agent/registry at b's base origin: %+v", s)
	}
	// Nobody's origin: nothing, and the origin is noted.
	s = resolve(map[string]string{"FORGE_BASE_URL": "https://127.0.0.1:1000/api/v2"})
	if s.Token != "" || s.User != "" || s.Withheld["base_url"] != "https://127.0.0.1:1000" {
		t.Errorf("https instead of http: %+v", s)
	}
	// The environment's own secret is used where it points.
	s = resolve(map[string]string{"FORGE_BASE_URL": "http://127.0.0.1:3000/api/v2", "FORGE_TOKEN": "tok_env"})
	if s.Token != "tok_env" || s.Sources["token"] != FromEnv {
		t.Errorf("FORGE_TOKEN: %+v", s)
	}
	s = resolve(map[string]string{"AGENT_URL": "http://127.0.0.1:2001"})
	if s.AgentKey != "" || s.Token != "tok_a" || s.Withheld["agent_url"] != "http://127.0.0.1:2001" {
		t.Errorf("AGENT_URL at b's agent: %+v", s)
	}
}

// Issue 37.1: a profile named with --profile beats the environment's
// address and is used whole; FORGE_PROFILE and FORGE_BASE_URL, of one
// rank, disagreeing is refused (no secret anywhere); a profile never gets
// another's secret.
func TestNamedProfileIsUsedWhole(t *testing.T) {
	f := &File{CurrentProfile: "demo", Profiles: map[string]*Profile{
		"admin": {BaseURL: "http://127.0.0.1:1000/api/v2", User: "root", Token: "tok_admin"},
		"demo":  {BaseURL: "http://127.0.0.1:1000/api/v2", User: "alice", Token: "tok_demo"},
		"prod":  {BaseURL: "http://127.0.0.1:2000/api/v2", User: "alice", Token: "tok_prod", RegistryUser: "alice", RegistryPassword: "pw_prod"},
	}}
	envA := map[string]string{"FORGE_BASE_URL": "http://127.0.0.1:1000", "FORGE_REGISTRY_URL": "http://127.0.0.1:1000",
		"AGENT_URL": "http://127.0.0.1:1000", "AGENT_API_KEY": "agk_a", "FORGE_USERNAME": "bob", "FORGE_PASSWORD": "pw_bob"}
	resolve := func(flag string, env map[string]string) *Settings {
		t.Helper()
		s, err := Resolve(f, flag, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := resolve("prod", envA)
	if s.BaseURL != "http://127.0.0.1:2000/api/v2" || s.Token != "tok_prod" || s.User != "alice" ||
		s.AgentURL != "http://127.0.0.1:2000" || s.AgentKey != "" ||
		s.RegistryURL != "http://127.0.0.1:2000" || s.RegistryUser != "alice" || s.RegistryPassword != "pw_prod" {
		t.Errorf("--profile prod with A's environment: %+v", s)
	}
	if len(s.Ignored) != 6 || s.Ignored["FORGE_BASE_URL"] != "http://127.0.0.1:1000" || len(s.Notes()) != 6 {
		t.Errorf("ignored: %v notes %q", s.Ignored, s.Notes())
	}
	for _, n := range s.Notes() {
		if strings.Contains(n, "agk_a") || strings.Contains(n, "pw_bob") {
			t.Errorf("a note shows a secret: %s", n)
		}
	}
	// FORGE_PROFILE=prod with A's address: neither account, both named.
	env := map[string]string{"FORGE_PROFILE": "prod", "FORGE_BASE_URL": "http://127.0.0.1:1000"}
	s = resolve("", env)
	if s.Token != "" || s.User != "" || s.Withheld["base_url"] != "http://127.0.0.1:1000" {
		t.Errorf("FORGE_PROFILE=prod at A: %+v", s)
	}
	want := `no token for http://127.0.0.1:1000: FORGE_BASE_URL points there, and profile "prod" (FORGE_PROFILE) is logged in on http://127.0.0.1:2000, not there; unset FORGE_BASE_URL to act as prod, pass --profile admin or --profile demo (logged in there), or set FORGE_TOKEN`
	if got := s.WithheldError("base_url"); got != want {
		t.Errorf("withheld error:\n got %s\nwant %s", got, want)
	}
	// Where the address and the profile agree, the profile's own.
	s = resolve("demo", envA)
	if s.Token != "tok_demo" || s.User != "alice" || len(s.Ignored) != 0 {
		t.Errorf("--profile demo at A: %+v", s)
	}
}

func TestHostMatch(t *testing.T) {
	for _, c := range []struct {
		base, host string
		want       int
	}{
		{"https://forge.example.com/api/v2", "forge.example.com", 2},
		{"https://forge.example.com/api/v2", "Forge.Example.com:443", 2},
		{"https://forge.example.com/api/v2", "forge.example.com:8443", 0},
		{"http://127.0.0.1:8080/api/v2", "127.0.0.1:8080", 2},
		{"http://127.0.0.1:8080/api/v2", "127.0.0.1", 1},
		{"http://127.0.0.1:8080/api/v2", "127.0.0.1:8081", 0},
		{"https://forge.example.com/api/v2", "github.com", 0},
		{"", "github.com", 0},
	} {
		if got := HostMatch(c.base, c.host); got != c.want {
			t.Errorf("HostMatch(%q, %q) = %d, want %d", c.base, c.host, got, c.want)
		}
	}
}
