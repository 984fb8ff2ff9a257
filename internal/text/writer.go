package text

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// Writer sanitizes a stream on its way to a terminal (the output of
// `forge api`, jq results) as Sanitize would the whole of it: a character
// split between two writes is held back until its end arrives, and so is a
// final carriage return until it is known whether a newline follows. Flush
// writes what is held at the end of the stream.
type Writer struct {
	w    io.Writer
	tail []byte
}

// NewWriter returns a Writer that writes sanitized text to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write sanitizes p; it reports all of p written unless w fails.
func (t *Writer) Write(p []byte) (int, error) {
	buf := append(t.tail, p...)
	cut := len(buf) - heldBack(buf)
	t.tail = append([]byte(nil), buf[cut:]...)
	if cut == 0 {
		return len(p), nil
	}
	if _, err := io.WriteString(t.w, Sanitize(string(buf[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held back, as the end of the stream.
func (t *Writer) Flush() error {
	if len(t.tail) == 0 {
		return nil
	}
	s := Sanitize(string(t.tail))
	t.tail = nil
	_, err := io.WriteString(t.w, s)
	return err
}

// heldBack is how many bytes at the end of b cannot be sanitized before
// more arrive: the start of an unfinished UTF-8 sequence, or a CR.
func heldBack(b []byte) int {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return 1
	}
	for k := 1; k <= utf8.UTFMax-1 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-k:]) {
				return 0
			}
			return k
		}
	}
	return 0
}

// maxLogLine is how much of a line LogWriter holds before it writes it
// anyway: a server that never ends a line cannot make forge hold the whole
// log in memory.
const maxLogLine = 64 << 10

// LogWriter shows a CI log on a terminal: each line goes through LogLine
// (colours kept, every other control shown) once it is whole, or once it
// reaches 64 KiB. Flush writes an unfinished last line.
type LogWriter struct {
	w    io.Writer
	line []byte
}

// NewLogWriter returns a LogWriter that writes to w.
func NewLogWriter(w io.Writer) *LogWriter { return &LogWriter{w: w} }

// Write takes the next bytes of the log.
func (l *LogWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.line = append(l.line, p...)
			if len(l.line) >= maxLogLine {
				return n, l.Flush()
			}
			return n, nil
		}
		l.line = append(l.line, p[:i]...)
		p = p[i+1:]
		if err := l.Flush(); err != nil {
			return 0, err
		}
		if _, err := io.WriteString(l.w, "\n"); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// Flush writes what is held of the current line.
func (l *LogWriter) Flush() error {
	if len(l.line) == 0 {
		return nil
	}
	s := LogLine(string(l.line))
	l.line = l.line[:0]
	_, err := io.WriteString(l.w, s)
	return err
}
