package demo

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"

	"github.com/forgehq/forge/cmd/companion"
	"github.com/forgehq/forge/internal/text"
)

// server is the demo's reference server: `forge-server serve --memory
// --demo` on a free loopback port, a child process of forge's, with the
// settings it printed once it listened.
type server struct {
	url, baseURL, agentURL, agentKey string

	cmd *exec.Cmd
	// lifeline is the server's stdin, held by forge only: with
	// --until-stdin-eof the server stops when it closes, which the
	// system does when forge ends, even killed outright.
	lifeline interface{ Close() error }
	exited   chan struct{}
	stopOnce sync.Once
}

// startServer starts forge-server (found as `forge serve` finds it) at the
// demo's pace and returns it once it serves. Interrupted meanwhile, it
// stops it and returns the context's error.
func startServer(ctx context.Context, opts *Options) (*server, error) {
	path, err := companion.Find(opts.Deps, companion.Binary)
	if err != nil {
		return nil, err
	}
	c := exec.Command(path, "serve", "--memory", "--demo", "--addr", "127.0.0.1:0",
		"--ci-tick", opts.CITick.String(), "--agent-delay", opts.AgentDelay.String(), "--until-stdin-eof")
	out := newSettings()
	var log tail
	c.Stdout, c.Stderr = out, &log
	lifeline, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	detach(c)
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("starting the reference server: %w", err)
	}
	s := &server{cmd: c, lifeline: lifeline, exited: make(chan struct{})}
	go func() {
		_ = c.Wait()
		close(s.exited)
	}()
	select {
	case <-out.ready:
	case <-s.exited:
		return nil, fmt.Errorf("the reference server (%s) ended before it served (%s): %s", path, c.ProcessState, log.last())
	case <-ctx.Done():
		s.stop()
		return nil, ctx.Err()
	}
	// serve's settings: the REST API's base URL, and the server's own
	// (the agent API is served at its root).
	s.baseURL, s.agentURL, s.agentKey = out.get("FORGE_BASE_URL"), out.get("AGENT_URL"), out.get("AGENT_API_KEY")
	s.url = s.agentURL
	return s, nil
}

// stop ends the server and returns once it is gone; any number of calls,
// from any goroutine.
func (s *server) stop() {
	s.stopOnce.Do(func() {
		_ = s.cmd.Process.Kill()
		<-s.exited
		_ = s.lifeline.Close()
	})
}

// settings reads serve's stdout: the NAME=value lines it prints once it
// listens, each value as text.ShellQuote writes it. ready closes once
// those the demo needs are in.
type settings struct {
	mu    sync.Mutex
	buf   []byte
	vals  map[string]string
	ready chan struct{}
	done  bool
}

// needed are the settings the demo uses.
var needed = []string{"FORGE_BASE_URL", "AGENT_URL", "AGENT_API_KEY"}

func newSettings() *settings {
	return &settings{vals: map[string]string{}, ready: make(chan struct{})}
}

func (s *settings) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return len(p), nil
	}
	s.buf = append(s.buf, p...)
	for {
		line, rest, ok := bytes.Cut(s.buf, []byte("\n"))
		if !ok {
			break
		}
		s.buf = rest
		if name, quoted, ok := strings.Cut(string(line), "="); ok {
			if v, ok := text.ShellUnquote(quoted); ok {
				s.vals[name] = v
			}
		}
	}
	if len(s.buf) > 64<<10 {
		s.buf = nil // no line of settings is that long
	}
	for _, n := range needed {
		if s.vals[n] == "" {
			return len(p), nil
		}
	}
	s.done = true
	close(s.ready)
	return len(p), nil
}

func (s *settings) get(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vals[name]
}

// tail keeps the last 4 KiB the server wrote on stderr, for the error of
// a server that ended before it served.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if n := len(t.buf) - 4<<10; n > 0 {
		t.buf = t.buf[n:]
	}
	return len(p), nil
}

// last is the last line written, "forge: " cut, made safe for a terminal.
func (t *tail) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return text.OneLine(strings.TrimPrefix(lines[len(lines)-1], "forge: "))
}
