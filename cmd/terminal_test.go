package cmd_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/tui/tuitest"
)

// reachesTerminal names the first thing in s that a terminal would act on
// instead of showing it: ESC, BEL or another C0 control but newline and
// tab, DEL, a C1 control (encoded or a raw byte), a bidi control; "" if
// there is none.
func reachesTerminal(s string) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return fmt.Sprintf("the byte %#x (not UTF-8)", s[i])
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
			return fmt.Sprintf("the control %U", r)
		}
		i += n
	}
	return ""
}

// hostileError is an error body whose message sets the window title,
// clears the screen and writes the clipboard (OSC 52) when printed raw.
const hostileError = `{"error":"\u001b]0;pwned\u0007 \u001b[2J \u001b]52;c;ZXJy\u0007"}`

// TestHostileServerErrorOnATerminal: a server forge does not control
// answers every request with hostileError. On a terminal, forge shows the
// message with its controls made visible; into a file, stderr gets the
// server's exact words.
func TestHostileServerErrorOnATerminal(t *testing.T) {
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Note", "\u202eevil") // for the --debug trace
		w.WriteHeader(http.StatusUnprocessableEntity)
		io.WriteString(w, hostileError)
	}))
	defer hostile.Close()
	h := clitest.New(t)
	h.LoginAs("alice")
	h.Env["FORGE_BASE_URL"] = hostile.URL + "/api/v2"
	h.Env["AGENT_URL"] = hostile.URL
	h.Env["AGENT_API_KEY"] = "agk_testtesttest"
	const shown = "^[]0;pwned^G ^[[2J ^[]52;c;ZXJy^G"
	for _, args := range [][]string{
		{"issue", "list", "-R", "alice/app"},
		{"repo", "view", "alice/app"},
		{"chat", "--no-stream", "-m", "hello"},
		{"api", "repos/alice/app"},
		{"repo", "view", "alice/app", "--debug"},
	} {
		r := h.Run(clitest.Run{TTY: true, ErrTTY: true}, args...)
		if r.Code != 1 {
			t.Errorf("forge %s: exit %d, want 1\n%s", strings.Join(args, " "), r.Code, r.Output())
		}
		for name, s := range map[string]string{"stdout": r.Out, "stderr": r.Err} {
			if what := reachesTerminal(s); what != "" {
				t.Errorf("forge %s: %s reaches the terminal on %s: %q", strings.Join(args, " "), what, name, s)
			}
		}
		if !strings.Contains(r.Err, shown) {
			t.Errorf("forge %s: stderr does not show the message as %q: %q", strings.Join(args, " "), shown, r.Err)
		}
	}
	// A session reports each failed turn and goes on.
	r := h.Run(clitest.Run{ErrTTY: true, Stdin: "hello\n"}, "chat", "-i")
	if what := reachesTerminal(r.Err); what != "" || !strings.Contains(r.Err, shown) {
		t.Errorf("chat -i: %s reaches the terminal, or the message is not shown:\n%q", what, r.Err)
	}
	r = h.Run(clitest.Run{}, "repo", "view", "alice/app")
	if !strings.Contains(r.Err, "\x1b]0;pwned\a \x1b[2J \x1b]52;c;ZXJy\a") {
		t.Errorf("piped, stderr is not the server's message as sent: %q", r.Err)
	}
}

