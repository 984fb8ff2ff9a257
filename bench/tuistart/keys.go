//go:build linux

package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
)

// logLines are the step's lines: with the runner's own, the log the
// keys are timed in is 10,003 lines long.
const logLines = 10_001

// keys times, on a pseudo-terminal of 80×24, from a key to the first
// byte of the frame it changes, in a job's log of logLines lines in
// `forge tui` and in `less` showing the same lines: j, page down, G
// (from the top) and n (a search kept). The program is idle between
// keys (a finished job polls nothing), so the first bytes after a key
// are its frame.
func keys(forge string, srv *refserver.Server, env []string, n int) {
	lines := make([]string, logLines)
	for i := range lines {
		word := "compiling"
		if i%97 == 5 {
			word = "needle"
		}
		lines[i] = fmt.Sprintf("step %05d: %s package example.com/app/internal/module%d", i, word, i)
	}
	_, err := srv.CreateRun("alice/webapp", refserver.RunSeed{Name: "BigLog", Status: "completed", Jobs: []ci.JobPlan{{Name: "bigbuild", Steps: []ci.StepPlan{{Name: "compile", Lines: lines}}}}})
	check(err)
	file := filepath.Join(os.TempDir(), "tuikeys.log")
	check(os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	defer os.Remove(file)

	forgeT := session(exec.Command(forge, "tui", "-R", "alice/webapp", "--tab", "ci"), env, func(t *term) {
		t.waitFor("BigLog") // the runs list, newest first
		t.quiet()
		t.send("\r")
		t.waitFor("bigbuild")
		t.quiet()
		t.send("\r")
		t.waitFor(fmt.Sprintf("step %05d", logLines-1)) // the log, at its end
	}, n)
	lessT := session(exec.Command("less", file), env, func(t *term) { t.waitFor("step 00000") }, n)
	for _, k := range []string{"j", "page down", "G", "n"} {
		report("forge "+k, forgeT[k])
		report("less  "+k, lessT[k])
	}
}

// session starts cmd on a new terminal, waits for ready, then times n
// presses of each key; it quits with q.
func session(cmd *exec.Cmd, env []string, ready func(*term), n int) map[string][]time.Duration {
	ptm, pts := openPTY()
	defer ptm.Close()
	state, err := os.MkdirTemp("", "tuikeys-state")
	check(err)
	defer os.RemoveAll(state)
	cmd.Env = append(env, "XDG_STATE_HOME="+state, "LESS=", "LESSHISTFILE=-")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, pts
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	check(cmd.Start())
	pts.Close()
	t := newTerm(ptm)
	ready(t)
	t.quiet()
	out := map[string][]time.Duration{}
	// A search kept for n: the same in both.
	t.send("/needle\r")
	t.quiet()
	for range n {
		t.send("g")
		t.quiet()
		for range 5 {
			out["j"] = append(out["j"], t.key("j"))
		}
		for range 5 {
			out["page down"] = append(out["page down"], t.key("\x1b[6~"))
		}
		out["n"] = append(out["n"], t.key("n"))
		out["G"] = append(out["G"], t.key("G"))
	}
	t.send("q")
	t.drain()
	_ = cmd.Wait()
	return out
}

// term reads what a program writes to its terminal, on a goroutine, and
// answers the background colour query as a terminal does.
type term struct {
	ptm  *os.File
	data chan []byte
	seen strings.Builder
}

func newTerm(ptm *os.File) *term {
	t := &term{ptm: ptm, data: make(chan []byte, 1024)}
	go func() {
		for {
			buf := make([]byte, 64<<10)
			k, err := ptm.Read(buf)
			if k > 0 {
				if strings.Contains(string(buf[:k]), "\x1b]11;?") {
					ptm.Write([]byte("\x1b]11;rgb:0000/0000/0000\x07"))
				}
				t.data <- buf[:k]
			}
			if err != nil {
				close(t.data)
				return
			}
		}
	}()
	return t
}

func (t *term) send(s string) { _, err := t.ptm.Write([]byte(s)); check(err) }

// waitFor reads until s was written.
func (t *term) waitFor(s string) {
	deadline := time.After(20 * time.Second)
	for !strings.Contains(t.seen.String(), s) {
		select {
		case b, ok := <-t.data:
			if !ok {
				check(fmt.Errorf("the program ended before showing %q", s))
			}
			t.seen.Write(b)
		case <-deadline:
			seen := t.seen.String()
			check(fmt.Errorf("never showed %q; the last bytes: %q", s, seen[max(len(seen)-800, 0):]))
		}
	}
	t.seen.Reset()
}

// quiet reads until nothing comes for 100 ms: the frame is whole.
func (t *term) quiet() {
	for {
		select {
		case _, ok := <-t.data:
			if !ok {
				return
			}
		case <-time.After(100 * time.Millisecond):
			return
		}
	}
}

// key presses k and returns the time to the first byte written after.
// It waits a random part of a 60 fps frame first: a quiet of exactly
// 100 ms would press every key at the same phase of the program's
// frame ticker (six frames), as no typist does.
func (t *term) key(k string) time.Duration {
	time.Sleep(rand.N(time.Second / 60))
	start := time.Now()
	t.send(k)
	select {
	case <-t.data:
	case <-time.After(5 * time.Second):
		check(fmt.Errorf("no frame after %q", k))
	}
	d := time.Since(start)
	t.quiet()
	return d
}

func (t *term) drain() {
	go func() {
		for range t.data {
		}
	}()
}
