package chat

import (
	"bytes"
	"fmt"
	"io"
)

// MaxEventSize bounds one Server-Sent Event (its name and data, and any one
// line), so a long reply in one event still fits but a server cannot make
// forge buffer without limit.
const MaxEventSize = 16 << 20

// event is one dispatched Server-Sent Event. Name and Data point into the
// reader's buffers and are valid until the next call to next.
type event struct {
	Name []byte // empty for the default kind, "message"
	Data []byte
}

// eventReader reads Server-Sent Events as the SSE specification
// (html.spec.whatwg.org, "Parsing an event stream") says, in one pass over
// the bytes: each line is found with one search for its end and its field
// applied at once; a blank line dispatches the event.
//
// It replaced github.com/r3labs/sse/v2's EventStreamReader, the only parser
// that package exports, which cannot be part of one pass: it cuts the
// stream at blank lines with five searches of all it holds per event (so it
// had to be fed one event per read, found by a search of forge's), after
// which the lines were found again and its end-of-stream behaviour undone
// (it returns a cut last event; the specification discards it). One pass
// is about 1.7× as fast (bench/README.md). r3labs/sse stays as a test
// dependency, for what it does well: its server writes SSE its own way,
// and TestStreamFromR3labsServer has this reader read a reply from it.
//
// What it does, per the specification: lines end in LF, CR or CRLF (a CRLF
// split across reads is one ending); a leading byte order mark is skipped;
// comments (":") and fields other than "event" and "data" are ignored;
// "data" lines are joined with LF; one space after the colon is dropped;
// an event not ended by a blank line when the stream ends is discarded.
// Unlike a browser it also dispatches an event with a name but no data, so
// "event: done" alone ends a stream. Parsing allocates nothing per event
// once the buffers have grown.
type eventReader struct {
	r          io.Reader
	max        int    // most bytes an event keeps (see held), and longest line
	buf        []byte // buf[start:end] is read but not parsed
	start, end int
	seen       int   // buf[start:start+seen] holds no line end
	err        error // the read's error, returned once buf is parsed
	started    bool  // the byte order mark is dealt with
	skipLF     bool  // the last line ended in CR: a LF next is its end

	name, data []byte // fields of the event being built (owned copies)
	hasData    bool
}

func newEventReader(r io.Reader) *eventReader { return newEventReaderSize(r, MaxEventSize) }

func newEventReaderSize(r io.Reader, max int) *eventReader {
	return &eventReader{r: r, max: max}
}

// errEventTooLarge is an event over the reader's maximum size.
type errEventTooLarge int

func (e errEventTooLarge) Error() string {
	return fmt.Sprintf("an event is larger than %d MiB", int(e)>>20)
}

const chunkSize = 32 << 10

var bom = []byte("\xEF\xBB\xBF")

// next returns the next event, io.EOF at the end of the stream, or the
// error that ended the read.
func (er *eventReader) next() (event, error) {
	for {
		line, ok := er.line()
		if !ok {
			if er.held()+er.end-er.start > er.max {
				return event{}, errEventTooLarge(er.max)
			}
			if er.err != nil {
				return event{}, er.err // an unfinished event is dropped
			}
			er.fill()
			continue
		}
		if len(line) == 0 {
			if ev, ok := er.dispatch(); ok {
				return ev, nil
			}
			continue
		}
		er.field(line)
		if er.held() > er.max {
			return event{}, errEventTooLarge(er.max)
		}
	}
}

// line cuts the next whole line off the buffer; false when none is there
// yet (or the byte order mark cannot be told yet).
func (er *eventReader) line() ([]byte, bool) {
	b := er.buf[er.start:er.end]
	if er.skipLF && len(b) > 0 {
		er.skipLF = false
		if b[0] == '\n' {
			er.start++
			b = b[1:]
		}
	}
	if !er.started {
		if len(b) < len(bom) && bytes.HasPrefix(bom, b) && er.err == nil {
			return nil, false
		}
		er.started = true
		if bytes.HasPrefix(b, bom) {
			er.start += len(bom)
			b = b[len(bom):]
		}
	}
	// Only bytes not searched before are: a long line arriving in small
	// reads costs no more than one arriving at once.
	i := bytes.IndexByte(b[er.seen:], '\n')
	cut := len(b)
	if i >= 0 {
		i += er.seen
		cut = i
	}
	// A CR before the first LF (or in a line without one) ends the line.
	if j := bytes.IndexByte(b[er.seen:cut], '\r'); j >= 0 {
		j += er.seen
		er.start, er.seen, er.skipLF = er.start+j+1, 0, true
		return b[:j], true
	}
	if i < 0 {
		er.seen = len(b)
		return nil, false
	}
	er.start, er.seen = er.start+i+1, 0
	return b[:i], true
}

// fill reads more of the body, moving what is unparsed to the front of
// the buffer and growing it for a line longer than it holds.
func (er *eventReader) fill() {
	if er.buf == nil {
		er.buf = make([]byte, chunkSize)
	}
	// Moving the rest to the front only once half the buffer is parsed (or
	// it is full) keeps a body read in tiny pieces linear, as line does.
	if er.start > 0 && (er.end == len(er.buf) || er.start > len(er.buf)/2) {
		er.end = copy(er.buf, er.buf[er.start:er.end])
		er.start = 0
	}
	if er.end == len(er.buf) {
		// Only a line over half the buffer gets here, and next stops an
		// event over max before the buffer outgrows twice that.
		grown := make([]byte, 2*len(er.buf))
		copy(grown, er.buf)
		er.buf = grown
	}
	for range 100 {
		n, err := er.r.Read(er.buf[er.end:])
		er.end += n
		if err != nil {
			er.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	er.err = io.ErrNoProgress
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
		er.name = append(er.name[:0], value...)
	case "data":
		if er.hasData {
			er.data = append(er.data, '\n')
		}
		er.data = append(er.data, value...)
		er.hasData = true
	}
	// "id" and "retry" only matter for reconnecting, which a chat POST
	// never does; other fields are ignored, as the specification says.
}

// dispatch returns the event built so far, if any, and starts a new one.
func (er *eventReader) dispatch() (event, bool) {
	ev := event{Name: er.name, Data: er.data}
	ok := er.hasData || len(er.name) > 0
	er.reset()
	return ev, ok
}

// held is what the event being built keeps: max bounds it, so comments
// and ignored fields cost nothing however many there are.
func (er *eventReader) held() int { return len(er.name) + len(er.data) }

func (er *eventReader) reset() {
	er.name, er.data = er.name[:0], er.data[:0]
	er.hasData = false
}
