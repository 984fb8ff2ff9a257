package markdown

import (
	"bytes"
	"io"
	"maps"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/text"
)

// Stream renders markdown arriving in arbitrary chunks (a streamed chat
// reply): each block — a paragraph's lines as they settle, a list item, a
// heading, a code block's lines, a finished table — is written to the
// underlying writer as soon as it is complete, and never re-rendered; Close
// flushes the rest. What a Stream writes in total is exactly what Render
// returns for the same text, however it was split.
type Stream struct {
	w      io.Writer
	r      *renderer
	buf    []byte // the line still arriving
	live   bool   // buf's line is committed as paragraph text
	off    int    // where that text starts in the line
	done   int    // bytes of buf's line already in that text
	tabs   bool   // the line has a tab
	err    error
	closed bool
}

// NewStream renders markdown arriving in arbitrary chunks (a streamed chat
// reply): each block (paragraph line, list item, heading, finished code
// fence, finished table) is written to w as soon as it is complete, and
// never re-rendered; Close flushes the rest.
func NewStream(w io.Writer, o Options) *Stream {
	return &Stream{w: w, r: newRenderer(o)}
}

// Write consumes a chunk of markdown and writes whatever it completes. It
// returns len(p) unless the underlying writer fails (that error is then
// returned by every later call), or io.ErrClosedPipe after Close.
func (s *Stream) Write(p []byte) (int, error) {
	if s.closed {
		return 0, io.ErrClosedPipe
	}
	if s.err != nil {
		return 0, s.err
	}
	// Only the new bytes (and a "\r" left waiting for a "\n") can end a line.
	start, from := 0, max(0, len(s.buf)-1)
	s.buf = append(s.buf, p...)
	for {
		i := indexLineEnd(s.buf[from:])
		if i < 0 {
			break
		}
		i += from
		if s.buf[i] == '\r' && i+1 == len(s.buf) {
			break // "\r\n" may be split across writes
		}
		s.lineDone(string(s.buf[start:i]))
		start = i + 1
		if s.buf[i] == '\r' && s.buf[start] == '\n' {
			start++
		}
		from = start
	}
	if start > 0 {
		s.buf = s.buf[:copy(s.buf, s.buf[start:])]
		s.done = 0
	}
	s.partial()
	s.r.peek()
	s.flush()
	if s.err != nil {
		return 0, s.err
	}
	return len(p), nil
}

// Close renders what remains and writes it.
func (s *Stream) Close() error {
	if s.closed {
		return s.err
	}
	s.closed = true
	if len(s.buf) > 0 {
		line := s.buf
		if line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		s.lineDone(string(line))
		s.buf = s.buf[:0]
	}
	s.r.finish()
	s.flush()
	return s.err
}

func indexLineEnd(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

func (s *Stream) lineDone(raw string) {
	line := cleanLine(raw)
	if s.live {
		s.live = false
		r := s.r
		r.para.lines[len(r.para.lines)-1] = line[s.off:]
		r.para.live = false
		return
	}
	s.r.line(line)
}

// partial looks at the line still arriving. Once what has arrived shows it
// is paragraph text (see safeStart), its structure is applied and its text
// grows with each write, so peek can show it before the line ends.
func (s *Stream) partial() {
	raw := s.buf
	if n := len(raw); n > 0 && raw[n-1] == '\r' {
		raw = raw[:n-1]
	}
	// Leave out a character split across writes.
	for k := 1; k <= 3 && k <= len(raw); k++ {
		if c := raw[len(raw)-k]; c >= 0xC0 {
			if !utf8.FullRune(raw[len(raw)-k:]) {
				raw = raw[:len(raw)-k]
			}
			break
		} else if c < 0x80 {
			break
		}
	}
	if len(raw) <= s.done {
		return
	}
	r := s.r
	if s.live {
		last := &r.para.lines[len(r.para.lines)-1]
		if s.tabs || bytes.IndexByte(raw[s.done:], '\t') >= 0 {
			// A tab's expansion depends on its column: redo the line.
			s.tabs = true
			*last = cleanLine(string(raw))[s.off:]
		} else {
			*last += text.Sanitize(string(raw[s.done:]))
		}
		s.done = len(raw)
		return
	}
	line := cleanLine(string(raw))
	pl := r.classify(line)
	if (pl.action == actPara || pl.action == actLazy) && safeStart(line[pl.pos:]) {
		r.apply(pl, line, true)
		s.live, s.off, s.done = true, pl.pos, len(raw)
		s.tabs = bytes.IndexByte(raw, '\t') >= 0
	}
}

func (s *Stream) flush() {
	out := s.r.out
	s.r.out = out[:0]
	if len(out) > 0 && s.err == nil {
		_, s.err = s.w.Write(out)
	}
}

// Pending returns what has arrived but is not written yet, as plain text
// on one line: the words of the open paragraph's unwritten lines, the rows
// of an unfinished table, the line still arriving. A terminal chat can show
// it (dimmed, on a line it redraws) until the stream writes it for good.
func (s *Stream) Pending() string {
	r := s.r
	var parts []string
	switch r.leaf {
	case leafPara:
		// The paragraph's own definitions count for the preview, but are
		// recorded only when it ends: the last may still be arriving.
		saved, cloned := r.ip.refs, false
		text := strings.TrimRight(splitDefs(r.paraText(), func(label, dest string) {
			if !cloned {
				r.ip.refs, cloned = maps.Clone(saved), true
			}
			r.define(label, dest)
		}), " ")
		lines := r.wrap(r.ip.parse(text, 0).segs, r.avail())
		r.ip.refs = saved
		if r.para.emitted == 0 {
			// The markers of items whose first line is still arriving.
			for _, c := range r.stack {
				if c.kind == kItem && c.pending {
					for _, sg := range c.marker {
						parts = append(parts, sg.text)
					}
				}
			}
		}
		for _, l := range lines[min(r.para.emitted, len(lines)):] {
			for _, sg := range l {
				parts = append(parts, sg.text)
			}
			parts = append(parts, " ")
		}
	case leafTable:
		for _, row := range r.tbl.rows {
			parts = append(parts, strings.Join(row, " │ "), " ")
		}
	}
	if !s.live && len(s.buf) > 0 {
		parts = append(parts, s.arriving())
	}
	return strings.Join(strings.Fields(strings.Join(parts, "")), " ")
}

// arriving is the line still arriving as the preview shows it: a list
// item's marker as its bullet or number, a heading without its #s, a
// quote without its >, a fence or a rule left out — never the raw
// markers that the rendering would replace a moment later.
func (s *Stream) arriving() string {
	line := cleanLine(string(s.buf))
	pl := s.r.classify(line)
	var b strings.Builder
	for _, op := range pl.opens {
		switch {
		case op.kind != kItem:
		case op.blank && !strings.HasSuffix(line, " "):
			// "-" alone may still become "-x" or "---".
		case op.ordered:
			b.WriteString(strconv.Itoa(op.start) + string(op.ch) + " ")
		default:
			b.WriteString(bullets[0] + " ")
		}
	}
	rest := line[min(pl.pos, len(line)):]
	switch pl.action {
	case actATX:
		rest = strings.TrimLeft(rest, "#")
	case actFenceOpen, actHR, actSetext, actTableDelim:
		rest = ""
	}
	b.WriteString(rest)
	return b.String()
}
