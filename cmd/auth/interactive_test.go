package auth_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/forgehq/forge/testkit/clitest"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"github.com/zalando/go-keyring"
)

// TestMain gives the tests go-keyring's in-memory keyring, so they cover
// the keyring path and never touch the keyring of the machine they run on.
func TestMain(m *testing.M) {
	keyring.MockInit()
	os.Exit(m.Run())
}

// These tests drive the prompts of forge auth and forge account (which
// testscript cannot reach: it has no terminal) with a scripted Prompter,
// against a reference server on loopback. An answer is a string or a
// function of the output so far (to read a secret forge printed).

// harness is forge against a reference server, with a configuration of
// its own and no FORGE_BASE_URL: what a login sets up is the test.
type harness struct {
	*clitest.Harness
	srv         *refserver.Server
	dir         string
	env         map[string]string
	out, errOut *bytes.Buffer
	asked       []string // the last run's questions, as "input: Q"
	// offerGit lets auth login ask to set git up.
	offerGit bool
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	c := clitest.New(t)
	delete(c.Env, "FORGE_BASE_URL")
	return &harness{Harness: c, srv: c.Srv, dir: c.Env["FORGE_CONFIG_DIR"], env: c.Env}
}

// run runs forge on a pretend terminal with the given answers and returns
// the exit code.
func (h *harness) run(answers []any, args ...string) int {
	if len(args) >= 2 && args[0] == "auth" && args[1] == "login" && !h.offerGit {
		// The offer to set git up has tests of its own (it writes the
		// global git configuration under $HOME).
		args = append(args, "--setup-git=false")
	}
	r := h.Run(clitest.Run{TTY: true, Answers: answers, Strict: true}, args...)
	h.out, h.errOut, h.asked = bytes.NewBufferString(r.Out), bytes.NewBufferString(r.Err), r.Asked
	return r.Code
}

func (h *harness) config() string {
	b, _ := os.ReadFile(filepath.Join(h.dir, "config.yaml"))
	return string(b)
}

