package chat

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/r3labs/sse/v2"
)

// MaxEventSize bounds one Server-Sent Event. r3labs's reader is told this
// instead of its 64 KiB default, so a long reply in one event still fits.
const MaxEventSize = 16 << 20

// event is one dispatched Server-Sent Event. Name and Data point into the
// reader's buffers and are valid until the next call to next.
type event struct {
	Name []byte // empty for the default kind, "message"
	Data []byte
}

// eventReader reads Server-Sent Events. github.com/r3labs/sse/v2's
// EventStreamReader does the framing: it cuts the stream at blank lines
// (LF, CR or CRLF endings, across reads of any size). The fields are parsed
// here, because where that reader stops short of the SSE specification
// (html.spec.whatwg.org, "Parsing an event stream"), this type makes up for
// it:
//
//   - At the end of the stream it returns the unterminated rest as one
//     last event; the specification discards it. eofReader tells the two
//     apart, so a stream cut in the middle of an event loses that event
//     instead of delivering half of it.
//   - It does not see a blank line written as LF followed by CR; lines are
//     split here on CR, LF and CRLF, and a blank line inside what it returns
//     dispatches an event too.
//   - It reports a read that failed with context.Canceled as a clean end
//     of the stream (io.EOF); the read's own error is kept and returned.
//   - It leaves field parsing (comments, "data" lines joined with LF, one
//     optional space after the colon, a leading byte order mark) to the
//     caller, which this type does.
//   - It is slow when it holds many events at once (see eofReader).
//
// Parsing allocates nothing per event once the buffers have grown.
type eventReader struct {
	src     *eofReader
	r       *sse.EventStreamReader
	max     int
	started bool

	tok     []byte // the rest of the block being parsed
	inBlock bool
	lfOnly  bool // tok has no CR: lines end at LF only
	lastEOF bool // the block came after the stream ended: unterminated

	name, data []byte // fields of the event being built, in tok or buf
	hasData    bool
	ownData    bool // data was copied into buf (more than one data line)
	buf        []byte
}

func newEventReader(r io.Reader) *eventReader { return newEventReaderSize(r, MaxEventSize) }

func newEventReaderSize(r io.Reader, max int) *eventReader {
	src := &eofReader{r: r}
	return &eventReader{src: src, max: max, r: sse.NewEventStreamReader(src, max)}
}

// errEventTooLarge is an event over the reader's maximum size.
type errEventTooLarge int

func (e errEventTooLarge) Error() string {
	return fmt.Sprintf("an event is larger than %d MiB", int(e)>>20)
}

// next returns the next event, io.EOF at the end of the stream, or the
// error that ended the read.
func (er *eventReader) next() (event, error) {
	for {
		if !er.inBlock {
			tok, err := er.r.ReadEvent()
			if err != nil {
				if errors.Is(err, bufio.ErrTooLong) {
					return event{}, errEventTooLarge(er.max)
				}
				if err == io.EOF && er.src.err != nil && er.src.err != io.EOF {
					// The reader reports a canceled read as EOF.
					err = er.src.err
				}
				return event{}, err
			}
			if !er.started {
				er.started = true
				tok = bytes.TrimPrefix(tok, []byte("\xEF\xBB\xBF"))
			}
			er.tok, er.inBlock, er.lastEOF = tok, true, er.src.ended
			er.lfOnly = bytes.IndexByte(tok, '\r') < 0
		}
		for len(er.tok) > 0 {
			var line []byte
			if er.lfOnly {
				line, er.tok = cutLF(er.tok)
			} else {
				line, er.tok = cutLine(er.tok)
			}
			if len(line) == 0 {
				if ev, ok := er.dispatch(); ok {
					return ev, nil
				}
				continue
			}
			er.field(line)
		}
		er.inBlock = false
		if er.lastEOF {
			er.reset() // an unterminated event at the end is dropped
			continue
		}
		if ev, ok := er.dispatch(); ok {
			return ev, nil
		}
	}
}

