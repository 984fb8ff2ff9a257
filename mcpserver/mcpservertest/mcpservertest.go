// Package mcpservertest is the harness of `forge mcp serve`'s tests: a
// reference server with a small world in it, forge's environment as one
// of its users, and the MCP Go SDK's own client connected to a server
// run in-process — by mcpserver.Serve in mcpserver's tests, by the
// command line (`forge mcp serve ...`) in cmd/mcp's. It imports neither,
// so both can use it: the caller says how the server runs.
package mcpservertest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/mcptools"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// World is a reference server and the environment forge runs in.
type World struct {
	T   testing.TB
	Srv *refserver.Server
	Env map[string]string
}

// Demo is the world's repository.
var Demo = client.RepoName{Owner: "alice", Name: "demo"}

// NewWorld is a reference server with alice's repository alice/demo, bob
// a collaborator with read access and carol one with write access, and
// the environment forge runs in as alice, with FORGE_REPO alice/demo.
func NewWorld(t testing.TB) *World {
	t.Helper()
	srv := refservertest.Start(t)
	w := &World{T: t, Srv: srv, Env: refservertest.Env(t, srv, "alice")}
	for _, u := range []string{"bob", "carol"} {
		refservertest.User(t, srv, u, "")
	}
	if _, err := srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddCollaborator("alice/demo", "bob", "read"); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddCollaborator("alice/demo", "carol", "write"); err != nil {
		t.Fatal(err)
	}
	w.Env["FORGE_REPO"] = "alice/demo"
	return w
}

// LoginAs makes forge act as login.
func (w *World) LoginAs(login string) {
	for k, v := range refservertest.Env(w.T, w.Srv, login) {
		if k != "FORGE_CONFIG_DIR" && k != "HOME" {
			w.Env[k] = v
		}
	}
}

// Factory is forge's Factory over ios with a copy of the world's
// environment as it is now.
func (w *World) Factory(ios *iostreams.IOStreams) *cmdutil.Factory {
	env := maps.Clone(w.Env)
	return cmdutil.New(ios, func(k string) string { return env[k] })
}

// REST is a client of the reference server as forge's user, to check
// what the tools did.
func (w *World) REST() *client.Client {
	c, err := client.New(w.Srv.BaseURL(), w.Env["FORGE_TOKEN"])
	if err != nil {
		w.T.Fatal(err)
	}
	return c
}

// Push commits files (path -> content) onto branch, made from base when
// it is new, with git over the service's smart HTTP as forge's user, and
// pushes it: a branch that shares base's history, as a pull request's.
func (w *World) Push(repo client.RepoName, base, branch string, files map[string]string, message string) {
	w.T.Helper()
	r, err := w.REST().Repos.Get(context.Background(), repo)
	if err != nil {
		w.T.Fatal(err)
	}
	u, err := url.Parse(r.CloneURL)
	if err != nil {
		w.T.Fatal(err)
	}
	u.User = url.UserPassword(w.Env["FORGE_USERNAME"], w.Env["FORGE_TOKEN"])
	dir := w.T.TempDir()
	git := func(args ...string) {
		w.T.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
			"GIT_AUTHOR_NAME=Forge", "GIT_AUTHOR_EMAIL=forge@example.com", "GIT_COMMITTER_NAME=Forge", "GIT_COMMITTER_EMAIL=forge@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			w.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("clone", "-q", "-b", base, u.String(), ".")
	git("checkout", "-q", "-B", branch)
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			w.T.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644); err != nil {
			w.T.Fatal(err)
		}
	}
	git("add", "-A")
	git("commit", "-q", "-m", message)
	git("push", "-q", "origin", branch)
}

// Run runs a server until ctx ends or its stdin does, with f's streams;
// it returns the exit code (0 for a clean end).
type Run func(ctx context.Context, f *cmdutil.Factory) int

// Session is a running server and the SDK's client connected to it over
// its stdin and stdout.
type Session struct {
	*mcp.ClientSession
	t      testing.TB
	code   chan int
	Stderr *Buffer
	// Wire is every byte the server sent, as the client read it.
	Wire *Buffer
}

