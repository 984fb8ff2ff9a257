package repo_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"hash"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/testkit/clitest"
)

// bigBinary is n bytes of noise, the same on every run.
func bigBinary(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return string(b)
}

// bigText is n bytes of lines of text, with an escape sequence (a
// screen clear) past the first MiB.
func bigText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %d: ünïcödé text\n", i)
		if i == 60000 {
			b.WriteString("\x1b[2Jcleared\n")
		}
	}
	return b.String()[:n]
}

// TestContentsOfFilesPastTheInlineLimit: the reference server refuses a
// file over 1 MiB inline (403); forge reads it raw, exactly. On main
// every case below failed with that 403.
func TestContentsOfFilesPastTheInlineLimit(t *testing.T) {
	h := setup(t)
	bin, txt := bigBinary(3<<20), bigText(3<<20+5)
	if _, err := h.Srv.CommitFiles("alice/app", "", map[string]string{"big.bin": bin, "big.txt": txt, "small.txt": "small\n"}, "Add big files"); err != nil {
		t.Fatal(err)
	}
	h.Env["FORGE_REPO"] = "alice/app"
	for _, c := range []struct{ path, want string }{{"big.bin", bin}, {"big.txt", txt}, {"small.txt", "small\n"}} {
		r := h.Run(clitest.Run{}, "repo", "contents", c.path)
		if r.Code != 0 || sha256.Sum256([]byte(r.Out)) != sha256.Sum256([]byte(c.want)) {
			t.Fatalf("%s: exit %d, %d bytes (want %d)\n%s", c.path, r.Code, len(r.Out), len(c.want), r.Err)
		}
	}
	// A terminal: binary refused, text sanitized as it streams.
	r := h.Run(clitest.Run{TTY: true}, "repo", "contents", "big.bin")
	if r.Code != 1 || r.Out != "" || !strings.Contains(r.Err, "forge: big.bin is a binary file (3145728 bytes); save it with `forge repo contents big.bin > FILE`") {
		t.Fatalf("big.bin on a terminal: exit %d\n%.500s", r.Code, r.Output())
	}
	r = h.Run(clitest.Run{TTY: true}, "repo", "contents", "big.txt")
	if r.Code != 0 || r.Out != text.Sanitize(txt) || strings.Contains(r.Out, "\x1b") {
		t.Fatalf("big.txt on a terminal: exit %d, %d bytes, want %d\n%s", r.Code, len(r.Out), len(text.Sanitize(txt)), r.Err)
	}
	// --json has no content to give: one line naming the fix.
	r = h.Run(clitest.Run{}, "repo", "contents", "big.bin", "--json", "content")
	want := "forge: big.bin is too large for the service to send inline (3145728 bytes), so --json has no content for it: print it without --json, or save it with `forge repo contents big.bin > FILE`\n"
	if r.Code != 1 || r.Out != "" || r.Err != want {
		t.Fatalf("--json: exit %d\n%s", r.Code, r.Output())
	}
	// A small file's object is unchanged.
	r = h.Run(clitest.Run{}, "repo", "contents", "small.txt", "--json", "content,encoding")
	if r.Code != 0 || !strings.Contains(r.Out, `"content": "c21hbGwK"`) {
		t.Fatalf("--json small.txt: exit %d\n%s", r.Code, r.Output())
	}
}

