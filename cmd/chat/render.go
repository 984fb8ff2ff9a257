package chat

import (
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/markdown"
	"github.com/forgehq/forge/internal/text"
	"golang.org/x/term"
)

// replyView shows a reply as it streams in.
type replyView interface {
	WriteString(string)
	// finish shows what is left and ends the reply's last line.
	finish()
}

// newReplyView picks how a reply is shown: raw text as it arrives when
// stdout is not a terminal (a script gets exactly the reply); on a
// terminal, markdown rendered a block at a time as each settles, with the
// words not yet settled (markdown.Stream.Pending) shown dimmed on one line
// below — so text appears as fast as it streams, nothing is redrawn but
// that one line, and the rendered conversation stays in the scrollback.
func newReplyView(ios *iostreams.IOStreams, out io.Writer) replyView {
	if !ios.IsStdoutTTY() {
		return &lineEnd{w: out}
	}
	v := &mdView{out: out, width: ios.TerminalWidth(), dim: ios.ColorScheme().Gray}
	// The terminal may have been resized since the session began.
	if f, ok := ios.Out.(*os.File); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			v.width = w
		}
	}
	v.md = markdown.NewStream(emitter{v}, markdown.Options{
		Width: v.width,
		Color: ios.ColorEnabled(),
		Dark:  darkBackground(ios.Getenv),
	})
	return v
}

// mdView renders a streamed reply as markdown on a terminal.
type mdView struct {
	out   io.Writer
	md    *markdown.Stream
	width int
	dim   func(string) iostreams.Styled
	shown bool // a preview line is on the screen
}

// emitter receives the renderer's output: it replaces the preview line.
type emitter struct{ v *mdView }

func (e emitter) Write(p []byte) (int, error) {
	e.v.clearPreview()
	return e.v.out.Write(p)
}

func (v *mdView) WriteString(s string) {
	v.md.Write([]byte(s))
	v.drawPreview(v.md.Pending())
}

func (v *mdView) finish() {
	v.md.Close()
	v.clearPreview()
}

// drawPreview shows the tail of the unsettled text on one line, dimmed,
// cut to the terminal's width so that it never wraps.
func (v *mdView) drawPreview(pending string) {
	line := strings.TrimSpace(text.OneLine(pending))
	if line == "" {
		v.clearPreview()
		return
	}
	if max := v.width - 2; ansi.StringWidth(line) > max {
		line = ansi.TruncateLeft(line, ansi.StringWidth(line)-max+1, "…")
	}
	io.WriteString(v.out, string("\r\x1b[K"+v.dim(line)))
	v.shown = true
}

func (v *mdView) clearPreview() {
	if v.shown {
		io.WriteString(v.out, "\r\x1b[K")
		v.shown = false
	}
}

// darkBackground guesses the terminal's background from COLORFGBG
// ("15;0": light text on dark), which many terminals set; without it,
// dark, the common case. forge never queries the terminal.
func darkBackground(getenv func(string) string) bool {
	v := getenv("COLORFGBG")
	if i := strings.LastIndexByte(v, ';'); i >= 0 {
		if bg, err := strconv.Atoi(v[i+1:]); err == nil {
			return bg < 7 || bg == 8
		}
	}
	return true
}