// Buffer is a bytes.Buffer safe for concurrent use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Reset empties the buffer.
func (l *Buffer) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}

// Connect runs the server in-process, as an assistant would launch it,
// and connects the SDK's client over its stdio.
func Connect(t testing.TB, w *World, run Run) *Session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ios, _, _, _ := iostreams.Test()
	errOut := &Buffer{}
	ios.In, ios.Out, ios.ErrOut = inR, outW, errOut
	f := w.Factory(ios)
	s := &Session{t: t, code: make(chan int, 1), Stderr: errOut, Wire: &Buffer{}}
	go func() {
		s.code <- run(context.Background(), f)
		outW.Close()
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "forge-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: io.NopCloser(io.TeeReader(outR, s.Wire)), Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connecting: %v; stderr: %s", err, errOut)
	}
	s.ClientSession = cs
	t.Cleanup(func() { s.Stop() })
	return s
}

// Stop closes the client's side; the server sees the end of its stdin
// and exits: its code.
func (s *Session) Stop() int {
	s.ClientSession.Close()
	select {
	case code := <-s.code:
		s.code <- code
		return code
	case <-time.After(30 * time.Second):
		s.t.Fatal("forge mcp serve did not exit after its stdin closed")
		return -1
	}
}

// Tools are the tools the server lists.
func (s *Session) Tools() []*mcp.Tool {
	s.t.Helper()
	var tools []*mcp.Tool
	for tool, err := range s.ClientSession.Tools(context.Background(), nil) {
		if err != nil {
			s.t.Fatal(err)
		}
		tools = append(tools, tool)
	}
	return tools
}

// ToolNames are the names of the tools listed, sorted.
func (s *Session) ToolNames() []string {
	var names []string
	for _, tool := range s.Tools() {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// Call calls a tool that must succeed, decodes its result (JSON text,
// sent once) into out (when not nil) and returns the result's JSON.
func (s *Session) Call(name string, args map[string]any, out any) string {
	s.t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		s.t.Fatalf("%s: tool error %q", name, Text(res))
	}
	if res.StructuredContent != nil {
		s.t.Errorf("%s: the result is sent twice (text and structured content)", name)
	}
	b := []byte(Text(res))
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			s.t.Fatalf("%s: %v in %s", name, err, b)
		}
	}
	return string(b)
}

// Fail calls a tool that must fail and returns the error's text.
func (s *Session) Fail(name string, args map[string]any) string {
	s.t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: a protocol error (%v), want a tool error", name, err)
	}
	if !res.IsError {
		s.t.Fatalf("%s succeeded: %s", name, Text(res))
	}
	return Text(res)
}

// Text is the text content of a result.
func Text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// HTTP runs a server that serves streamable HTTP on 127.0.0.1:0 until
// the test ends, and returns the URL and token it printed on stderr.
func HTTP(t testing.TB, w *World, run Run) (url, token string) {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	errOut := &Buffer{}
	ios.ErrOut = errOut
	f := w.Factory(ios)
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() { code <- run(ctx, f) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-code:
		case <-time.After(30 * time.Second):
			t.Error("forge mcp serve --http did not stop")
		}
	})
	re := regexp.MustCompile(`Serving MCP at (http://\S+) until Ctrl-C\nAuthorization: Bearer (\S+)\n`)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(errOut.String()); m != nil {
			return m[1], m[2]
		}
		select {
		case c := <-code:
			t.Fatalf("forge mcp serve --http exited %d: %s", c, errOut)
		default:
		}
	}
	t.Fatalf("no address printed: %q", errOut)
	return "", ""
}

// ReadTools are the names of the catalog's read tools, sorted.
func ReadTools() []string {
	var out []string
	for _, ti := range mcptools.All {
		if !ti.Write {
			out = append(out, ti.Name)
		}
	}
	slices.Sort(out)
	return out
}
