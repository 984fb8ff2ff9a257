package tui

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/binary"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestHostileServerReachesNoTerminal drives every view of the program
// against a service that adds escape sequences, C1 and bidi controls to
// every string it sends (tuitest.Hostile): each frame shows them made
// visible (^[), and of the bytes written to the terminal none is one of
// them.
func TestHostileServerReachesNoTerminal(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	tuitest.Push(t, srv, "alice", "alice/app:1.0", tuitest.Image(t, "hello", "linux", "amd64"))
	addKey(t, srv, "alice")
	proxy := tuitest.Hostile(t, srv)
	env := tuitest.Env(t, srv, "alice")
	env["FORGE_BASE_URL"] = proxy + "/api/v2"
	env["AGENT_URL"] = proxy
	env["FORGE_REGISTRY_URL"] = proxy
	h := startEnv(t, srv, env, 120, 30, Options{Repo: tuitest.Webapp})

	// view waits for a frame showing want and the server's text made
	// visible, and checks that nothing of it is drawn raw.
	view := func(where string, want ...string) {
		t.Helper()
		h.wait(append(want, "^[]0;pwned")...)
		if c := frameControl(h.screen()); c != "" {
			t.Errorf("%s: the frame draws %q raw:\n%q", where, c, h.screen())
		}
	}
	view("repositories", "Repositories")
	h.keys("enter")
	view("a repository's issues", "Pull requests", "#6")
	for _, section := range []struct{ name, head string }{
		{"Pull requests", "STATE"}, {"Releases", "PUBLISHED"}, {"Commits", "SHA"}, {"Files", "SIZE"}, {"Collaborators", "PERMISSION"},
	} {
		h.keys("l")
		view(section.name, section.head)
		switch section.name {
		case "Pull requests":
			h.keys("enter")
			view("a pull request", "Description  Checks  Diff")
			h.keys("l")
			view("its checks", "Checks")
			h.keys("l")
			view("its diff", "changed file", "@@")
			h.keys("esc")
		case "Releases":
			h.keys("enter")
			view("a release", "esc back")
			h.keys("esc")
		case "Commits":
			h.keys("enter")
			view("a commit", "changed file", "Author:")
			h.keys("esc")
		}
	}
	h.keys("2")
	view("issues", "Open issues")
	h.keys("enter")
	view("an issue", "● open")
	h.keys("w")
	view("an address with controls, refused", "which is not an http(s) URL; not opening it")
	h.keys("3")
	view("runs", "RUN")
	h.keys("j", "j", "j", "enter") // a run whose jobs have logs
	view("jobs", "JOB")
	h.keys("enter")
	view("a log", "==> Build")
	h.keys("4")
	view("images", "Image repositories ·")
	// A repository name the registry client refuses: the tags view
	// says so, the name shown made visible. (Tags and manifests carry
	// nothing else of the server's to draw: names, digests and sizes.)
	h.keys("enter")
	view("tags", "invalid repository")
	h.keys("5")
	view("chat", "model ref-1")
	for _, r := range "hello" {
		h.keys(string(r))
	}
	h.keys("enter")
	view("a reply", "makes", "Message the agent")
	h.keys("esc", "6")
	view("account", "Registry")
	// The profile form, filled from the service: the editors drop the
	// controls (they cannot show them as ^[).
	h.keys("e")
	h.wait("Edit your profile", "Alice Martin]0;pwned[8;3;3t2Jevil]8;;")
	if c := frameControl(h.screen()); c != "" {
		t.Errorf("the profile form draws %q raw:\n%q", c, h.screen())
	}
	h.keys("esc")
	h.wait("Profile  SSH keys  Two-factor")
	h.keys("l")
	view("SSH keys", "FINGERPRINT")
	h.keys("?")
	view("help", "any key closes")

	h.tm.Quit()
	out, err := io.ReadAll(h.tm.FinalOutput(t, teatest.WithFinalTimeout(10*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"\x1b]0;pwned", "\x1b[8;3;3t", "\u009b", "\u202e", "\u2066", "\x1b]8;;http://evil", "\x1b]52;c;cHduZWQ="} {
		if i := strings.Index(string(out), raw); i >= 0 {
			t.Errorf("the terminal was sent %q: …%q…", raw, out[max(i-80, 0):min(i+80, len(out))])
		}
	}
	if !strings.Contains(string(out), "^[]0;pwned") {
		t.Errorf("the terminal was never sent the server's text made visible")
	}
}

// addKey gives user an SSH key (a fixed ed25519 one).
func addKey(t *testing.T, srv *refserver.Server, user string) {
	t.Helper()
	c := tuitest.Client(t, srv, user)
	pub := ed25519.NewKeyFromSeed(make([]byte, 32)).Public().(ed25519.PublicKey)
	str := func(b []byte) []byte { return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...) }
	line := "ssh-ed25519 " + base64.StdEncoding.EncodeToString(append(str([]byte("ssh-ed25519")), str(pub)...))
	if _, err := c.Keys.Add(context.Background(), "laptop", line); err != nil {
		t.Fatal(err)
	}
}

// frameControl names a control of the server's that a frame draws raw —
// any escape sequence but colour, a C0 control but newline, a C1 or bidi
// control, a byte that is not UTF-8 — or "" if none.
func frameControl(frame string) string {
	for _, r := range ansi.Strip(frame) {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == utf8.RuneError {
			return string(r)
		}
	}
	return ""
}

// TestNoBrowser: where there is no browser, w says so and shows the
// address.
func TestNoBrowser(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env := tuitest.Env(t, srv, "alice")
	env["BROWSER"] = "no-such-browser-anywhere"
	h := startEnv(t, srv, env, 120, 30, Options{Repo: tuitest.Webapp, Tab: tabIssues})
	h.wait("Support graceful shutdown")
	h.keys("w")
	h.wait("No browser here (set $BROWSER); y copies the address: " + srv.URL() + "/alice/webapp/issues/6")
}
