package chat

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"

	"golang.org/x/term"
)

// lineSource gives a session its input: messages (possibly several lines)
// and commands.
type lineSource interface {
	// readMessage returns the next message. io.EOF ends the session;
	// errCleared means the user dropped what they were typing.
	readMessage(ctx context.Context) (string, error)
	// replying makes Ctrl-C call cancel while a reply streams, until the
	// returned function is called.
	replying(cancel func()) (done func())
	close()
}

var (
	errCleared = errors.New("input cleared")
	// errInterrupted is Ctrl-C on an empty line: the session may end.
	errInterrupted = errors.New("interrupted")
)

// pipeSource reads lines from a pipe (forge chat -i). A line ending in \
// continues on the next one. Ctrl-C is the process's: it ends the session.
type pipeSource struct{ r *bufio.Reader }

func (p *pipeSource) readMessage(ctx context.Context) (string, error) {
	var parts []string
	for {
		line, err := p.r.ReadString('\n')
		if err != nil && (err != io.EOF || line == "") {
			if len(parts) > 0 && err == io.EOF {
				return strings.Join(parts, "\n"), nil
			}
			return "", err
		}
		line = strings.TrimRight(line, "\r\n")
		if cont, ok := strings.CutSuffix(line, `\`); ok {
			parts = append(parts, cont)
			continue
		}
		return strings.Join(append(parts, line), "\n"), nil
	}
}

func (p *pipeSource) replying(func()) func() { return func() {} }
func (p *pipeSource) close()                 {}

// ttySource reads from a terminal in raw mode through x/term's line
// editor (history on the up arrow, bracketed paste). Raw mode turns Ctrl-C
// into a byte instead of a signal, which ttyInput gives its meaning: while
// a reply streams it cancels the reply; at the prompt it clears the line,
// or on an empty line ends the session.
type ttySource struct {
	in      *ttyInput
	t       *term.Terminal
	history *history
	fd      int
	outFd   int
	restore *term.State
	screen  io.Writer
	prompt  string
	cont    string
	cleared string // what Ctrl-C on a line with text shows
}

func newTTYSource(ctx context.Context, stdin *os.File, screen *os.File, prompt, cont, cleared string, complete func(string) []string) (*ttySource, error) {
	fd := int(stdin.Fd())
	state, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	in := &ttyInput{ctx: ctx, ready: make(chan struct{}, 1)}
	go in.pump(stdin)
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{in, screen}, prompt)
	h := &history{}
	t.History = h
	// The list of choices is written once the editor has drawn the
	// completed line (Write waits for the editor's lock): Write moves the
	// prompt below it.
	t.AutoCompleteCallback = tabComplete(complete, func(choices []string) {
		go t.Write([]byte(choiceList(choices) + "\n"))
	})
	t.SetBracketedPasteMode(true)
	return &ttySource{in: in, t: t, history: h, fd: fd, outFd: int(screen.Fd()), restore: state, screen: screen, prompt: prompt, cont: cont, cleared: cleared}, nil
}

func (s *ttySource) close() {
	s.t.SetBracketedPasteMode(false)
	term.Restore(s.fd, s.restore)
}

func (s *ttySource) replying(cancel func()) func() {
	s.in.setOnCtrlC(cancel)
	return func() { s.in.setOnCtrlC(nil) }
}

// readMessage reads lines until one that ends the message: a typed Enter
// on a line not ending in \. Lines that end inside a bracketed paste are
// joined, so a pasted block is one message — and one entry of the
// history, its line breaks shown as ⏎ (lineBreak) when the up arrow
// brings it back on one line, and line breaks again when it is sent.
func (s *ttySource) readMessage(ctx context.Context) (string, error) {
	var parts []string
	prompt := s.prompt
	mark := s.history.Len()
	defer s.history.trim()
	for {
		if w, h, err := term.GetSize(s.outFd); err == nil {
			s.t.SetSize(w, h)
		}
		s.t.SetPrompt(prompt)
		line, err := s.t.ReadLine()
		ctrlC, pasted := s.in.lineInfo()
		if errors.Is(err, term.ErrPasteIndicator) {
			err = nil
		}
		line = strings.ReplaceAll(line, lineBreak, "\n")
		switch {
		case ctrlC && len(parts) == 0 && line == "":
			return "", errInterrupted
		case ctrlC:
			io.WriteString(s.screen, s.cleared)
			return "", errCleared
		case err == io.EOF && len(parts) > 0:
			io.WriteString(s.screen, "\r\n")
			return s.history.collapse(mark, strings.Join(parts, "\n")), nil
		case err == io.EOF:
			io.WriteString(s.screen, "\r\n") // Ctrl-D: leave the prompt's line
			return "", io.EOF
		case err != nil:
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			return "", err
		}
		if pasted {
			parts, prompt = append(parts, line), s.cont
			continue
		}
		if cont, ok := strings.CutSuffix(line, `\`); ok {
			parts, prompt = append(parts, cont), s.cont
			continue
		}
		if len(parts) == 0 {
			return line, nil
		}
		return s.history.collapse(mark, strings.Join(append(parts, line), "\n")), nil
	}
}

// lineBreak stands for a line break of a message recalled on one line.
const lineBreak = "⏎"

// ttyInput reads the terminal in the background and hands the line editor
// one line at a time, so that what ends each line (Enter, Ctrl-C, inside a
// paste or not) is known when the editor returns it. Keys typed while a
// reply streams are kept for the next prompt; Ctrl-C among them cancels
// the reply.
type ttyInput struct {
	ctx   context.Context
	ready chan struct{}

	mu      sync.Mutex
	pending []byte
	err     error
	onCtrlC func()
	inPaste bool
	ctrlC   bool // the last line handed on ended with Ctrl-C
	pasted  bool // the last line handed on ended inside a paste
}

const (
	ctrlC      = 3
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

func (in *ttyInput) pump(r io.Reader) {
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		chunk := buf[:n]
		in.mu.Lock()
		if in.onCtrlC != nil && bytes.IndexByte(chunk, ctrlC) >= 0 {
			in.onCtrlC()
			chunk = bytes.ReplaceAll(chunk, []byte{ctrlC}, nil)
		}
		in.pending = append(in.pending, chunk...)
		if err != nil {
			in.err = err
		}
		in.mu.Unlock()
		select {
		case in.ready <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

func (in *ttyInput) setOnCtrlC(f func()) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.onCtrlC = f
}

// lineInfo reports how the line the editor just returned ended.
func (in *ttyInput) lineInfo() (ctrlC, pasted bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	ctrlC, pasted = in.ctrlC, in.pasted
	in.ctrlC, in.pasted = false, false
	return ctrlC, pasted
}

// Read hands the editor pending input up to and including the first line
// end (CR, LF, CRLF, or Ctrl-C, which it turns into CR).
func (in *ttyInput) Read(p []byte) (int, error) {
	for {
		in.mu.Lock()
		if len(in.pending) > 0 {
			n := in.handOn(p)
			in.mu.Unlock()
			return n, nil
		}
		err := in.err
		in.mu.Unlock()
		if err != nil {
			return 0, err
		}
		select {
		case <-in.ready:
		case <-in.ctx.Done():
			return 0, in.ctx.Err()
		}
	}
}

func (in *ttyInput) handOn(p []byte) int {
	data := in.pending
	cut := len(data)
	if i := bytes.IndexAny(data, "\r\n\x03"); i >= 0 {
		cut = i + 1
		if data[i] == '\r' && cut < len(data) && data[cut] == '\n' {
			cut++
		}
	}
	n := copy(p, data[:cut])
	in.pending = in.pending[n:]
	chunk := p[:n]
	// Follow bracketed paste through what is handed on.
	for {
		s, e := bytes.Index(chunk, []byte(pasteStart)), bytes.Index(chunk, []byte(pasteEnd))
		if s < 0 && e < 0 {
			break
		}
		if e < 0 || (s >= 0 && s < e) {
			in.inPaste, chunk = true, chunk[s+len(pasteStart):]
		} else {
			in.inPaste, chunk = false, chunk[e+len(pasteEnd):]
		}
	}
	if n == cut && cut > 0 {
		switch last := p[n-1]; {
		case last == ctrlC && !in.inPaste:
			p[n-1] = '\r'
			in.ctrlC = true
		case last == '\r' || last == '\n':
			in.pasted = in.inPaste
		}
	}
	if len(in.pending) == 0 {
		in.pending = nil
	}
	return n
}

// history is the line editor's input history: no blank lines, no
// immediate repeats, the last 500 entries (trimmed between messages, so
// that a message's lines can be collapsed into one entry).
type history struct{ entries []string }

func (h *history) Add(s string) {
	if strings.TrimSpace(s) == "" || (len(h.entries) > 0 && h.entries[len(h.entries)-1] == s) {
		return
	}
	h.entries = append(h.entries, s)
}

// collapse replaces the entries added since mark (the lines of one
// message) with the message, its line breaks as lineBreak, and returns
// the message.
func (h *history) collapse(mark int, msg string) string {
	h.entries = h.entries[:min(mark, len(h.entries))]
	h.Add(strings.ReplaceAll(msg, "\n", lineBreak))
	return msg
}

func (h *history) trim() {
	if n := len(h.entries) - 500; n > 0 {
		h.entries = h.entries[n:]
	}
}

func (h *history) Len() int { return len(h.entries) }

func (h *history) At(i int) string { return h.entries[len(h.entries)-1-i] }

// crlfWriter turns LF into CRLF, for writing to a terminal in raw mode.
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	if bytes.IndexByte(p, '\n') < 0 {
		return c.w.Write(p)
	}
	if _, err := c.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}