func code(t *testing.T, secret string, offset time.Duration) string {
	c, err := totp.GenerateCodeCustom(secret, time.Now().Add(offset), totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLoginPromptsForEverythingAndRetriesTheCode(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if _, err := h.srv.CreateUser("gina", "gina-password-123", "user"); err != nil {
		t.Fatal(err)
	}
	secret, err := h.srv.EnableTwoFA("gina")
	if err != nil {
		t.Fatal(err)
	}
	// Three wrong codes: exit 4, nothing stored.
	got := h.run([]any{h.srv.BaseURL(), "gina", "gina-password-123", "000000", "not a code", "111111"}, "auth", "login")
	if got != 4 || h.config() != "" {
		t.Fatalf("exit %d, config %q; stderr:\n%s", got, h.config(), h.errOut)
	}
	if n := strings.Count(h.errOut.String(), "Try again; codes change every 30 seconds"); n != 2 {
		t.Errorf("%d retry notes:\n%s", n, h.errOut)
	}
	// A wrong code, then the right one.
	got = h.run([]any{h.srv.BaseURL(), "gina", "gina-password-123", "000000", code(t, secret, 0)}, "auth", "login")
	if got != 0 {
		t.Fatalf("exit %d; stderr:\n%s", got, h.errOut)
	}
	want := []string{"input: REST API base URL (https://HOST/api/v2)", "input: Username", "password: Password for gina", "input: Two-factor code from your authenticator app", "input: Two-factor code from your authenticator app"}
	if fmt.Sprint(h.asked) != fmt.Sprint(want) {
		t.Errorf("questions %q, want %q", h.asked, want)
	}
	cfg := h.config()
	if !strings.Contains(cfg, "user: gina") || !strings.Contains(cfg, "in_keyring: [token]") || strings.Contains(cfg, "fgt_") {
		t.Fatalf("config:\n%s", cfg)
	}
	if strings.Contains(h.out.String()+h.errOut.String(), "gina-password-123") {
		t.Fatal("the password was echoed")
	}
	// The next login offers the stored user as the default.
	h.env["FORGE_TOTP_CODE"] = code(t, secret, 30*time.Second)
	if got := h.run([]any{"", "gina-password-123"}, "auth", "login"); got != 0 {
		t.Fatalf("second login exit %d:\n%s", got, h.errOut)
	}
}

// A malformed base URL typed at the prompt is asked again, saying what
// was wrong, instead of ending the login.
func TestLoginAsksAgainForAMalformedBaseURL(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if _, err := h.srv.CreateUser("hank", "hank-password-123", "user"); err != nil {
		t.Fatal(err)
	}
	got := h.run([]any{"htp:/nowhere", h.srv.BaseURL(), "hank", "hank-password-123"}, "auth", "login")
	if got != 0 {
		t.Fatalf("exit %d; stderr:\n%s", got, h.errOut)
	}
	if n := strings.Count(fmt.Sprint(h.asked), "REST API base URL"); n != 2 {
		t.Errorf("asked for the base URL %d times: %q", n, h.asked)
	}
	if !strings.Contains(h.errOut.String(), "htp:/nowhere") || !strings.Contains(h.config(), "user: hank") {
		t.Errorf("stderr:\n%s\nconfig:\n%s", h.errOut, h.config())
	}
	// Three malformed ones: a usage error, nothing stored.
	h2 := newHarness(t)
	if got := h2.run([]any{"a", "b", "c"}, "auth", "login"); got != 2 || h2.config() != "" {
		t.Errorf("exit %d, config %q", got, h2.config())
	}
}

// The service locks an account's codes after five wrong ones: the prompt
// stops asking and says how long to wait (from Retry-After), exit 4.
func TestLoginCodePromptShowsTheLockoutWait(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if _, err := h.srv.CreateUser("ivan", "ivan-password-123", "user"); err != nil {
		t.Fatal(err)
	}
	secret, err := h.srv.EnableTwoFA("ivan")
	if err != nil {
		t.Fatal(err)
	}
	if got := h.run([]any{h.srv.BaseURL(), "ivan", "ivan-password-123", "000000", "111111", "222222"}, "auth", "login"); got != 4 {
		t.Fatalf("exit %d; stderr:\n%s", got, h.errOut)
	}
	// The fifth wrong code locks; the right one after it is refused.
	got := h.run([]any{h.srv.BaseURL(), "ivan", "ivan-password-123", "333333", "444444", code(t, secret, 0)}, "auth", "login")
	if got != 4 || h.config() != "" {
		t.Fatalf("exit %d, config %q; stderr:\n%s", got, h.config(), h.errOut)
	}
	if !regexp.MustCompile(`wait 1[45]m[0-9]+s, then log in again`).MatchString(h.errOut.String()) {
		t.Errorf("no wait time in:\n%s", h.errOut)
	}
}

func TestTwoFactorSetupOnATerminal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if _, err := h.srv.CreateUser("hank", "hank-password-123", "user"); err != nil {
		t.Fatal(err)
	}
	tok, err := h.srv.Token("hank")
	if err != nil {
		t.Fatal(err)
	}
	h.env["FORGE_BASE_URL"], h.env["FORGE_TOKEN"] = h.srv.BaseURL(), tok
	secretRe := regexp.MustCompile(`\n    ((?:[A-Z2-7]{1,4} ?)+)\n`)
	fromScreen := func(out string) string {
		m := secretRe.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no secret on screen:\n%s", out)
		}
		return code(t, strings.ReplaceAll(m[1], " ", ""), 0)
	}
	if got := h.run([]any{"123456", fromScreen}, "auth", "2fa", "setup"); got != 0 {
		t.Fatalf("exit %d:\n%s\n%s", got, h.out, h.errOut)
	}
	out := h.out.String()
	if !strings.Contains(out, "Scan this QR code") || !strings.Contains(out, "█") || !strings.Contains(out, "account forge:hank") {
		t.Fatalf("screen:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Fatalf("line of %d columns: %q", n, line)
		}
	}
	if !strings.Contains(h.errOut.String(), "Two-factor authentication is on") {
		t.Fatalf("stderr:\n%s", h.errOut)
	}
}