// TestHostileDataOnATerminal: an issue whose title and body carry escape
// sequences, C1 and bidi controls reaches a terminal only sanitized through
// every way forge shows it — a table, a view with markdown, --jq,
// --template, `forge api` — and a pipe gets it exactly.
func TestHostileDataOnATerminal(t *testing.T) {
	h := clitest.New(t)
	h.LoginAs("alice")
	if _, err := h.Srv.CreateRepo("alice", "app", refserver.RepoOptions{}); err != nil {
		t.Fatal(err)
	}
	title := "\u202eevil\u202c \x1b]0;pwned\a title \u009b2J"
	body := "# Notes\n\n\x1b]52;c;ZXJy\a and \u2066isolated\u2069 and DEL\x7f\n"
	if _, err := h.Srv.CreateIssue("alice/app", "alice", title, body); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"issue", "list", "-R", "alice/app"},
		{"issue", "view", "1", "-R", "alice/app"},
		{"issue", "list", "-R", "alice/app", "--jq", ".[].title"},
		{"issue", "list", "-R", "alice/app", "--template", "{{range .}}{{.title}}{{end}}"},
		{"issue", "view", "1", "-R", "alice/app", "--json", "title,body"},
		{"api", "repos/alice/app/issues/1"},
		{"api", "repos/alice/app/issues", "--jq", ".[].title"},
	} {
		r := h.Run(clitest.Run{TTY: true}, args...)
		if r.Code != 0 {
			t.Errorf("forge %s: exit %d\n%s", strings.Join(args, " "), r.Code, r.Output())
		}
		if what := reachesTerminal(r.Out); what != "" {
			t.Errorf("forge %s: %s reaches the terminal: %q", strings.Join(args, " "), what, r.Out)
		}
		if !strings.Contains(r.Out, "<U+202E>evil<U+202C>") {
			t.Errorf("forge %s: the title's bidi controls are not shown: %q", strings.Join(args, " "), r.Out)
		}
	}
	r := h.Run(clitest.Run{}, "issue", "list", "-R", "alice/app", "--jq", ".[].title")
	if r.Out != title+"\n" {
		t.Errorf("piped --jq = %q, want the title as the server sent it", r.Out)
	}
	// The shell shows completion descriptions on the terminal.
	r = h.Run(clitest.Run{}, "__complete", "issue", "view", "-R", "alice/app", "")
	if what := reachesTerminal(r.Out); what != "" || !strings.Contains(r.Out, "1\t<U+202E>evil<U+202C>") {
		t.Errorf("completion: %s reaches the terminal, or the title is not shown:\n%q", what, r.Out)
	}
}

