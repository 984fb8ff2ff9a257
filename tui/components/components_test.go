package components

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

func testContext(t testing.TB) *common.Context {
	ios, _, _, _ := iostreams.Test()
	f := cmdutil.New(ios, func(string) string { return "" })
	return common.NewContext(context.Background(), f, false)
}

func press(k string) tea.KeyPressMsg { return tuitest.KeyPress(k) }

func typeText(e *Editor, s string) {
	for _, r := range s {
		e.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func TestEditorLine(t *testing.T) {
	e := NewEditor(testContext(t), false)
	typeText(e, "hello world")
	if e.Value() != "" {
		t.Fatalf("unfocused editor took keys: %q", e.Value())
	}
	e.Reset()
	e.Focus()
	typeText(e, "hello world")
	e.Update(press("ctrl+w"))
	if e.Value() != "hello " {
		t.Fatalf("ctrl+w: %q", e.Value())
	}
	e.Update(press("home"))
	typeText(e, ">")
	e.Update(press("end"))
	typeText(e, "there")
	if e.Value() != ">hello there" {
		t.Fatalf("home/end: %q", e.Value())
	}
	e.Update(press("left"))
	e.Update(press("left"))
	e.Update(press("ctrl+k"))
	if e.Value() != ">hello the" {
		t.Fatalf("ctrl+k: %q", e.Value())
	}
	e.Update(press("ctrl+u"))
	if e.Value() != "" {
		t.Fatalf("ctrl+u: %q", e.Value())
	}
	// A paste into one line: newlines become spaces, escapes are dropped.
	e.Update(tea.PasteMsg{Content: "a\nb\x1b[31mc"})
	if e.Value() != "a b[31mc" {
		t.Fatalf("paste: %q", e.Value())
	}
	e.Update(press("backspace"))
	e.Update(press("enter"))
	if e.Value() != "a b[31m" {
		t.Fatalf("backspace/enter: %q", e.Value())
	}
	// Long text scrolls sideways to keep the cursor in view, in the width.
	e.SetWidth(10)
	e.SetValue(strings.Repeat("x", 30) + "END")
	if v := ansi.Strip(e.View()); !strings.Contains(v, "END") || ansi.StringWidth(v) != 10 {
		t.Fatalf("view %q", v)
	}
}

func TestEditorLimitAndWide(t *testing.T) {
	e := NewEditor(testContext(t), false)
	e.Focus()
	e.Limit = 4
	typeText(e, "123456")
	if e.Value() != "1234" {
		t.Fatalf("limit: %q", e.Value())
	}
	e.Limit = 0
	e.SetValue("日本語")
	e.SetWidth(6)
	if w := ansi.StringWidth(e.View()); w != 6 {
		t.Fatalf("wide runes: %d cells", w)
	}
}

func TestEditorBlock(t *testing.T) {
	e := NewEditor(testContext(t), true)
	e.Focus()
	e.SetWidth(12)
	e.SetHeight(3)
	typeText(e, "first")
	e.Update(press("enter"))
	typeText(e, "second line is long")
	if e.Value() != "first\nsecond line is long" {
		t.Fatalf("value %q", e.Value())
	}
	// Soft-wrapped at the width; the cursor row in view.
	v := ansi.Strip(e.View())
	lines := strings.Split(v, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "second") && !strings.HasPrefix(lines[0], "first") {
		t.Fatalf("view:\n%s", v)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 12 {
			t.Fatalf("a row wider than 12: %q", l)
		}
	}
	// Up moves a visual row, then into the first line.
	e.Update(press("up"))
	e.Update(press("up"))
	typeText(e, "!")
	if !strings.HasPrefix(e.Value(), "first") || !strings.Contains(e.Value(), "!") {
		t.Fatalf("after up: %q", e.Value())
	}
	// Backspace at the start of a line joins it to the one before.
	e.SetValue("ab\ncd")
	e.Update(press("home"))
	e.Update(press("backspace"))
	if e.Value() != "abcd" {
		t.Fatalf("join: %q", e.Value())
	}
	e.Update(tea.PasteMsg{Content: "x\r\ny"})
	// Pasted at the cursor, where the lines were joined.
	if e.Value() != "abx\nycd" {
		t.Fatalf("paste: %q", e.Value())
	}
}

func rows(n int) []Row {
	rs := make([]Row, n)
	for i := range rs {
		rs[i] = Row{Key: fmt.Sprint(i), Cells: []string{fmt.Sprintf("item %d", i), fmt.Sprintf("note %d", i%3)}}
	}
	return rs
}

func TestTableCursorAndFilter(t *testing.T) {
	tb := NewTable(testContext(t), Column{Title: "NAME", Flex: 1}, Column{Title: "NOTE", Width: 8})
	tb.SetSize(40, 6)
	tb.SetRows(rows(20))
	if v := tb.View(); strings.Count(v, "\n") != 5 || !strings.Contains(v, "item 4") || strings.Contains(v, "item 5") {
		t.Fatalf("a 6-line table shows the header and 5 rows:\n%s", v)
	}
	tb.Update(press("G"))
	if r, _ := tb.Selected(); r.Key != "19" || !strings.Contains(tb.View(), "item 19") {
		t.Fatalf("G: on %q", r.Key)
	}
	// Reloading keeps the cursor on the same row.
	tb.SetRows(append([]Row{{Key: "new", Cells: []string{"new"}}}, rows(20)...))
	if r, _ := tb.Selected(); r.Key != "19" {
		t.Fatalf("after reload: on %q", r.Key)
	}
	// Filter: every term must match, case-insensitively.
	tb.Update(press("/"))
	for _, r := range "ITEM 1 note 2" {
		tb.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	// "1" and "2" anywhere in "item N note N%3": 11, 12, 14 and 17.
	want := []string{"item 11", "item 12", "item 14", "item 17"}
	if tb.Shown() != 4 {
		t.Errorf("the filter lets %d rows through, want 4", tb.Shown())
	}
	for _, w := range want {
		if !strings.Contains(tb.View(), w) {
			t.Errorf("filter misses %s:\n%s", w, tb.View())
		}
	}
	if strings.Contains(tb.View(), "item 2 ") {
		t.Errorf("filter lets item 2 through:\n%s", tb.View())
	}
	tb.Update(press("esc"))
	if tb.Filter() != "" || tb.Shown() != 21 || tb.Capturing() {
		t.Fatalf("esc: filter %q, shown %d", tb.Filter(), tb.Shown())
	}
	// The mouse wheel moves three rows.
	tb.Update(press("g"))
	tb.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if i := tb.SelectedIndex(); i != 3 {
		t.Fatalf("wheel: row %d", i)
	}
}

func TestPagerDrawsOnlyTheWindow(t *testing.T) {
	p := NewPager(testContext(t))
	p.SetSize(20, 5)
	p.Follow = true
	var lines []string
	for i := 1; i <= 100; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	p.Append(lines...)
	if v := p.View(); !strings.HasSuffix(v, "line 100") || strings.Count(v, "\n") != 4 {
		t.Fatalf("following, the last 5 lines:\n%s", v)
	}
	p.Update(press("k"))
	if p.Follow || !strings.HasSuffix(p.View(), "line 99") {
		t.Fatal("scrolling up still follows")
	}
	p.Append("line 101")
	if strings.Contains(p.View(), "line 101") {
		t.Fatal("not following, yet it jumped to the new line")
	}
	p.Update(press("end"))
	p.SetTail("partial")
	if !strings.HasSuffix(p.View(), "partial") {
		t.Fatalf("the unfinished line:\n%s", p.View())
	}
	// Long lines are cut at the width, or scrolled sideways.
	p.Sideways = true
	p.SetLines([]string{"0123456789abcdefghijklmnopqrstuvwxyz"})
	if v := p.View(); !strings.HasPrefix(v, "0123456789abcdefghij") || ansi.StringWidth(strings.Split(v, "\n")[0]) != 20 {
		t.Fatalf("cut: %q", v)
	}
	p.Update(press("right"))
	if v := p.View(); !strings.HasPrefix(v, "89abcdef") {
		t.Fatalf("sideways: %q", v)
	}
}

func TestSectionsFit(t *testing.T) {
	s := NewSections(testContext(t), "Issues", "Pull requests", "Releases", "Commits", "Files", "Collaborators")
	s.Active = 5
	v := ansi.Strip(s.View(30))
	if !strings.Contains(v, "Collaborators") || ansi.StringWidth(v) != 30 {
		t.Fatalf("the active section must stay in view: %q", v)
	}
}

// TestSectionAt: a click finds the section under it, also when the bar
// is cut and starts with ‹.
func TestSectionAt(t *testing.T) {
	s := NewSections(testContext(t), "Issues", "Pull requests", "Releases", "Commits")
	// " Issues  Pull requests  Releases  Commits " as drawn, padded by one.
	for x, want := range map[int]int{0: 0, 7: 0, 8: 1, 23: 2, 33: 3, 43: -1} {
		if got := s.At(x, 80); got != want {
			t.Errorf("At(%d) = %d, want %d", x, got, want)
		}
	}
	s.Active = 3
	bar := ansi.Strip(s.View(20))
	if !strings.HasPrefix(bar, "‹") {
		t.Fatalf("the bar: %q", bar)
	}
	x := strings.Index(bar, "Commits")
	if got := s.At(len([]rune(bar[:x])), 20); got != 3 {
		t.Errorf("Commits in %q is at %d", bar, got)
	}
}
