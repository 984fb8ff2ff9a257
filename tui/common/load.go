package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/internal/text"
)

// Load tracks a component's loading of its data: a generation per request,
// so the answer to an older request (the user pressed refresh twice, or
// changed the filter meanwhile) is dropped.
type Load struct {
	Gen  int
	Busy bool
	Err  error
	Done bool // loaded successfully at least once
}

// Start begins a request and returns its generation.
func (l *Load) Start() int {
	l.Gen++
	l.Busy = true
	return l.Gen
}

// Finish records the answer to request gen; false means it is stale and
// must be dropped.
func (l *Load) Finish(gen int, err error) bool {
	if gen != l.Gen {
		return false
	}
	l.Busy, l.Err = false, err
	if err == nil {
		l.Done = true
	}
	return true
}

// Fail records an error found before any request was sent (no client).
func (l *Load) Fail(err error) {
	l.Gen++
	l.Busy, l.Err = false, err
}

// Placeholder draws what a component shows before its data is in: the
// spinner and what is loading, or the error and how to retry.
func (c *Context) Placeholder(l *Load, what string, width, height int) string {
	var line string
	switch {
	case l.Busy:
		// what may name the server's records (a repository).
		line = c.Styles.Accent.Render(c.Spinner) + " Loading " + text.OneLine(what) + "…"
	case l.Err != nil:
		// Wrapped, not cut: the fix is often at the end of the message.
		line = ansi.Wrap(c.Styles.Error.Render("✗ ")+text.ErrorText(l.Err), max(width, 10), " ") + "\n" + c.Styles.Dim.Render("  r retries")
	}
	return Pad(line, width, height)
}

// Pad makes text exactly height lines of width cells, cutting what does
// not fit: a component's View fills its area, so nothing of the last frame
// shows through and nothing wraps.
func Pad(text string, width, height int) string {
	if height <= 0 {
		return ""
	}
	lines := strings.Split(text, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		lines[i] = Fit(l, width)
	}
	for len(lines) < height {
		lines = append(lines, strings.Repeat(" ", max(width, 0)))
	}
	return strings.Join(lines, "\n")
}
