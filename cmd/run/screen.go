package run

import (
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/internal/iostreams"
	"golang.org/x/term"
)

// screen redraws a block of lines in place on a terminal, as `run watch`
// does. It draws on the alternate screen, so the terminal's scrollback is
// left as it was, and each frame goes out in one write that moves the
// cursor home, overwrites every line, erases what is left of each line and
// everything below: no blank frame between two (no flicker), and nothing
// depends on how many lines the previous frame had, so a resize between
// frames cannot leave stale lines behind. Lines are cut to the terminal's
// width, measured again for every frame, so none wraps.
type screen struct {
	out    io.Writer
	ios    *iostreams.IOStreams
	active bool
}

// Escape sequences (ECMA-48 and xterm's private modes).
const (
	altScreenOn  = "\x1b[?1049h"
	altScreenOff = "\x1b[?1049l"
	cursorHide   = "\x1b[?25l"
	cursorShow   = "\x1b[?25h"
	cursorHome   = "\x1b[H"
	eraseLine    = "\x1b[K" // to the end of the line
	eraseBelow   = "\x1b[J" // from the cursor to the end of the screen
	// Synchronized output (DEC mode 2026): the terminal shows the frame
	// once it is complete. Terminals without it ignore the sequence.
	syncBegin = "\x1b[?2026h"
	syncEnd   = "\x1b[?2026l"
)

func newScreen(ios *iostreams.IOStreams) *screen { return &screen{out: ios.Out, ios: ios} }

// enter switches to the alternate screen and hides the cursor.
func (s *screen) enter() {
	if !s.active {
		s.active = true
		io.WriteString(s.out, altScreenOn+cursorHide)
	}
}

// leave restores the main screen and the cursor; it is safe to call more
// than once, and is deferred so that an error or Ctrl-C restores them too.
func (s *screen) leave() {
	if s.active {
		s.active = false
		io.WriteString(s.out, cursorShow+altScreenOff)
	}
}

// draw replaces the screen's content with lines.
func (s *screen) draw(lines []iostreams.Styled) {
	width, height := s.size()
	if height > 0 && len(lines) > height {
		lines = append(lines[:height-1:height-1], "…")
	}
	var b strings.Builder
	b.WriteString(syncBegin + cursorHome)
	for i, line := range lines {
		if i > 0 {
			b.WriteString("\r\n")
		}
		l := string(line)
		if width > 0 && ansi.StringWidth(l) > width {
			l = ansi.Truncate(l, width, "…")
		}
		b.WriteString(l + eraseLine)
	}
	b.WriteString(eraseBelow + syncEnd)
	io.WriteString(s.out, b.String())
}

// size is the terminal's current width and height; the height is 0 when
// stdout is not a real terminal (FORGE_FORCE_TTY), and the width then
// comes from FORGE_FORCE_TTY, COLUMNS or 80.
func (s *screen) size() (width, height int) {
	if f, ok := s.out.(*os.File); ok {
		if w, h, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w, h
		}
	}
	return s.ios.TerminalWidth(), 0
}
