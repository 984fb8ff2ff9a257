package chat_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
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
