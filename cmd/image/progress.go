package image

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/regclient"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// pushProgress shows a push on stderr: on a terminal, a live block with a
// bar per layer and a total line with the rate, redrawn at most ten times
// a second; piped, one line per layer as it finishes.
type pushProgress struct {
	w     io.Writer
	tty   bool
	cs    *iostreams.ColorScheme
	width int
	what  string

	mu     sync.Mutex
	rows   map[v1.Hash]*layerRow
	order  []v1.Hash
	start  time.Time
	drawn  int // lines of the last drawing
	lastAt time.Time
}

type layerRow struct {
	size, sent int64
	state      regclient.LayerState
	reported   bool
}

func newPushProgress(ios *iostreams.IOStreams, what string) *pushProgress {
	return &pushProgress{
		w: ios.ErrOut, tty: ios.IsStderrTTY(), cs: ios.ErrColorScheme(), width: ios.TerminalWidth(),
		what: what, rows: map[v1.Hash]*layerRow{}, start: time.Now(),
	}
}

// event takes a layer event; it is called from several goroutines.
func (p *pushProgress) event(ev regclient.LayerEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.rows[ev.Digest]
	if r == nil {
		r = &layerRow{size: ev.Size}
		p.rows[ev.Digest] = r
		p.order = append(p.order, ev.Digest)
	}
	r.state, r.sent = ev.State, ev.Sent
	if ev.State == regclient.LayerPushed || ev.State == regclient.LayerExists {
		r.sent = r.size
	}
	if !p.tty {
		if (ev.State == regclient.LayerPushed || ev.State == regclient.LayerExists) && !r.reported {
			r.reported = true
			if ev.State == regclient.LayerPushed {
				fmt.Fprintf(p.w, "%s: pushed %s\n", ev.Digest, text.Bytes(r.size))
			} else {
				fmt.Fprintf(p.w, "%s: exists\n", ev.Digest)
			}
		}
		return
	}
	if time.Since(p.lastAt) >= 100*time.Millisecond || ev.State == regclient.LayerPushed || ev.State == regclient.LayerExists {
		p.drawLocked()
	}
}

// finish draws the final state.
func (p *pushProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && len(p.order) > 0 {
		p.drawLocked()
	}
}

func (p *pushProgress) drawLocked() {
	p.lastAt = time.Now()
	var b strings.Builder
	if p.drawn > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", p.drawn)
	}
	var total, sent int64
	for _, d := range p.order {
		r := p.rows[d]
		total += r.size
		if r.state == regclient.LayerPushed || r.state == regclient.LayerUploading {
			sent += r.sent
		}
		b.WriteString("\x1b[2K")
		b.WriteString(p.rowLine(d, r))
		b.WriteByte('\n')
	}
	elapsed := time.Since(p.start).Seconds()
	rate := ""
	if elapsed > 0.2 && sent > 0 {
		rate = fmt.Sprintf(", %s/s", text.Bytes(int64(float64(sent)/elapsed)))
	}
	tail := fmt.Sprintf(": %s sent%s", text.Bytes(sent), rate)
	what := p.what
	// Lines must not wrap, or moving the cursor up would miss them.
	if room := p.width - 1 - len("Pushing ") - len(tail); room < len(what) {
		what = "…" + what[max(0, len(what)-room+1):]
	}
	fmt.Fprintf(&b, "\x1b[2K%s %s%s\n", p.cs.Bold("Pushing"), what, tail)
	p.drawn = len(p.order) + 1
	io.WriteString(p.w, b.String())
}

func (p *pushProgress) rowLine(d v1.Hash, r *layerRow) string {
	// The line is 55 columns without its bar; the bar takes up to 24 of
	// what the terminal has left, and goes on a narrow one.
	barWidth := min(24, p.width-1-55-2)
	if barWidth < 4 {
		return fmt.Sprintf("  %s  %9s / %-9s  %s", text.ShortDigest(d.String()), text.Bytes(r.sent), text.Bytes(r.size), p.stateWord(r.state))
	}
	fill := 0
	if r.size > 0 {
		fill = int(float64(barWidth) * float64(r.sent) / float64(r.size))
	}
	fill = min(max(fill, 0), barWidth)
	bar := strings.Repeat("█", fill) + strings.Repeat("░", barWidth-fill)
	return fmt.Sprintf("  %s  %s  %9s / %-9s  %s", text.ShortDigest(d.String()), bar, text.Bytes(r.sent), text.Bytes(r.size), p.stateWord(r.state))
}

func (p *pushProgress) stateWord(s regclient.LayerState) string {
	switch s {
	case regclient.LayerPushed:
		return string(p.cs.Green(s.String()))
	case regclient.LayerExists:
		return string(p.cs.Gray(s.String()))
	}
	return s.String()
}

// byteProgress shows a pull or copy as one line on a terminal, redrawn
// at most ten times a second; piped, it shows nothing.
type byteProgress struct {
	w      io.Writer
	tty    bool
	width  int
	verb   string
	what   string
	mu     sync.Mutex
	start  time.Time
	lastAt time.Time
	shown  bool
}

func newByteProgress(ios *iostreams.IOStreams, verb, what string) *byteProgress {
	return &byteProgress{w: ios.ErrOut, tty: ios.IsStderrTTY(), width: ios.TerminalWidth(), verb: verb, what: what, start: time.Now()}
}

func (p *byteProgress) update(done, total int64) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.lastAt) < 100*time.Millisecond && done < total {
		return
	}
	p.lastAt = time.Now()
	rate := ""
	if s := time.Since(p.start).Seconds(); s > 0.2 {
		rate = fmt.Sprintf(", %s/s", text.Bytes(int64(float64(done)/s)))
	}
	of := ""
	if total > 0 {
		of = " / " + text.Bytes(total)
	}
	tail := fmt.Sprintf(": %s%s%s", text.Bytes(done), of, rate)
	what := p.what
	// A wrapped line could not be rewritten in place.
	if room := p.width - 2 - len(p.verb) - len(tail); room < len(what) {
		what = "…" + what[max(0, len(what)-room+1):]
	}
	fmt.Fprintf(p.w, "\r\x1b[2K%s %s%s", p.verb, what, tail)
	p.shown = true
}

// finish ends the progress line.
func (p *byteProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		io.WriteString(p.w, "\r\x1b[2K")
		p.shown = false
	}
}
