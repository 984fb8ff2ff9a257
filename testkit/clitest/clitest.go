// Package clitest runs forge commands in-process, on a pretend terminal or
// piped, against a reference server on loopback: for the tests of what
// testscript cannot reach (prompts, the editor, exact bytes). Only tests
// import it, so forge itself never links the server.
package clitest

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/prompt/prompttest"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// Harness is a reference server and the environment forge runs in.
type Harness struct {
	t   testing.TB
	Srv *refserver.Server
	// Env is forge's whole environment; FORGE_BASE_URL points at Srv.
	Env map[string]string
}

// New starts a reference server, stopped when the test ends.
func New(t testing.TB) *Harness {
	t.Helper()
	srv := refservertest.Start(t)
	dir := t.TempDir()
	return &Harness{t: t, Srv: srv, Env: map[string]string{
		"FORGE_CONFIG_DIR": dir, "HOME": dir, "FORGE_BASE_URL": srv.BaseURL(),
	}}
}

// Against returns a Harness whose forge talks to the service at baseURL
// with token ("" for none): a fixture playing a service that made other
// choices. It has no reference server (Srv is nil).
func Against(t testing.TB, baseURL, token string) *Harness {
	dir := t.TempDir()
	h := &Harness{t: t, Env: map[string]string{"FORGE_CONFIG_DIR": dir, "HOME": dir, "FORGE_BASE_URL": baseURL}}
	if token != "" {
		h.Env["FORGE_TOKEN"] = token
	}
	return h
}

// LoginAs creates the user (unless they exist) and makes forge use a
// token of theirs (with refservertest.Password(login)).
func (h *Harness) LoginAs(login string) {
	h.t.Helper()
	h.Env["FORGE_TOKEN"] = refservertest.User(h.t, h.Srv, login, "")
}

// Repo creates owner/name on the server, with a first commit (a
// README.md).
func (h *Harness) Repo(owner, name string) {
	h.t.Helper()
	if _, err := h.Srv.CreateRepo(owner, name, refserver.RepoOptions{AutoInit: true}); err != nil {
		h.t.Fatal(err)
	}
}

// Run says how to run forge.
type Run struct {
	// TTY makes stdin and stdout terminals 80 columns wide, without colour.
	TTY bool
	// ErrTTY makes stderr a terminal too, as it is for people (and then
	// messages on it are in colour).
	ErrTTY bool
	// Stdin is what forge reads.
	Stdin string
	// Answers answer forge's questions in order: strings, functions of
	// what forge has written on stdout so far, or errors (see prompttest).
	Answers []any
	// Strict fails the test at a question Answers has no answer for;
	// otherwise that question gets an error, as from a closed terminal.
	Strict bool
}

// Result is what a run left behind.
type Result struct {
	Code      int
	Out, Err  string
	Questions []string
	// Asked are the questions with their kind, as "confirm: Q".
	Asked []string
}

// Run runs forge with args.
func (h *Harness) Run(r Run, args ...string) Result {
	h.t.Helper()
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(r.Stdin)
	ios.SetStdinTTY(r.TTY)
	ios.SetStdoutTTY(r.TTY)
	ios.SetStderrTTY(r.ErrTTY)
	f := cmdutil.New(ios, func(k string) string { return h.Env[k] })
	p := &prompttest.Script{Answers: r.Answers, Screen: out.String}
	if r.Strict {
		p.T = h.t
	}
	f.Prompter = p
	code := cmd.Run(context.Background(), f, args)
	if left := p.Left(); len(left) != 0 {
		h.t.Errorf("forge %s left answers %q unused; asked %q", strings.Join(args, " "), left, p.Questions())
	}
	return Result{Code: code, Out: out.String(), Err: errOut.String(), Questions: p.Questions(), Asked: p.Asked()}
}

// Output joins stdout and stderr, for failure messages.
func (r Result) Output() string {
	var b bytes.Buffer
	b.WriteString("[stdout]\n" + r.Out + "[stderr]\n" + r.Err)
	return b.String()
}
