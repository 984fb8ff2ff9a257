//go:build linux

// Command tuistart measures how soon `forge tui` draws on a real terminal:
// it starts forge on a pseudo-terminal of its own (80×24), against a
// reference server with the demo world started in-process, and times from
// the exec to the first frame (the tab bar) and to the repository list
// (the first data); then from a key press to the frame it changes (tab 2,
// then enter on a repository); then quits it with q. bench/README.md has
// the figures. With -keys it times keys in a 10,003-line job log instead
// (keys.go), beside less on the same lines.
//
//	go build -o /tmp/forge ./cmd/forge
//	go run ./bench/tuistart -forge /tmp/forge -n 30
//	go run ./bench/tuistart -forge /tmp/forge -keys -n 20
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"github.com/forgehq/forge/refserver"
	"golang.org/x/sys/unix"
)

func main() {
	forge := flag.String("forge", "forge", "the forge binary")
	n := flag.Int("n", 20, "runs")
	keysOnly := flag.Bool("keys", false, "time keys in a 10,003-line job log instead, beside less on the same lines")
	flag.Parse()
	srv, err := refserver.New(refserver.Options{Demo: true})
	if err == nil {
		err = srv.Start()
	}
	check(err)
	defer srv.Close()
	tok, err := srv.Token("alice")
	check(err)
	cfg, err := os.MkdirTemp("", "tuistart")
	check(err)
	defer os.RemoveAll(cfg)
	env := append(os.Environ(), "FORGE_CONFIG_DIR="+cfg, "FORGE_BASE_URL="+srv.BaseURL(), "FORGE_TOKEN="+tok, "TERM=xterm-256color")
	if *keysOnly {
		keys(*forge, srv, env, *n)
		return
	}

	var frame, data, tab, open []time.Duration
	for range *n {
		r := once(*forge, env)
		frame, data, tab, open = append(frame, r[0]), append(data, r[1]), append(tab, r[2]), append(open, r[3])
	}
	report("first frame (tab bar)", frame)
	report("repository list drawn", data)
	report("key 2 → Issues tab", tab)
	report("enter → repo page", open)
}

// once runs forge tui on a new pty and returns when its first frame and
// its repository list appeared, and how long two keys took to show.
func once(forge string, env []string) [4]time.Duration {
	var frame, data time.Duration
	ptm, pts := openPTY()
	defer ptm.Close()
	// Each run starts with no repository remembered from the last.
	state, err := os.MkdirTemp("", "tuistart-state")
	check(err)
	defer os.RemoveAll(state)
	cmd := exec.Command(forge, "tui")
	cmd.Env = append(env, "XDG_STATE_HOME="+state)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, pts
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	start := time.Now()
	check(cmd.Start())
	pts.Close()
	var out []byte
	buf := make([]byte, 64<<10)
	answered := false
	for data == 0 {
		k, err := ptm.Read(buf)
		if err != nil {
			check(fmt.Errorf("reading the terminal: %w (so far %q)", err, out))
		}
		out = append(out, buf[:k]...)
		if !answered && bytes.Contains(out, []byte("\x1b]11;?")) {
			// Answer the background colour query, as a terminal does.
			ptm.Write([]byte("\x1b]11;rgb:0000/0000/0000\x07"))
			answered = true
		}
		if frame == 0 && bytes.Contains(out, []byte("1 Repos")) {
			frame = time.Since(start)
		}
		if bytes.Contains(out, []byte("alice/webapp")) {
			data = time.Since(start)
		}
	}
	// A key, then the frame it changes: the bytes before are dropped.
	key := func(k, want string) time.Duration {
		out = out[:0]
		t := time.Now()
		ptm.Write([]byte(k))
		for !bytes.Contains(out, []byte(want)) {
			k, err := ptm.Read(buf)
			if err != nil {
				check(fmt.Errorf("reading the terminal: %w (so far %q)", err, out))
			}
			out = append(out, buf[:k]...)
		}
		return time.Since(t)
	}
	tab := key("2", "No repository chosen yet.")
	key("1", "Your repositories")
	open := key("\r", "alice/webapp")
	ptm.Write([]byte("q"))
	go func() {
		for {
			if _, err := ptm.Read(buf); err != nil {
				return
			}
		}
	}()
	check(cmd.Wait())
	return [4]time.Duration{frame, data, tab, open}
}

// openPTY opens a pseudo-terminal pair of 80×24.
func openPTY() (*os.File, *os.File) {
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	check(err)
	fd := int(ptm.Fd())
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	check(err)
	unlock := 0
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock)))
	if errno != 0 {
		check(errno)
	}
	check(unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: 80}))
	pts, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	check(err)
	return ptm, pts
}

func report(what string, ds []time.Duration) {
	slices.Sort(ds)
	fmt.Printf("%-24s min %6.1f ms  median %6.1f ms  max %6.1f ms  (%d runs)\n", what,
		ms(ds[0]), ms(ds[len(ds)/2]), ms(ds[len(ds)-1]), len(ds))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "tuistart:", err)
		os.Exit(1)
	}
}
