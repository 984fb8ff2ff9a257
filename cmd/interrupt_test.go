package cmd

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
)

// TestInterruptSaysWhereTheTextIsKept: Ctrl-C while `issue create` waits on
// a service that does not answer keeps the typed body in a file and says
// where, as a failed request does (the message was "interrupted" alone).
func TestInterruptSaysWhereTheTextIsKept(t *testing.T) {
	arrived := make(chan struct{})
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			io.Copy(io.Discard, r.Body) // then the server sees forge hang up
			close(arrived)
			select { // hung until the test ends or forge gives up
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	defer close(release) // before Close, which waits for the handler
	t.Setenv("TMPDIR", t.TempDir())

	ios, in, _, errOut := iostreams.Test()
	in.WriteString("A body typed on stdin\n")
	env := map[string]string{"FORGE_BASE_URL": srv.URL + "/api/v2", "FORGE_TOKEN": "t0ken", "FORGE_CONFIG_DIR": t.TempDir()}
	f := cmdutil.New(ios, func(k string) string { return env[k] })
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	code := Run(ctx, f, []string{"issue", "create", "-R", "alice/app", "--title", "Hung", "--body-file", "-"})
	if code != cmdcore.ExitInterrupted {
		t.Fatalf("exit code %d, want %d; stderr:\n%s", code, cmdcore.ExitInterrupted, errOut)
	}
	m := regexp.MustCompile(`^forge: interrupted; your text is kept in (\S+): send it again with --body-file (\S+)\n$`).FindStringSubmatch(errOut.String())
	if m == nil || m[1] != m[2] {
		t.Fatalf("stderr:\n%s", errOut)
	}
	if kept, err := os.ReadFile(m[1]); err != nil || strings.TrimSpace(string(kept)) != "A body typed on stdin" {
		t.Fatalf("kept file %s: %q, %v", m[1], kept, err)
	}
}
