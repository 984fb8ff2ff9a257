package prompt_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/prompt"
)

// piped is a Prompter reading input, and what it wrote to stdout and
// stderr.
func piped(input string) (prompt.Prompter, *strings.Builder, *strings.Builder) {
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(input)
	var o, e strings.Builder
	ios.Out, ios.ErrOut = io.MultiWriter(out, &o), io.MultiWriter(errOut, &e)
	return prompt.New(ios), &o, &e
}

// TestInput: the question and its default go to stderr, never stdout; an
// empty answer is the default; CRLF and a last line without a newline
// are answers; input that ends is an error, not an empty answer.
func TestInput(t *testing.T) {
	t.Parallel()
	p, out, errOut := piped("\nbob\r\nlast")
	ctx := context.Background()
	for _, want := range []string{"alice", "bob", "last"} {
		got, err := p.Input(ctx, "Username", "alice")
		if err != nil || got != want {
			t.Errorf("Input = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := p.Input(ctx, "Email", ""); err == nil || err.Error() != "no answer: input ended" {
		t.Errorf("after the input ended: %v", err)
	}
	if got, want := errOut.String(), "? Username (alice): ? Username (alice): ? Username (alice): ? Email: "; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q", out.String())
	}
}

func TestConfirm(t *testing.T) {
	t.Parallel()
	p, _, errOut := piped("y\nYES\n\nn\nmaybe\n\n")
	ctx := context.Background()
	for i, c := range []struct{ def, want bool }{{false, true}, {false, true}, {true, true}, {true, false}, {true, false}, {false, false}} {
		got, err := p.Confirm(ctx, "Delete?", c.def)
		if err != nil || got != c.want {
			t.Errorf("answer %d (default %v): %v, %v; want %v", i+1, c.def, got, err, c.want)
		}
	}
	if !strings.HasPrefix(errOut.String(), "? Delete? [y/N]: ? Delete? [y/N]: ? Delete? [Y/n]: ") {
		t.Errorf("stderr %q", errOut.String())
	}
}

// TestPasswordPiped: piped, the password is the line read, and only the
// question is written.
func TestPasswordPiped(t *testing.T) {
	t.Parallel()
	p, out, errOut := piped("s3cret-password\n")
	got, err := p.Password(context.Background(), "Password")
	if err != nil || got != "s3cret-password" {
		t.Errorf("Password = %q, %v", got, err)
	}
	if errOut.String() != "? Password: " || out.Len() != 0 {
		t.Errorf("stderr %q, stdout %q", errOut.String(), out.String())
	}
}

// TestCancelledWhileWaiting: Ctrl-C (the context ending) while nothing is
// typed ends the question at once with context.Canceled.
func TestCancelledWhileWaiting(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := iostreams.Test()
	r, w := io.Pipe()
	defer w.Close()
	ios.In = r
	p := prompt.New(ios)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 3)
	go func() {
		_, err := p.Input(ctx, "Name", "")
		done <- err
		_, err = p.Confirm(ctx, "Sure?", false)
		done <- err
		_, err = p.Password(ctx, "Password")
		done <- err
	}()
	cancel()
	for _, q := range []string{"Input", "Confirm", "Password"} {
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v", q, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s still waits after Ctrl-C", q)
		}
	}
}

// TestQuestionsAreSanitizedOnATerminal: a question goes through the
// streams' ErrPrintf, so on a terminal a value in it (a default, a name)
// cannot carry escapes or a line break, as every other message.
func TestQuestionsAreSanitizedOnATerminal(t *testing.T) {
	t.Parallel()
	ios, in, _, errOut := iostreams.Test()
	ios.SetStderrTTY(true)
	in.WriteString("\n\n")
	p := prompt.New(ios)
	ctx := context.Background()
	if _, err := p.Input(ctx, "Name", "a\x1b]0;owned\a\nb"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Confirm(ctx, "Delete x\x1b[2J?", false); err != nil {
		t.Fatal(err)
	}
	if got := errOut.String(); strings.ContainsAny(got, "\x1b\a\n") {
		t.Errorf("stderr %q holds an escape or a line break", got)
	}
}
