package chat_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver/refservertest"
)

// run runs forge against an agent API at url and returns stdout, stderr
// and the exit code.
func run(t *testing.T, url string, args ...string) (string, string, int) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	env := map[string]string{"AGENT_URL": url, "AGENT_API_KEY": "agk_testtesttest", "FORGE_CONFIG_DIR": t.TempDir()}
	f := cmdutil.New(ios, func(k string) string { return env[k] })
	code := cmd.Run(context.Background(), f, args)
	return out.String(), errOut.String(), code
}

// stream serves body as the agent's event stream, then ends the response.
func stream(t *testing.T, body string) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestStreamCut: a stream that stops mid-reply prints what arrived, then
// an error, and exits 1.
func TestStreamCut(t *testing.T) {
	t.Parallel()
	url := stream(t, "event: delta\ndata: \"The first half \"\n\nevent: delta\ndata: \"of a rep")
	out, errOut, code := run(t, url, "chat", "-m", "hi")
	if out != "The first half \n" || code != 1 || errOut != "forge: agent API: the stream ended before the reply was complete\n" {
		t.Errorf("stdout %q, stderr %q, exit %d", out, errOut, code)
	}
}

// TestMalformedEvent names the event, and does not panic.
func TestMalformedEvent(t *testing.T) {
	t.Parallel()
	url := stream(t, "event: delta\ndata: \"ok \"\n\nevent: delta\ndata: {\"text\": 1}\n\n")
	out, errOut, code := run(t, url, "chat", "-m", "hi")
	if out != "ok \n" || code != 1 || !strings.HasPrefix(errOut, `forge: agent API: malformed data in the "delta" event (not a JSON string): "{\"text\": 1}"`) {
		t.Errorf("stdout %q, stderr %q, exit %d", out, errOut, code)
	}
}

// TestSessionStreamCut: in a session the error is reported and the
// session goes on; the cut turn is not added to the history.
func TestSessionStreamCut(t *testing.T) {
	t.Parallel()
	var bodies []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(data))
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: delta\ndata: \"partial\"\n\n")
	}))
	defer ts.Close()
	ios, in, out, errOut := iostreams.Test()
	in.WriteString("one\ntwo\n")
	env := map[string]string{"AGENT_URL": ts.URL, "AGENT_API_KEY": "agk_testtesttest", "FORGE_CONFIG_DIR": t.TempDir()}
	code := cmd.Run(context.Background(), cmdutil.New(ios, func(k string) string { return env[k] }), []string{"chat", "-i"})
	if code != 1 || out.String() != "partial\npartial\n" || strings.Count(errOut.String(), "stream ended before the reply was complete") != 2 {
		t.Errorf("stdout %q, stderr %q, exit %d", out, errOut, code)
	}
	if len(bodies) != 2 || !strings.Contains(bodies[1], `"history":[]`) {
		t.Errorf("requests %q", bodies)
	}
}

// TestRenderedOnTerminal: on a terminal a reply is rendered as markdown as
// it streams, with a dimmed preview line that is erased as blocks settle.
func TestRenderedOnTerminal(t *testing.T) {
	t.Parallel()
	srv := refservertest.Start(t)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetTerminalWidth(60)
	env := map[string]string{"AGENT_URL": srv.AgentURL(), "AGENT_API_KEY": srv.AgentKey(), "FORGE_CONFIG_DIR": t.TempDir()}
	if code := cmd.Run(context.Background(), cmdutil.New(ios, func(k string) string { return env[k] }), []string{"chat", "-m", "Hello there"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	raw := out.String()
	if !strings.Contains(raw, "\r\x1b[K") {
		t.Errorf("no preview line was drawn and erased: %q", raw)
	}
	// What stays on the screen: each line after its last erase.
	var screen []string
	for _, line := range strings.Split(raw, "\n") {
		if i := strings.LastIndex(line, "\r\x1b[K"); i >= 0 {
			line = line[i+len("\r\x1b[K"):]
		}
		screen = append(screen, line)
	}
	got := strings.Join(screen, "\n")
	want := "You asked about Hello there. This is turn 1 of our\nconversation.\n\nHere is what I can tell you:\n\n• Your message has 2 words and 11 characters.\n"
	if !strings.HasPrefix(got, want) || strings.Contains(got, "**") || !strings.HasSuffix(got, "switch models with /model.\n") {
		t.Errorf("screen:\n%s", got)
	}
	for _, l := range screen {
		if len([]rune(l)) > 60 {
			t.Errorf("line wider than the terminal: %q", l)
		}
	}
}

// failingOut is a stdout whose terminal has gone: every write fails.
type failingOut struct{}

func (failingOut) Write([]byte) (int, error) { return 0, syscall.EIO }

// TestSessionEndsWhenStdoutFails: a session whose stdout can no longer be
// written (the terminal gone) saves the turn in progress, sends nothing
// more, and exits 1 saying why.
func TestSessionEndsWhenStdoutFails(t *testing.T) {
	t.Parallel()
	srv := refservertest.Start(t)
	ios, in, _, errOut := iostreams.Test()
	ios.Out = failingOut{}
	in.WriteString("first\nsecond\n")
	conv := filepath.Join(t.TempDir(), "conv.json")
	env := map[string]string{"AGENT_URL": srv.AgentURL(), "AGENT_API_KEY": srv.AgentKey(), "FORGE_CONFIG_DIR": t.TempDir()}
	code := cmd.Run(context.Background(), cmdutil.New(ios, func(k string) string { return env[k] }), []string{"chat", "-i", "--save", conv})
	if code != 1 || !strings.Contains(errOut.String(), "forge: cannot write to standard output (input/output error): the session ended; the conversation is saved in "+conv+"\n") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	saved, err := os.ReadFile(conv)
	if err != nil || !strings.Contains(string(saved), `"content": "first"`) || strings.Contains(string(saved), "second") {
		t.Errorf("saved %s (%v)", saved, err)
	}
}
