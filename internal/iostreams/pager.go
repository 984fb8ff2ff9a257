package iostreams

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
)

// StartPager sends stdout through a pager while a command writes long
// output to a terminal, as git and gh do: FORGE_PAGER, else PAGER, else
// `less` with LESS=FRX (it exits at once when the text fits the screen,
// keeps colours and leaves the text on the screen). Piped stdout or the
// pager "cat" mean no pager. It returns the function that closes the
// pager and waits for it; call it once the command is done writing.
//
// When the user quits the pager before the end, the rest of the output is
// dropped without an error: nobody is reading it.
func (s *IOStreams) StartPager() (stop func()) {
	noop := func() {}
	if !s.outTTY || s.getenv == nil {
		return noop
	}
	pager, set := s.lookupPager()
	if pager == "" || pager == "cat" || s.getenv("FORGE_FORCE_TTY") != "" && s.getenv("FORGE_PAGER") == "" {
		return noop
	}
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		f := strings.Fields(pager)
		cmd = exec.Command(f[0], f[1:]...)
	} else {
		cmd = exec.Command("/bin/sh", "-c", pager)
	}
	cmd.Env = os.Environ()
	if s.getenv("LESS") == "" {
		cmd.Env = append(cmd.Env, "LESS=FRX")
	}
	cmd.Stdout, cmd.Stderr = s.Out, s.ErrOut
	w, err := cmd.StdinPipe()
	if err != nil {
		return noop
	}
	if err := cmd.Start(); err != nil {
		if set {
			// A pager asked for by name that does not run is said once;
			// the output still goes to the terminal.
			io.WriteString(s.ErrOut, "forge: cannot start the pager "+pager+": "+err.Error()+"\n")
		}
		return noop
	}
	out := s.Out
	s.Out = &goneWriter{w: w}
	return func() {
		w.Close()
		_ = cmd.Wait()
		s.Out = out
	}
}

// lookupPager is the pager to run and whether the user named it.
func (s *IOStreams) lookupPager() (string, bool) {
	for _, k := range []string{"FORGE_PAGER", "PAGER"} {
		if v := strings.TrimSpace(s.getenv(k)); v != "" {
			return v, true
		}
	}
	if _, err := exec.LookPath("less"); err != nil {
		return "", false
	}
	return "less", false
}

// goneWriter drops what is written after its reader has gone (the pager
// quit, the pipe's reading end closed).
type goneWriter struct {
	w    io.Writer
	gone bool
}

func (p *goneWriter) Write(b []byte) (int, error) {
	if p.gone {
		return len(b), nil
	}
	n, err := p.w.Write(b)
	if errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
		p.gone = true
		return len(b), nil
	}
	return n, err
}