// cutLF splits off the first line of a block without CR.
func cutLF(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// cutLine splits off the first line, ended by CRLF, LF or CR.
func cutLine(b []byte) (line, rest []byte) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		i = len(b)
	}
	if j := bytes.IndexByte(b[:i], '\r'); j >= 0 {
		if j+1 < len(b) && b[j+1] == '\n' {
			return b[:j], b[j+2:]
		}
		return b[:j], b[j+1:]
	}
	if i == len(b) {
		return b, nil
	}
	return b[:i], b[i+1:]
}

func (er *eventReader) field(line []byte) {
	if line[0] == ':' {
		return // a comment
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "event":
		er.name = value
	case "data":
		switch {
		case !er.hasData:
			er.data, er.hasData = value, true
		case !er.ownData:
			er.buf = append(append(append(er.buf[:0], er.data...), '\n'), value...)
			er.data, er.ownData = er.buf, true
		default:
			er.buf = append(append(er.buf, '\n'), value...)
			er.data = er.buf
		}
	}
	// "id" and "retry" only matter for reconnecting, which a chat POST
	// never does; other fields are ignored, as the specification says.
}

// dispatch returns the event built so far, if any, and starts a new one.
// Unlike a browser, it also dispatches an event that has a name but no
// data, so "event: done" alone ends a stream.
func (er *eventReader) dispatch() (event, bool) {
	if !er.hasData && len(er.name) == 0 {
		return event{}, false
	}
	ev := event{Name: er.name, Data: er.data}
	er.reset()
	return ev, true
}

func (er *eventReader) reset() {
	er.name, er.data = nil, nil
	er.hasData, er.ownData = false, false
}

// eofReader sits between the response body and EventStreamReader. It
// does two things:
//
// It never returns data together with an error (io.EOF or a broken
// connection), and records when it has returned one. bufio.Scanner only
// reads when its buffer holds no complete block, so a block it returns
// after that read is the unterminated end of the stream.
//
// It keeps EventStreamReader fast. On every read that reader searches all
// it holds for five kinds of blank line, so its cost grows with the bytes
// it holds times the events among them: fed 4 KiB at a time it parses a
// stream of short events at about 12 MB/s. eofReader reads the body in
// large chunks but hands them on one event at a time, cut after the blank
// line of the stream's line-ending style (taken from its first line). The
// cut is only a hint: where it is wrong (a stream that mixes endings) the
// reader still frames correctly, just with more bytes per read.
type eofReader struct {
	r        io.Reader
	buf      []byte
	off, end int    // buf[off:end] is read but not handed on
	sep      []byte // the stream's blank line, once its first line ended
	err      error  // the body's error, held back while data remains
	ended    bool   // err has been returned
}

const chunkSize = 32 << 10

func (e *eofReader) Read(p []byte) (int, error) {
	if e.off == e.end {
		if e.err != nil {
			e.ended = true
			return 0, e.err
		}
		if e.buf == nil {
			e.buf = make([]byte, chunkSize)
		}
		n, err := e.r.Read(e.buf)
		e.off, e.end, e.err = 0, n, err
		if n == 0 {
			if err != nil {
				e.ended = true
			}
			return 0, err
		}
	}
	data := e.buf[e.off:e.end]
	if e.sep == nil {
		e.sep = blankLine(data)
	}
	if e.sep != nil {
		if i := bytes.Index(data, e.sep); i >= 0 {
			data = data[:i+len(e.sep)]
		}
	}
	n := copy(p, data)
	e.off += n
	return n, nil
}

// blankLine is the blank line in the line-ending style of data's first
// line, or nil when no line has ended yet.
func blankLine(data []byte) []byte {
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0:
		return nil
	case data[i] == '\n':
		return []byte("\n\n")
	case i+1 == len(data):
		return nil // CR or CRLF: not known yet
	case data[i+1] == '\n':
		return []byte("\r\n\r\n")
	}
	return []byte("\r\r")
}
