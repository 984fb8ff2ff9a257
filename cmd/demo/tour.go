package demo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/internal/totp"
)

// demoUser is the account the tour runs as.
const demoUser = "alice"

// tour runs the demo's steps, each a forge command line run in this
// process with the demo's environment and the user's terminal.
type tour struct {
	ctx  context.Context
	opts *Options
	srv  *server
	dir  string
}

func newTour(ctx context.Context, opts *Options, srv *server, dir string) *tour {
	return &tour{ctx: ctx, opts: opts, srv: srv, dir: dir}
}

// step is one forge command line of the tour.
type step struct {
	args []string
	// stdin, when set, is piped to the command, shown as `echo STDIN |`.
	stdin string
	// drawAsTerminal makes stdout count as an 80-column terminal even when
	// it is not, for output that only exists on one (the QR code).
	drawAsTerminal bool
	// interactive leaves stdin as it is (a terminal may prompt); other
	// steps never prompt.
	interactive bool
	// capture, when set, also receives the command's stdout.
	capture *bytes.Buffer
}

// say prints narration as shell comments, after a blank line.
func (t *tour) say(format string, a ...any) {
	ios := t.opts.IO
	cs := ios.ColorScheme()
	ios.Println()
	for _, line := range strings.Split(fmt.Sprintf(format, a...), "\n") {
		ios.Println(cs.Gray("# " + line))
	}
}

// exec prints the step's command line and runs it. A non-zero exit ends
// the tour with that exit code.
func (t *tour) exec(s step) error {
	outer := t.opts.IO
	cs := outer.ColorScheme()
	line := "$ " + shellLine(s)
	outer.Println(cs.Bold(line))

	ios := *outer
	if !s.interactive {
		ios.In = strings.NewReader(s.stdin)
		ios.SetStdinTTY(false)
	}
	if s.drawAsTerminal && !ios.IsStdoutTTY() {
		ios.SetStdoutTTY(true)
		ios.SetTerminalWidth(80)
	}
	if s.capture != nil {
		width := ios.TerminalWidth()
		ios.Out = io.MultiWriter(outer.Out, s.capture)
		ios.SetTerminalWidth(width)
	}
	f := cmdutil.New(&ios, t.env)
	if code := t.opts.run(t.ctx, f, s.args); code != 0 {
		if t.ctx.Err() != nil || code == cmdcore.ExitInterrupted {
			// Interrupted, as the step has said: not a failure of the step.
			return &cmdcore.ExitError{Code: cmdcore.ExitInterrupted}
		}
		outer.ErrPrintf("forge: the demo stopped: `%s` failed (exit %d)\n", shellLine(step{args: s.args}), code)
		return &cmdcore.ExitError{Code: code}
	}
	return nil
}

// shellLine is the step as a user would type it in a POSIX shell.
func shellLine(s step) string {
	words := make([]string, 0, len(s.args)+1)
	words = append(words, "forge")
	for _, a := range s.args {
		words = append(words, text.ShellQuote(a))
	}
	line := strings.Join(words, " ")
	if s.stdin != "" {
		line = "echo " + text.ShellQuote(strings.TrimSuffix(s.stdin, "\n")) + " | " + line
	}
	return line
}

// walk is the tour itself.
func (t *tour) walk() error {
	repo := demoUser + "/hello"
	pw := password + "\n"

	t.say("Log in. The password comes on stdin here; on a terminal forge asks for it.")
	if err := t.exec(step{args: []string{"auth", "login", "--base-url", t.srv.baseURL, "--username", demoUser, "--password-stdin"}, stdin: pw}); err != nil {
		return err
	}
	if err := t.exec(step{args: []string{"auth", "status"}}); err != nil {
		return err
	}

	t.say("Create a repository with a first commit.")
	if err := t.exec(step{args: []string{"repo", "create", "hello", "--init", "--description", "Made by forge demo"}}); err != nil {
		return err
	}

	t.say("Open an issue, then close it with a comment.")
	if err := t.exec(step{args: []string{"issue", "create", "-R", repo, "--title", "Say hello in French too", "--body", "Bonjour!"}}); err != nil {
		return err
	}
	if err := t.exec(step{args: []string{"issue", "close", "1", "-R", repo, "--comment", "Done: bonjour."}}); err != nil {
		return err
	}
	if err := t.exec(step{args: []string{"issue", "list", "-R", repo, "--state", "all"}}); err != nil {
		return err
	}

	t.say("Start a CI run through the raw API, then watch it to the end.")
	var id bytes.Buffer
	if err := t.exec(step{args: []string{"api", "-X", "POST", "repos/" + repo + "/actions/runs", "-f", "ref=main", "--jq", ".id"}, capture: &id}); err != nil {
		return err
	}
	if _, err := strconv.ParseInt(strings.TrimSpace(id.String()), 10, 64); err != nil {
		return fmt.Errorf("the run's ID: %q is not a number", strings.TrimSpace(id.String()))
	}
	if err := t.exec(step{args: []string{"run", "watch", strings.TrimSpace(id.String()), "-R", repo, "--exit-status", "--interval", t.opts.WatchInterval}}); err != nil {
		return err
	}

	t.say("Turn on two-factor authentication: scan the QR code with your app.")
	var setup bytes.Buffer
	if err := t.exec(step{args: []string{"auth", "2fa", "setup"}, drawAsTerminal: true, capture: &setup}); err != nil {
		return err
	}
	code, err := currentCode(setup.String(), time.Now())
	if err != nil {
		return err
	}
	t.say("The demo plays your authenticator app: the code just now is %s.", code)
	if err := t.exec(step{args: []string{"auth", "2fa", "setup", "--code", code}}); err != nil {
		return err
	}

	t.say("Ask the agent; the reply streams in as it is written.")
	if err := t.exec(step{args: []string{"chat", "-m", "How do I watch a CI run from the terminal?"}}); err != nil {
		return err
	}

	t.say("Push a directory as an image (one layer of its files, no docker needed); list its tags.")
	site := filepath.Join(t.dir, "site")
	if err := writeSite(site); err != nil {
		return fmt.Errorf("writing the demo's site: %w", err)
	}
	if err := t.exec(step{args: []string{"image", "login", "--username", demoUser, "--password-stdin"}, stdin: pw}); err != nil {
		return err
	}
	if err := t.exec(step{args: []string{"image", "push", site, "hello:1.0"}}); err != nil {
		return err
	}
	return t.exec(step{args: []string{"image", "tags", "hello"}})
}

// currentCode is what alice's authenticator app would show: the TOTP code
// (RFC 6238) of the secret `auth 2fa setup` printed under the QR code for
// typing in by hand, which is what the demo reads, as a person would.
func currentCode(printed string, now time.Time) (string, error) {
	// The secret as `auth 2fa setup` prints it on a terminal: indented,
	// base32 in groups of four, maybe in colour. Compiled here, not at
	// start-up: every forge run would pay for it.
	sgr := regexp.MustCompile(`\x1b\[[0-9;]*m`)
	secretLine := regexp.MustCompile(`(?m)^ {4}([A-Z2-7]{1,4}(?: [A-Z2-7]{1,4})+)$`)
	m := secretLine.FindStringSubmatch(sgr.ReplaceAllString(printed, ""))
	if m == nil {
		return "", fmt.Errorf("`forge auth 2fa setup` printed no secret to type in")
	}
	return totp.Code(m[1], now)
}