// TestHostileRunOnATerminal: a run whose names and log lines carry escape
// sequences and bidi controls reaches a terminal sanitized through run
// view, run logs and job logs (the log keeps its colours), and a file
// through repo contents; piped, the log is as the server sent it.
func TestHostileRunOnATerminal(t *testing.T) {
	h := clitest.New(t)
	h.LoginAs("alice")
	h.Repo("alice", "app")
	if _, err := h.Srv.CommitFiles("alice/app", "", map[string]string{"notes.txt": "see \x1b]52;c;ZXJy\a \u202eevil\n"}, "Add notes"); err != nil {
		t.Fatal(err)
	}
	logLine := "\x1b[32mok\x1b[0m \x1b]0;pwned\a \u202eevil \x9b2J"
	run, err := h.Srv.CreateRun("alice/app", refserver.RunSeed{Name: "CI \x1b]0;pwned\a", Status: "completed",
		Jobs: []ci.JobPlan{{Name: "build \u202eevil", Steps: []ci.StepPlan{{Name: "step \x1b[2J", Lines: []string{logLine}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprint(run.ID)
	jobs := h.Run(clitest.Run{}, "run", "view", id, "-R", "alice/app", "--json", "jobs", "--jq", ".jobs[0].id")
	if jobs.Code != 0 {
		t.Fatalf("run view --json: exit %d\n%s", jobs.Code, jobs.Output())
	}
	for _, args := range [][]string{
		{"run", "view", id, "-R", "alice/app"},
		{"run", "logs", id, "-R", "alice/app"},
		{"job", "logs", strings.TrimSpace(jobs.Out), "-R", "alice/app"},
		{"repo", "contents", "notes.txt", "-R", "alice/app"},
	} {
		r := h.Run(clitest.Run{TTY: true}, args...)
		if r.Code != 0 {
			t.Errorf("forge %s: exit %d\n%s", strings.Join(args, " "), r.Code, r.Output())
		}
		// The log's own colours are all the escapes that may pass.
		out := strings.NewReplacer("\x1b[32m", "", "\x1b[0m", "").Replace(r.Out)
		if what := reachesTerminal(out); what != "" {
			t.Errorf("forge %s: %s reaches the terminal: %q", strings.Join(args, " "), what, r.Out)
		}
		if !strings.Contains(r.Out, "<U+202E>evil") {
			t.Errorf("forge %s: the bidi control is not shown: %q", strings.Join(args, " "), r.Out)
		}
	}
	if r := h.Run(clitest.Run{}, "job", "logs", strings.TrimSpace(jobs.Out), "-R", "alice/app"); !strings.Contains(r.Out, logLine+"\n") {
		t.Errorf("piped job logs changed the log: %q", r.Out)
	}
}

// hostileURL is what hostileAnswers gives as every address.
const hostileURL = "http://x/\x1b]0;pwned\a\u202e"

// hostileAnswers is a harness whose REST API is a server that answers
// every request with one object of every field forge reads, the values
// holding escape sequences and bidi controls.
func hostileAnswers(t *testing.T) *clitest.Harness {
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
		}
		u, _ := json.Marshal(hostileURL)
		fmt.Fprintf(w, `{"id":1,"number":1,"name":"app\u202e","full_name":"alice/app\u202e","owner":{"login":"alice"},"html_url":%s,"fingerprint":%s,"url":%s,"username":"bob\u202e","email":"b@x\u202e","login":"alice\u202e","default_branch":"main\u202e","clone_url":%s,"ssh_url":%s,"title":"t\u202e","state":"open","user":{"login":"alice\u202e"}}`, u, u, u, u, u)
	}))
	t.Cleanup(hostile.Close)
	h := clitest.New(t)
	h.LoginAs("alice")
	h.Env["FORGE_BASE_URL"] = hostile.URL + "/api/v2"
	return h
}

// TestHostileAnswerOnATerminal: what a server gives back for what was
// created (its address, name, fingerprint) is printed sanitized on a
// terminal, stdout and stderr, and exactly when piped.
func TestHostileAnswerOnATerminal(t *testing.T) {
	h := hostileAnswers(t)
	pub := filepath.Join(t.TempDir(), "id.pub")
	if err := os.WriteFile(pub, []byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIH/HhCNXdLMskXbS9VcFSS+KnVqFTmyndCKwMk/7jBMb one@example\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"issue", "create", "-R", "alice/app", "--title", "t", "--body", "b"},
		{"issue", "comment", "1", "-R", "alice/app", "--body", "b"},
		{"repo", "create", "app"},
		{"ssh-key", "add", pub},
		{"admin", "invite", "create", "bob", "--email", "b@x"},
	} {
		r := h.Run(clitest.Run{TTY: true, ErrTTY: true}, args...)
		if r.Code != 0 || !strings.HasSuffix(r.Out, "http://x/^[]0;pwned^G<U+202E>\n") {
			t.Errorf("forge %s on a terminal: exit %d\n%s", strings.Join(args, " "), r.Code, r.Output())
		}
		if what := reachesTerminal(colour.ReplaceAllString(r.Err, "")); what != "" {
			t.Errorf("forge %s: %s reaches the terminal on stderr: %q", strings.Join(args, " "), what, r.Err)
		}
		if r := h.Run(clitest.Run{}, args...); r.Out != hostileURL+"\n" {
			t.Errorf("forge %s piped: %q, want the answer as sent", strings.Join(args, " "), r.Out)
		}
	}
}

// TestHostileViewsOnATerminal: views show every value of a hostile
// answer sanitized on a terminal.
func TestHostileViewsOnATerminal(t *testing.T) {
	h := hostileAnswers(t)
	for _, args := range [][]string{
		{"repo", "view", "alice/app"},
		{"issue", "view", "1", "-R", "alice/app"},
		{"account", "view"},
	} {
		r := h.Run(clitest.Run{TTY: true}, args...)
		if what := reachesTerminal(r.Out); r.Code != 0 || what != "" {
			t.Errorf("forge %s: exit %d, %s reaches the terminal\n%s", strings.Join(args, " "), r.Code, what, r.Output())
		}
	}
}

// colour matches the SGR sequences forge writes itself.
var colour = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestHostileImageOnATerminal: what a registry says of an image (here its
// platform) is shown sanitized by image inspect on a terminal.
func TestHostileImageOnATerminal(t *testing.T) {
	h := clitest.New(t)
	if _, err := h.Srv.CreateUser("dave", refserver.DemoPassword, ""); err != nil {
		t.Fatal(err)
	}
	h.Env["FORGE_REGISTRY_URL"] = h.Srv.URL()
	h.Env["FORGE_USERNAME"] = "dave"
	h.Env["FORGE_PASSWORD"] = refserver.DemoPassword
	tuitest.Push(t, h.Srv, "dave", "dave/app:1", tuitest.Image(t, "x", "linux\x1b]0;pwned\a\u202e", "amd64"))
	h.LoginAs("dave")
	r := h.Run(clitest.Run{TTY: true}, "image", "inspect", "app:1")
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
	if what := reachesTerminal(r.Out); what != "" || !strings.Contains(r.Out, "linux^[]0;pwned^G<U+202E>/amd64") {
		t.Errorf("%s reaches the terminal, or the platform is not shown:\n%q", what, r.Out)
	}
}

// TestHostileModelsInASession: the answer of an in-session command (here
// the models the service lists) is sanitized when stdout is a terminal.
func TestHostileModelsInASession(t *testing.T) {
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"default":"m1","models":["m1","m\u001b]0;pwned\u0007\u202e"]}`)
	}))
	defer hostile.Close()
	h := clitest.New(t)
	h.Env["AGENT_URL"] = hostile.URL
	h.Env["AGENT_API_KEY"] = "agk_testtesttest"
	r := h.Run(clitest.Run{TTY: true, Stdin: "/model\n"}, "chat", "-i")
	if what := reachesTerminal(r.Out); what != "" || !strings.Contains(r.Out, "m^[]0;pwned^G<U+202E>") {
		t.Errorf("%s reaches the terminal, or the model is not shown:\n%s", what, r.Output())
	}
}

// TestHostileAuthOnATerminal: what the service says about an account (its
// full name, why it refused a token, why it did not revoke one) reaches a
// terminal through internal/text in auth status, login and logout.
func TestHostileAuthOnATerminal(t *testing.T) {
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		io.WriteString(w, hostileError)
	}))
	defer hostile.Close()
	h := clitest.New(t)
	h.LoginAs("alice")
	name := "\u202eevil\u202c \x1b]0;pwned\a Alice"
	if r := h.Run(clitest.Run{}, "account", "edit", "--full-name", name); r.Code != 0 {
		t.Fatalf("account edit: exit %d\n%s", r.Code, r.Output())
	}
	const shownName = "<U+202E>evil<U+202C> ^[]0;pwned^G Alice"
	const shownError = "^[]0;pwned^G ^[[2J ^[]52;c;ZXJy^G"
	clean := func(what string, r clitest.Result, want string) {
		t.Helper()
		for stream, s := range map[string]string{"stdout": r.Out, "stderr": r.Err} {
			if c := reachesTerminal(colour.ReplaceAllString(s, "")); c != "" {
				t.Errorf("%s: %s reaches the terminal on %s: %q", what, c, stream, s)
			}
		}
		if !strings.Contains(colour.ReplaceAllString(r.Out+r.Err, ""), want) {
			t.Errorf("%s: %q is not shown\n%s", what, want, r.Output())
		}
	}
	clean("auth status", h.Run(clitest.Run{TTY: true}, "auth", "status"), shownName)
	if r := h.Run(clitest.Run{}, "auth", "status"); !strings.Contains(r.Out, name) {
		t.Errorf("piped, auth status does not give the name as sent:\n%q", r.Out)
	}

	// A service that refuses the token with a hostile message.
	h.Env["FORGE_BASE_URL"] = hostile.URL + "/api/v2"
	clean("auth status, refused", h.Run(clitest.Run{TTY: true, ErrTTY: true}, "auth", "status"), shownError)

	// A stored token whose service answers the revocation with one.
	h.Env["FORGE_BASE_URL"] = h.Srv.BaseURL()
	delete(h.Env, "FORGE_TOKEN")
	r := h.Run(clitest.Run{TTY: true, ErrTTY: true, Stdin: "alice-password-1234\n"},
		"auth", "login", "--username", "alice", "--password-stdin", "--insecure-storage")
	clean("auth login", r, "Logged in to ")
	file := filepath.Join(h.Env["FORGE_CONFIG_DIR"], "config.yaml")
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), h.Srv.URL()) {
		t.Fatalf("config after login (%v):\n%s", err, b)
	}
	if err := os.WriteFile(file, []byte(strings.ReplaceAll(string(b), h.Srv.URL(), hostile.URL)), 0o600); err != nil {
		t.Fatal(err)
	}
	delete(h.Env, "FORGE_BASE_URL")
	clean("auth logout", h.Run(clitest.Run{TTY: true, ErrTTY: true}, "auth", "logout"), "Could not revoke the token on the service: HTTP 422: "+shownError)

	// A two-factor enrolment whose secret and account label carry controls.
	enrol := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"secret":"JBSW\u001b]0;pwned\u0007Y3DP","otpauth_url":"otpauth://totp/forge:%1B%5D0;pwned%07alice?secret=JBSWY3DP"}`)
	}))
	defer enrol.Close()
	h.Env["FORGE_BASE_URL"] = enrol.URL + "/api/v2"
	h.Env["FORGE_TOKEN"] = "fgt_test"
	r = h.Run(clitest.Run{TTY: true}, "auth", "2fa", "setup")
	clean("auth 2fa setup", r, "(account forge:^[]0;pwned^Galice)")
	if !strings.Contains(r.Out, "JBSW ^[]0; pwne d^GY3 DP") {
		t.Errorf("auth 2fa setup: the secret is not shown sanitized:\n%s", r.Output())
	}
}
