package components

import (
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// Search finds text in a pager's lines (a job's log, a diff, an issue),
// as less does: / types a query (the view jumps to the first match as it
// is typed), enter keeps it, n and N go to the next and previous line
// holding it from the page in view, wrapping around; the matches in view
// are highlighted, the current one in reverse video. It ignores case and
// looks at the text as shown (a log's colours stripped).
type Search struct {
	ctx    *common.Context
	pager  *Pager
	input  *Editor
	typing bool
	from   int // the top line when typing began: matches are looked for from there

	query   string // lower case; "" for no search
	hits    []int  // the lines holding query, among the first scanned
	scanned int
	cur     int // index in hits of the current match, -1 for none
	at      int // the pager's top line when the current match was shown
}

// NewSearch returns the search of pager's lines; what names them in the
// query's placeholder ("the log").
func NewSearch(ctx *common.Context, pager *Pager, what string) *Search {
	s := &Search{ctx: ctx, pager: pager, input: NewEditor(ctx, false), cur: -1}
	s.input.Prompt = "/"
	s.input.Placeholder = "search " + what
	pager.Decorate = s.decorate
	return s
}

// Active reports whether the search line is shown; Typing whether the
// query is being typed (it takes every key).
func (s *Search) Active() bool { return s.active() }
func (s *Search) Typing() bool { return s.typing }

// Key handles a page's key if it is the search's: any while the query
// is typed, / to start one, and with one kept n, N and esc (which clears
// it). false: the key is the page's.
func (s *Search) Key(msg tea.KeyPressMsg) bool {
	k := s.ctx.Keys
	switch {
	case s.typing:
		s.key(msg)
	case key.Matches(msg, k.Filter):
		s.start()
	case s.query != "" && msg.String() == "n":
		s.next(1)
	case s.query != "" && msg.String() == "N":
		s.next(-1)
	case s.query != "" && key.Matches(msg, k.Back):
		s.clear()
	default:
		return false
	}
	return true
}

// Paste types pasted text into the query while it is typed; false when
// it is not.
func (s *Search) Paste(msg tea.PasteMsg) bool {
	if !s.typing {
		return false
	}
	s.paste(msg)
	return true
}

// Scan looks for the query in lines appended since (a log's new lines).
func (s *Search) Scan() { s.scan() }

// Rescan looks for the query again in lines replaced (a page drawn
// again at another width): the matches are lines of the old ones.
func (s *Search) Rescan() {
	if s.query == "" {
		return
	}
	s.hits, s.scanned, s.cur = s.hits[:0], 0, -1
	s.scan()
}

// View is the search line.
func (s *Search) View(width int) string { return s.view(width) }

// ShortHelp is the search's keys while it is shown (nil when not): the
// page's give way to them.
func (s *Search) ShortHelp() []key.Binding {
	switch {
	case s.typing:
		return []key.Binding{common.Binding("enter", "keep the search", "enter"), common.Binding("esc", "cancel", "esc")}
	case s.query != "":
		return []key.Binding{KeyNext(), common.Binding("esc", "clear the search", "esc")}
	}
	return nil
}

// KeySearch and KeyNext are the search's keys, for the help.
func KeySearch() key.Binding { return common.Binding("/", "search", "/") }
func KeyNext() key.Binding   { return common.Binding("n/N", "next/previous match", "n", "N") }

// active reports whether the search line is shown.
func (s *Search) active() bool { return s.typing || s.query != "" }

// start begins typing a query.
func (s *Search) start() {
	s.typing = true
	s.from = s.pager.Offset()
	s.input.SetValue("")
	s.input.Focus()
}

// clear ends the search.
func (s *Search) clear() {
	s.typing = false
	s.input.Blur()
	s.set("")
}

// key handles a key while the query is typed.
func (s *Search) key(msg tea.KeyPressMsg) {
	switch msg.String() {
	case "enter":
		s.typing = false
		s.input.Blur()
		if s.query == "" {
			s.clear()
		}
	case "esc":
		s.clear()
	default:
		s.input.Update(msg)
		s.set(s.input.Value())
		s.first()
	}
}

// paste types pasted text into the query.
func (s *Search) paste(msg tea.PasteMsg) {
	s.input.Update(msg)
	s.set(s.input.Value())
	s.first()
}

// set makes q the query and finds the lines that hold it. A query that
// grows as it is typed is looked for only in the lines that held the
// shorter one.
func (s *Search) set(q string) {
	q = strings.ToLower(text.OneLine(q))
	if s.query != "" && strings.HasPrefix(q, s.query) {
		s.query = q
		kept := s.hits[:0]
		for _, i := range s.hits {
			if s.holds(s.pager.Line(i)) {
				kept = append(kept, i)
			}
		}
		s.hits, s.cur = kept, -1
		return
	}
	s.query = q
	s.hits, s.scanned, s.cur = s.hits[:0], 0, -1
	s.scan()
}

// scan looks at the lines that arrived since the last scan.
func (s *Search) scan() {
	if s.query == "" {
		return
	}
	lines := s.pager.Lines()
	for i := s.scanned; i < len(lines); i++ {
		if s.holds(lines[i]) {
			s.hits = append(s.hits, i)
		}
	}
	s.scanned = len(lines)
}

// holds reports whether line holds the query, ignoring case; without
// allocating for the usual log line (no escapes, an ASCII query).
func (s *Search) holds(line string) bool {
	if strings.IndexByte(line, 0x1b) >= 0 {
		line = ansi.Strip(line)
	}
	q := s.query
	for i := 0; i < len(q); i++ {
		if q[i] >= 0x80 {
			return strings.Contains(strings.ToLower(line), q)
		}
	}
	for i := 0; i+len(q) <= len(line); i++ {
		if lowerASCII(line[i]) == q[0] && strings.EqualFold(line[i:i+len(q)], q) {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// first goes to the first match at or below where typing began.
func (s *Search) first() {
	if len(s.hits) == 0 {
		s.cur = -1
		return
	}
	s.cur = 0
	for i, h := range s.hits {
		if h >= s.from {
			s.cur = i
			break
		}
	}
	s.show()
}

// next goes d matches along (1: n, -1: N), wrapping around: from the
// current match while the page is where it was shown, else — the page
// moved since (g, G, a page down) — from the page in view, as less
// does: n goes to the first match at or below its top line, N to the
// last at or above its bottom one.
func (s *Search) next(d int) {
	s.scan()
	if len(s.hits) == 0 {
		return
	}
	top := s.pager.Offset()
	if s.cur >= 0 && top == s.at {
		s.cur = (s.cur + d + len(s.hits)) % len(s.hits)
		s.show()
		return
	}
	if d > 0 {
		s.cur = sort.SearchInts(s.hits, top) % len(s.hits) // the first at or below the top
	} else {
		end := top + s.pager.Height() // the last at or above the bottom
		s.cur = (sort.SearchInts(s.hits, end) - 1 + len(s.hits)) % len(s.hits)
	}
	s.show()
}

// show scrolls the current match into view, a third down the page.
func (s *Search) show() {
	s.pager.Follow = false
	s.pager.ScrollTo(max(s.hits[s.cur]-s.pager.Height()/3, 0))
	s.at = s.pager.Offset()
}

// decorate highlights the query's occurrences in line i.
func (s *Search) decorate(i int, line string) string {
	if s.query == "" {
		return line
	}
	plain := ansi.Strip(line)
	lower := strings.ToLower(plain)
	if len(lower) != len(plain) || !strings.Contains(lower, s.query) {
		// Lower case changed the byte offsets: matched, not highlighted.
		return line
	}
	st := s.ctx.Styles
	style := st.Bold.Underline(true)
	if s.cur >= 0 && s.hits[s.cur] == i {
		style = st.Cursor
	}
	var b strings.Builder
	col, at := 0, 0
	for {
		k := strings.Index(lower[at:], s.query)
		if k < 0 {
			break
		}
		k += at
		a := ansi.StringWidth(plain[:k])
		end := a + ansi.StringWidth(plain[k:k+len(s.query)])
		b.WriteString(ansi.Cut(line, col, a))
		b.WriteString(style.Render(plain[k : k+len(s.query)]))
		col, at = end, k+len(s.query)
	}
	b.WriteString(ansi.Cut(line, col, ansi.StringWidth(plain)))
	return b.String()
}

// view is the search line: the query as typed, or where the search is.
func (s *Search) view(width int) string {
	st := s.ctx.Styles
	var status string
	switch {
	case s.typing && s.query == "":
		status = st.Dim.Render(" enter keeps · esc cancels")
	case len(s.hits) == 0:
		status = st.Error.Render(" no match")
	case s.cur < 0:
		status = st.Dim.Render(" " + text.Plural(len(s.hits), "line matches", "lines match") + " · n goes to the next")
	case s.typing:
		status = st.Dim.Render(" match " + strconv.Itoa(s.cur+1) + " of " + strconv.Itoa(len(s.hits)) + " · enter keeps · esc cancels")
	default:
		status = st.Dim.Render(" match " + strconv.Itoa(s.cur+1) + " of " + strconv.Itoa(len(s.hits)) + " · n/N next/previous · esc clears")
	}
	if s.typing {
		// As wide as the query (and room to type), the status beside it.
		s.input.SetWidth(min(max(ansi.StringWidth(s.input.Value())+3, 20), max(width-ansi.StringWidth(status), 10)))
		return common.Fit(s.input.View()+status, width)
	}
	return common.Fit(st.Accent.Render("/"+text.OneLine(s.input.Value()))+status, width)
}
