package components

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/tui/common"
)

// Pager shows lines in a window that scrolls by keys and mouse wheel. It
// draws only the lines in view, so its View costs the same for a
// 10,000-line log as for a 100-line one; appending is amortised constant
// time. With Follow it stays at the bottom as lines arrive, until the user
// scrolls up; the end key follows again.
type Pager struct {
	ctx    *common.Context
	lines  []string
	tail   string // a last line still arriving (a log's unfinished line)
	offset int
	xoff   int
	width  int
	height int

	// Follow keeps the last line in view as lines are appended.
	Follow bool
	// Numbers draws line numbers in a gutter.
	Numbers bool
	// Sideways lets left and right scroll long lines; otherwise they are
	// cut at the width.
	Sideways bool
	// Decorate, when set, restyles line i as it is drawn (a search
	// highlights its matches); only lines in view pass through it, on
	// the UI goroutine.
	Decorate func(i int, line string) string
}

// NewPager returns an empty pager.
func NewPager(ctx *common.Context) *Pager { return &Pager{ctx: ctx} }

// SetLines replaces the lines, keeping the scroll position when it still
// fits.
func (p *Pager) SetLines(lines []string) {
	p.lines = lines
	p.tail = ""
	p.settle()
}

// Append adds lines at the end.
func (p *Pager) Append(lines ...string) {
	p.lines = append(p.lines, lines...)
	p.settle()
}

// SetTail sets the unfinished last line ("" for none).
func (p *Pager) SetTail(s string) {
	p.tail = s
	p.settle()
}

// Len is the number of lines, the unfinished one included.
func (p *Pager) Len() int {
	if p.tail != "" {
		return len(p.lines) + 1
	}
	return len(p.lines)
}

// Lines returns the lines (not the unfinished one).
func (p *Pager) Lines() []string { return p.lines }

// Line is line i, the unfinished one included.
func (p *Pager) Line(i int) string {
	if i < len(p.lines) {
		return p.lines[i]
	}
	return p.tail
}

// Height is the number of lines in view.
func (p *Pager) Height() int { return p.height }

// SetSize gives the pager its cells.
func (p *Pager) SetSize(width, height int) {
	p.width, p.height = width, height
	p.settle()
}

// Offset is the first line drawn.
func (p *Pager) Offset() int { return p.offset }

// AtBottom reports whether the last line is in view.
func (p *Pager) AtBottom() bool { return p.offset >= p.maxOffset() }

func (p *Pager) maxOffset() int { return max(p.Len()-p.height, 0) }

func (p *Pager) settle() {
	if p.Follow {
		p.offset = p.maxOffset()
	}
	p.offset = max(min(p.offset, p.maxOffset()), 0)
}

// ScrollTo puts line i at the top.
func (p *Pager) ScrollTo(i int) {
	p.offset = i
	p.settle()
}

// Scroll moves by n lines; scrolling up stops following.
func (p *Pager) Scroll(n int) {
	p.offset += n
	if n < 0 {
		p.Follow = false
	}
	p.offset = max(min(p.offset, p.maxOffset()), 0)
}

// Update handles scrolling keys and the mouse wheel; it reports whether it
// used the message.
func (p *Pager) Update(msg tea.Msg) bool {
	k := p.ctx.Keys
	page := max(p.height-1, 1)
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			p.Scroll(-1)
		case key.Matches(msg, k.Down):
			p.Scroll(1)
		case key.Matches(msg, k.PageUp):
			p.Scroll(-page)
		case key.Matches(msg, k.PageDown):
			p.Scroll(page)
		case key.Matches(msg, k.Top):
			p.Follow = false
			p.offset = 0
		case key.Matches(msg, k.Bottom):
			p.offset = p.maxOffset()
			p.Follow = true
		case p.Sideways && key.Matches(msg, k.Left):
			p.xoff = max(p.xoff-8, 0)
		case p.Sideways && key.Matches(msg, k.Right):
			p.xoff += 8
		default:
			return false
		}
		return true
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			p.Scroll(-3)
		case tea.MouseWheelDown:
			p.Scroll(3)
		case tea.MouseWheelLeft:
			if p.Sideways {
				p.xoff = max(p.xoff-8, 0)
			}
		case tea.MouseWheelRight:
			if p.Sideways {
				p.xoff += 8
			}
		default:
			return false
		}
		return true
	}
	return false
}

// View draws the lines in view, each cut to the width (from the sideways
// offset), padded to the height.
func (p *Pager) View() string {
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	st := p.ctx.Styles
	gutter := 0
	if p.Numbers {
		gutter = len(strconv.Itoa(p.Len())) + 1
	}
	w := max(p.width-gutter, 1)
	var b strings.Builder
	n := p.Len()
	for i := p.offset; i < p.offset+p.height; i++ {
		if i > p.offset {
			b.WriteByte('\n')
		}
		if i >= n {
			continue
		}
		line := p.Line(i)
		if p.Decorate != nil {
			line = p.Decorate(i, line)
		}
		if p.Numbers {
			num := strconv.Itoa(i + 1)
			b.WriteString(st.Gutter.Render(strings.Repeat(" ", gutter-1-len(num)) + num))
			b.WriteByte(' ')
		}
		if p.xoff > 0 {
			line = ansi.Cut(line, p.xoff, p.xoff+w)
		} else if ansi.StringWidth(line) > w {
			line = ansi.Truncate(line, w, "")
		}
		b.WriteString(line)
		if strings.IndexByte(line, 0x1b) >= 0 {
			// A log's colour must not run into the next line.
			b.WriteString("\x1b[m")
		}
	}
	return b.String()
}

// Position says where the view is: "12–31 of 10000", for a header.
func (p *Pager) Position() string {
	n := p.Len()
	if n == 0 {
		return "empty"
	}
	last := min(p.offset+p.height, n)
	return strconv.Itoa(p.offset+1) + "–" + strconv.Itoa(last) + " of " + strconv.Itoa(n)
}

// KeyHelp lists the pager's keys.
func (p *Pager) KeyHelp() []key.Binding {
	k := p.ctx.Keys
	keys := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	if p.Sideways {
		keys = append(keys, k.Left, k.Right)
	}
	return keys
}