func TestPasswordPromptsKeepWhatWasTyped(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if _, err := h.srv.CreateUser("ivy", "ivy-password-123", "user"); err != nil {
		t.Fatal(err)
	}
	if got := h.run([]any{"ivy-password-123"}, "auth", "login", "--base-url", h.srv.BaseURL(), "--username", "ivy"); got != 0 {
		t.Fatalf("login exit %d:\n%s", got, h.errOut)
	}
	h.run(nil, "auth", "token")
	before := h.out.String()
	// Current password once; a too-short new one and a mismatch are asked
	// again without asking for the current password again.
	answers := []any{"ivy-password-123", "short", "ivy-new-password-1", "ivy-new-password-2", "ivy-new-password-1", "ivy-new-password-1"}
	if got := h.run(answers, "account", "password"); got != 0 {
		t.Fatalf("exit %d:\n%s", got, h.errOut)
	}
	if n := strings.Count(fmt.Sprint(h.asked), "Current password"); n != 1 {
		t.Errorf("asked for the current password %d times: %q", n, h.asked)
	}
	stderr := h.errOut.String()
	for _, want := range []string{"the new password has 5 characters; it needs at least 12", "The two new passwords differ", "Password changed", "Stored the new token"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	h.run(nil, "auth", "token")
	if h.out.String() == before {
		t.Error("the new token was not stored")
	}
	if got := h.run(nil, "auth", "status"); got != 0 {
		t.Fatalf("status after the change: exit %d\n%s", got, h.out)
	}
}

// TestSecretsInTheKeyring follows a profile's secrets through their life:
// stored in the keyring by default, in the file with --insecure-storage,
// where each lives shown by auth status, all gone after logout.
func TestSecretsInTheKeyring(t *testing.T) {
	// Not parallel: it reads the mock keyring, which is not safe for
	// use by two goroutines at once.
	h := newHarness(t)
	if _, err := h.srv.CreateUser("kim", "kim-password-123", "user"); err != nil {
		t.Fatal(err)
	}
	if got := h.run([]any{"kim-password-123"}, "auth", "login", "--base-url", h.srv.BaseURL(), "--username", "kim"); got != 0 {
		t.Fatalf("login exit %d:\n%s", got, h.errOut)
	}
	if got := h.run([]any{"kim-password-123"}, "image", "login", "--username", "kim"); got != 0 {
		t.Fatalf("image login exit %d:\n%s", got, h.errOut)
	}
	if got := h.run([]any{"agk_kim-agent-key-1"}, "auth", "agent-key", "set", "--insecure-storage"); got != 0 {
		t.Fatalf("agent-key set exit %d:\n%s", got, h.errOut)
	}
	cfg := h.config()
	if strings.Contains(cfg, "fgt_") || strings.Contains(cfg, "kim-password-123") || !strings.Contains(cfg, "agent_key: agk_kim-agent-key-1") {
		t.Fatalf("config:\n%s", cfg)
	}
	id := regexp.MustCompile(`keyring_id: (\w+)`).FindStringSubmatch(cfg)
	if id == nil {
		t.Fatalf("no keyring id:\n%s", cfg)
	}
	entry, err := keyring.Get("forge", id[1])
	var secrets map[string]string
	if err == nil {
		err = json.Unmarshal([]byte(entry), &secrets)
	}
	token := secrets["token"]
	if err != nil || !strings.HasPrefix(token, "fgt_") || secrets["registry_password"] != "kim-password-123" || secrets["agent_key"] != "" {
		t.Fatalf("keyring entry %q, %v", entry, err)
	}
	if got := h.run(nil, "auth", "status"); got != 0 {
		t.Fatalf("status exit %d:\n%s", got, h.out)
	}
	for _, want := range []string{"  - Token: ****" + token[len(token)-4:] + " (in the keyring)\n", "  - Registry password: stored in the keyring\n", "  - Agent key: stored in the config file\n"} {
		if !strings.Contains(h.out.String(), want) {
			t.Errorf("status lacks %q:\n%s", want, h.out)
		}
	}
	if got := h.run(nil, "profile", "show"); got != 0 || !regexp.MustCompile(`(?m)^token: +\*\*\*\*\S{4}  \(in the keyring\)$`).MatchString(h.out.String()) {
		t.Errorf("profile show: exit %d\n%s", got, h.out)
	}
	if got := h.run(nil, "auth", "logout"); got != 0 {
		t.Fatalf("logout exit %d:\n%s", got, h.errOut)
	}
	if v, err := keyring.Get("forge", id[1]); err != keyring.ErrNotFound {
		t.Errorf("left in the keyring: %q, %v", v, err)
	}
	if cfg := h.config(); strings.Contains(cfg, "agk_") || strings.Contains(cfg, "in_keyring") {
		t.Fatalf("config after logout:\n%s", cfg)
	}
	// The token was revoked on the service.
	h.env["FORGE_TOKEN"] = token
	if got := h.run(nil, "account", "view"); got != 4 {
		t.Fatalf("the logged-out token still works: exit %d", got)
	}
}

// TestProfileRemoveAsksOnATerminal: a profile holding credentials goes only
// after a yes, and takes its keyring entries with it.
func TestProfileRemoveAsksOnATerminal(t *testing.T) {
	// Not parallel: it reads the mock keyring, which is not safe for
	// use by two goroutines at once.
	h := newHarness(t)
	if _, err := h.srv.CreateUser("lee", "lee-password-123", "user"); err != nil {
		t.Fatal(err)
	}
	if got := h.run([]any{"lee-password-123"}, "auth", "login", "--base-url", h.srv.BaseURL(), "--username", "lee"); got != 0 {
		t.Fatalf("login exit %d:\n%s", got, h.errOut)
	}
	id := regexp.MustCompile(`keyring_id: (\w+)`).FindStringSubmatch(h.config())
	if id == nil {
		t.Fatalf("no keyring id:\n%s", h.config())
	}
	before := h.config()
	if got := h.run([]any{"n"}, "profile", "remove", "default"); got != 1 || h.config() != before {
		t.Fatalf("a no: exit %d, config\n%s", got, h.config())
	}
	if q := h.asked; len(q) != 1 || q[0] != "confirm: Remove profile default and its token?" {
		t.Errorf("asked %q", q)
	}
	if _, err := keyring.Get("forge", id[1]); err != nil {
		t.Fatalf("a no removed the token from the keyring: %v", err)
	}
	if got := h.run([]any{"y"}, "profile", "remove", "default"); got != 0 {
		t.Fatalf("a yes: exit %d\n%s", got, h.errOut)
	}
	if strings.Contains(h.config(), "default:") {
		t.Fatalf("profile kept:\n%s", h.config())
	}
	if _, err := keyring.Get("forge", id[1]); err != keyring.ErrNotFound {
		t.Fatalf("the token stayed in the keyring: %v", err)
	}
}

// TestKeyringThatDoesNotAnswer: a token the keyring will not give back is
// reported where it lives and why, and logout says it was not revoked.
func TestKeyringThatDoesNotAnswer(t *testing.T) {
	// Not parallel: it swaps the mock keyring for one that fails.
	h := newHarness(t)
	if _, err := h.srv.CreateUser("max", "max-password-123", "user"); err != nil {
		t.Fatal(err)
	}
	if got := h.run([]any{"max-password-123"}, "auth", "login", "--base-url", h.srv.BaseURL(), "--username", "max"); got != 0 {
		t.Fatalf("login exit %d:\n%s", got, h.errOut)
	}
	keyring.MockInitWithError(errors.New("the keyring is locked"))
	defer keyring.MockInit()
	if got := h.run(nil, "auth", "status"); got != 4 || !strings.Contains(h.out.String(), "  - Token: in the keyring, which did not give it: the keyring is locked\n") {
		t.Fatalf("status: exit %d\n%s", got, h.out)
	}
	if got := h.run(nil, "auth", "token"); got != 4 || !strings.Contains(h.errOut.String(), `the token of profile "default" is in the OS keyring, which did not give it (the keyring is locked): unlock the keyring`) {
		t.Fatalf("token: exit %d\n%s", got, h.errOut)
	}
	if got := h.run(nil, "auth", "logout"); got != 0 || !strings.Contains(h.errOut.String(), "Could not read the token from the keyring (the keyring is locked): it was not revoked") {
		t.Fatalf("logout: exit %d\n%s", got, h.errOut)
	}
}

// TestLogoutWhereTheServiceCannotRevoke: a service without POST
// /auth/logout (404 or 405: the reference server behind a proxy that
// refuses that one path) is no error: the secrets go all the same, and
// forge says plainly that the token was not revoked.
func TestLogoutWhereTheServiceCannotRevoke(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusNotFound, http.StatusMethodNotAllowed} {
		h := newHarness(t)
		if _, err := h.srv.CreateUser("ned", "ned-password-123", "user"); err != nil {
			t.Fatal(err)
		}
		target, _ := url.Parse(h.srv.URL())
		proxy := httputil.NewSingleHostReverseProxy(target)
		front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/v2/auth/logout" {
				http.Error(w, `{"error":"no such endpoint"}`, status)
				return
			}
			proxy.ServeHTTP(w, r)
		}))
		defer front.Close()
		if got := h.run([]any{"ned-password-123"}, "auth", "login", "--base-url", front.URL+"/api/v2", "--username", "ned"); got != 0 {
			t.Fatalf("login exit %d:\n%s", got, h.errOut)
		}
		if got := h.run(nil, "auth", "logout"); got != 0 || strings.Contains(h.errOut.String(), "Revoked the token") ||
			!strings.Contains(h.errOut.String(), "Could not revoke the token on the service: the service has no logout endpoint") ||
			!strings.Contains(h.errOut.String(), "removed the token") {
			t.Fatalf("%d: logout exit %d:\n%s", status, got, h.errOut)
		}
		if strings.Contains(h.config(), "in_keyring") {
			t.Fatalf("%d: config after logout:\n%s", status, h.config())
		}
	}
}

