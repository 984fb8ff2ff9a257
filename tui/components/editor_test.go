package components

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// One character each as a reader sees it, several code points each: "é"
// decomposed (e, then a combining acute accent) and a family emoji (four
// people joined by zero-width joiners).
const (
	eAcute = "e\u0301"
	family = "👩\u200d👩\u200d👧\u200d👦"
)

func focused(t *testing.T, multiline bool) *Editor {
	e := NewEditor(testContext(t), multiline)
	e.Focus()
	return e
}

func keys(e *Editor, names ...string) {
	for _, k := range names {
		e.Update(press(k))
	}
}

// Typed code point by code point, as a terminal may send them, the
// characters are still one each to the cursor.
func TestEditorCursorMovesOverGraphemes(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"decomposed", "caf" + eAcute, "caf|" + eAcute},
		{"family", "a" + family, "a|" + family},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := focused(t, false)
			typeText(e, tc.text)
			keys(e, "left")
			typeText(e, "|")
			if e.Value() != tc.want {
				t.Errorf("left then |: %+q, want %+q", e.Value(), tc.want)
			}
			keys(e, "right", "right")
			typeText(e, "|")
			if want := tc.want + "|"; e.Value() != want {
				t.Errorf("right twice then |: %+q, want %+q", e.Value(), want)
			}
		})
	}
}

func TestEditorDeletesGraphemes(t *testing.T) {
	for _, tc := range []struct{ text, without string }{
		{"caf" + eAcute, "caf"},
		{"a" + family, "a"},
	} {
		e := focused(t, false)
		typeText(e, tc.text+"x")
		keys(e, "backspace", "backspace")
		if e.Value() != tc.without {
			t.Errorf("%+q: two backspaces left %+q, want %+q", tc.text, e.Value(), tc.without)
		}
		e.SetValue(tc.text + "x")
		keys(e, "left", "left", "delete")
		if want := tc.without + "x"; e.Value() != want {
			t.Errorf("%+q: delete left %+q, want %+q", tc.text, e.Value(), want)
		}
	}
	// A limit never lets half a character in.
	e := focused(t, false)
	e.Limit = 3
	e.Update(tea.PasteMsg{Content: "a" + family})
	if e.Value() != "a" {
		t.Errorf("limit 3 took %+q", e.Value())
	}
}

// Wrapping puts a whole character on the next row, never part of it.
func TestEditorWrapsBetweenGraphemes(t *testing.T) {
	for _, text := range []string{"abc" + eAcute + "def", "abc" + family + "def"} {
		e := focused(t, true)
		e.SetWidth(5)
		e.SetHeight(4)
		e.SetValue(text)
		e.Blur()
		lines := strings.Split(ansi.Strip(e.View()), "\n")
		joined := ""
		for _, l := range lines {
			if ansi.StringWidth(l) > 5 {
				t.Errorf("%+q: a row wider than 5: %+q", text, l)
			}
			if strings.HasPrefix(l, "\u0301") || strings.HasPrefix(l, "\u200d") {
				t.Errorf("%+q: a row starts mid-character: %+q", text, l)
			}
			joined += strings.TrimRight(l, " ")
		}
		if joined != text {
			t.Errorf("%+q wrapped as %+q", text, lines)
		}
	}
}

// Each key re-cuts the cursor's line into grapheme clusters: the cost of
// a key grows with the line, measured here at the end of long lines.
func BenchmarkEditorKey(b *testing.B) {
	for _, n := range []int{80, 2000} {
		b.Run("line="+strconv.Itoa(n), func(b *testing.B) {
			e := NewEditor(testContext(b), true)
			e.Focus()
			e.SetValue(strings.Repeat("café ", n/5))
			b.ReportAllocs()
			for b.Loop() {
				e.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
				e.Update(press("backspace"))
			}
		})
	}
}

// A pasted tab stays a tab in a block of text (Go and Makefile
// indentation) and is drawn as spaces; in one line it is a space.
func TestEditorKeepsTabs(t *testing.T) {
	e := focused(t, true)
	e.SetWidth(40)
	e.Update(tea.PasteMsg{Content: "all:\n\tgo build"})
	if got := e.Value(); got != "all:\n\tgo build" {
		t.Fatalf("the text is %q", got)
	}
	if v := e.View(); strings.Contains(v, "\t") || !strings.Contains(ansi.Strip(v), "    go build") {
		t.Errorf("the view is %q", v)
	}
	line := focused(t, false)
	line.Update(tea.PasteMsg{Content: "a\tb"})
	if got := line.Value(); got != "a b" {
		t.Errorf("one line holds %q", got)
	}
}

// Bidi controls are dropped with the other controls: text from the
// service (a profile's name) cannot turn the line around.
func TestEditorDropsBidiControls(t *testing.T) {
	e := focused(t, false)
	e.SetValue("abc\u202edef\u2066g\u2069\x1b[2J")
	if got := e.Value(); got != "abcdefg[2J" {
		t.Errorf("the editor holds %q", got)
	}
}
