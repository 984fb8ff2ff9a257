package prompt_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/prompt"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the terminal side forge reads from,
// and the side a person types into and sees the echo on.
func openPTY(t *testing.T) (terminal, person *os.File) {
	t.Helper()
	person, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { person.Close() })
	if err := unix.IoctlSetPointerInt(int(person.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(person.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	terminal, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { terminal.Close() })
	return terminal, person
}

func echoOn(t *testing.T, f *os.File) bool {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&unix.ECHO != 0
}

// echoTurnsOff waits until Password has turned the terminal's echo off.
func echoTurnsOff(t *testing.T, f *os.File) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); echoOn(t, f); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("echo never turned off")
		}
	}
}

// TestPasswordOnTerminal: on a terminal the password is read without
// echo (the person sees only the question and a newline), and echo is
// back afterwards, also when Ctrl-C ends the question.
func TestPasswordOnTerminal(t *testing.T) {
	t.Parallel()
	terminal, person := openPTY(t)
	ios, _, _, _ := iostreams.Test()
	ios.In, ios.ErrOut = terminal, terminal
	p := prompt.New(ios)
	if !echoOn(t, terminal) {
		t.Fatal("a new terminal echoes")
	}
	seen := make(chan string, 100)
	go func() {
		r := bufio.NewReader(person)
		for {
			b, err := r.ReadByte()
			if err != nil {
				close(seen)
				return
			}
			seen <- string(b)
		}
	}()
	screenShows := func(want string) string {
		t.Helper()
		var got strings.Builder
		deadline := time.After(10 * time.Second)
		for !strings.Contains(got.String(), want) {
			select {
			case b := <-seen:
				got.WriteString(b)
			case <-deadline:
				t.Fatalf("the screen never showed %q; it shows %q", want, got.String())
			}
		}
		return got.String()
	}

	answer := make(chan string, 1)
	go func() {
		pw, err := p.Password(context.Background(), "Password")
		if err != nil {
			pw = "error: " + err.Error()
		}
		answer <- pw
	}()
	screenShows("? Password: ")
	// Typed once the terminal stopped echoing, as a person's typing
	// would come after the prompt.
	echoTurnsOff(t, terminal)
	person.WriteString("s3cret-password\r")
	if got := <-answer; got != "s3cret-password" {
		t.Errorf("Password = %q", got)
	}
	if shown := screenShows("\n"); strings.Contains(shown, "s3cret") {
		t.Errorf("the password was echoed: %q", shown)
	}
	if !echoOn(t, terminal) {
		t.Error("echo is still off after the password was read")
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan error, 1)
	go func() {
		_, err := p.Password(ctx, "Password")
		cancelled <- err
	}()
	screenShows("? Password: ")
	echoTurnsOff(t, terminal)
	cancel()
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Errorf("Ctrl-C: %v", err)
	}
	if !echoOn(t, terminal) {
		t.Error("echo is still off after Ctrl-C")
	}
}