// TestIsBinaryOnTheHead: a head that ends inside a character is text;
// one with a NUL or bytes that are not UTF-8 is binary.
func TestIsBinaryOnTheHead(t *testing.T) {
	h := setup(t)
	// 7999 ASCII bytes then "é" (2 bytes): the first 8000 bytes cut it.
	cut := strings.Repeat("a", 7999) + "é and more text"
	if _, err := h.Srv.CommitFiles("alice/app", "", map[string]string{"cut.txt": cut, "late.bin": strings.Repeat("a", 9000) + "\x00"}, "Add"); err != nil {
		t.Fatal(err)
	}
	h.Env["FORGE_REPO"] = "alice/app"
	if r := h.Run(clitest.Run{TTY: true}, "repo", "contents", "cut.txt"); r.Code != 0 || r.Out != cut {
		t.Errorf("cut.txt: exit %d\n%.200s", r.Code, r.Err)
	}
	// As git: a NUL past the first 8000 bytes does not make a file binary.
	if r := h.Run(clitest.Run{TTY: true}, "repo", "contents", "late.bin"); r.Code != 0 || r.Out != text.Sanitize(strings.Repeat("a", 9000)+"\x00") {
		t.Errorf("late.bin: exit %d\n%.200s", r.Code, r.Err)
	}
}

// countingHash is stdout for the memory test: it keeps a hash, not the
// bytes.
type countingHash struct {
	n int64
	s hash.Hash
}

func (c *countingHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.s.Write(p)
}

// TestContentsStreamsInConstantMemory: printing a 64 MiB file allocates
// far less than 64 MiB in the whole process (forge and the reference
// server serving it): the bytes stream through. Before the raw read
// forge failed on such a file; a client that read it whole would
// allocate at least its size.
func TestContentsStreamsInConstantMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("pushes a 64 MiB file")
	}
	h := setup(t)
	const size = 64 << 20
	data := bigBinary(size)
	if _, err := h.Srv.CommitFiles("alice/app", "", map[string]string{"huge.bin": data}, "Add a huge file"); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256([]byte(data))
	data = ""
	h.Env["FORGE_REPO"] = "alice/app"
	ios, _, _, errOut := iostreams.Test()
	out := &countingHash{s: sha256.New()}
	ios.Out = out
	f := cmdutil.New(ios, func(k string) string { return h.Env[k] })

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	code := cmd.Run(context.Background(), f, []string{"repo", "contents", "huge.bin"})
	runtime.ReadMemStats(&after)

	if code != 0 || out.n != size || [32]byte(out.s.Sum(nil)) != want {
		t.Fatalf("exit %d, %d bytes written\n%s", code, out.n, errOut)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("printing %d MiB allocated %.1f MiB in all", size>>20, float64(alloc)/(1<<20))
	if alloc > size/8 {
		t.Fatalf("printing a %d MiB file allocated %d MiB: it is held in memory", size>>20, alloc>>20)
	}
}

// TestViewShowsTheStartOfABigReadme: a README past the inline limit is
// read raw, its first MiB shown with a note saying so. On main the 403
// made it "no README" on a terminal and nothing piped.
func TestViewShowsTheStartOfABigReadme(t *testing.T) {
	h := setup(t)
	big := "# Big\n\n" + strings.Repeat("Some words in a paragraph.\n", 3<<20/27)
	if _, err := h.Srv.CommitFiles("alice/app", "", map[string]string{"README.md": big}, "A big README"); err != nil {
		t.Fatal(err)
	}
	note := "The README is 3.0 MiB; its first 1.0 MiB is shown: `forge repo contents README.md -R alice/app` prints it whole."
	r := h.Run(clitest.Run{}, "repo", "view", "alice/app")
	_, readme, _ := strings.Cut(r.Out, "--\n")
	if r.Code != 0 || !strings.HasPrefix(readme, "# Big\n\nSome words") || len(readme) < 1<<19 || len(readme) > 1<<20+4096 || r.Err != note+"\n" {
		t.Fatalf("piped: exit %d, README of %d bytes\n%.300s\n[stderr]\n%s", r.Code, len(readme), r.Out, r.Err)
	}
	r = h.Run(clitest.Run{TTY: true}, "repo", "view", "alice/app")
	if r.Code != 0 || !strings.Contains(r.Out, "Some words") || !strings.Contains(strings.Join(strings.Fields(r.Out), " "), note) {
		t.Fatalf("terminal: exit %d\n%.300s\n...\n%s", r.Code, r.Out, r.Out[max(0, len(r.Out)-500):])
	}
}