// On a terminal, login asks whether to set git up for the host (yes by
// default, as gh does) and does it: git's global configuration then names
// forge as the host's credential helper.
func TestLoginOffersToSetUpGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	h := newHarness(t)
	t.Setenv("HOME", h.dir) // git config --global writes here
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	if _, err := h.srv.CreateUser("jo", "jo-password-1234", "user"); err != nil {
		t.Fatal(err)
	}
	h.offerGit = true
	if got := h.run([]any{"jo-password-1234", "y"}, "auth", "login", "--base-url", h.srv.BaseURL(), "--username", "jo"); got != 0 {
		t.Fatalf("exit %d:\n%s", got, h.errOut)
	}
	if q := fmt.Sprint(h.asked); !strings.Contains(q, "confirm: Make git use this login for "+h.srv.URL()) {
		t.Errorf("questions %s", q)
	}
	out, err := exec.Command("git", "config", "--global", "--get-urlmatch", "credential.helper", h.srv.URL()+"/").Output()
	if err != nil || !strings.Contains(string(out), "auth git-credential") {
		t.Fatalf("git's helper for %s: %q, %v", h.srv.URL(), out, err)
	}
	// Set up already: the next login does not ask.
	if got := h.run([]any{"jo-password-1234"}, "auth", "login", "--username", "jo"); got != 0 {
		t.Fatalf("second login: exit %d:\n%s", got, h.errOut)
	}
}

// On a terminal, --with-token asks for the token without echo, checks it
// and stores it with its user; a refused one stores nothing (exit 4).
func TestLoginWithTokenAsks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token := refservertest.User(t, h.srv, "tina", "")
	if got := h.run([]any{"fgt_unknown_here"}, "auth", "login", "--with-token", "--base-url", h.srv.BaseURL()); got != 4 ||
		!strings.Contains(h.errOut.String(), "did not accept the token") || h.config() != "" {
		t.Fatalf("a refused token: exit %d\n%s\nconfig:\n%s", got, h.errOut, h.config())
	}
	if got := h.run([]any{" " + token + " "}, "auth", "login", "--with-token", "--base-url", h.srv.BaseURL()); got != 0 ||
		!strings.Contains(h.errOut.String(), "as tina (profile default)") || strings.Contains(h.errOut.String(), token) {
		t.Fatalf("login exit %d:\n%s", got, h.errOut)
	}
	if fmt.Sprint(h.asked) != "[password: Token]" {
		t.Errorf("questions %q", h.asked)
	}
	if !strings.Contains(h.config(), "user: tina") {
		t.Fatalf("config:\n%s", h.config())
	}
}
