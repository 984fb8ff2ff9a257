package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// seg is a run of text in one style, or a hard line break.
type seg struct {
	text string
	st   style
	brk  bool
}

// unit is what wrapping never breaks: a word, or a single wide character
// (East Asian text has no spaces, so each wide character is a break
// opportunity). Its segments are all[from:to] of the slice units returns
// with it. space says a space separated it from the unit before.
type unit struct {
	from, to int
	width    int
	space    bool
	spaceSt  style
	brk      bool // a hard line break, not a word
}

// isASCII reports whether s is all 7-bit: then, since input is sanitised of
// control characters, every byte is one cell wide.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// textWidth is the display width of s in cells (s has no escape sequences).
func textWidth(s string) int {
	if isASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

// units splits styled text into wrap units. Only the ASCII space breaks
// words: it is split on before grapheme clustering, so a combining mark after
// a space cannot glue two words together in one rendering and not in another.
func units(us []unit, all []seg, segs []seg) ([]unit, []seg) {
	var cur unit
	haveCur := false
	pendingSpace, spaceSt := false, style(0)
	wideEnd := false // the last character added was wide
	end := func() {
		if haveCur {
			cur.to = len(all)
			us = append(us, cur)
		}
		haveCur = false
	}
	add := func(text string, st style, w int) {
		if !haveCur {
			cur = unit{from: len(all), space: pendingSpace, spaceSt: spaceSt}
			haveCur = true
			pendingSpace = false
		}
		all = append(all, seg{text: text, st: st})
		cur.width += w
	}
	for _, s := range segs {
		if s.brk {
			end()
			wideEnd = false
			us = append(us, unit{brk: true})
			pendingSpace = false
			continue
		}
		text := s.text
		for text != "" {
			if text[0] == ' ' {
				end()
				wideEnd = false
				if !pendingSpace {
					pendingSpace, spaceSt = true, s.st
				}
				text = text[1:]
				continue
			}
			word := text
			if i := strings.IndexByte(text, ' '); i >= 0 {
				word = text[:i]
			}
			text = text[len(word):]
			if isASCII(word) {
				if wideEnd && !isASCIIPunct(word[0]) {
					end()
				}
				wideEnd = false
				add(word, s.st, len(word))
				continue
			}
			// A wide character is a break opportunity on both sides, except
			// before punctuation ("。", "，", ",") which stays with what it
			// follows.
			start, w := 0, 0 // a run of characters not yet added
			for i := 0; i < len(word); {
				g, gw := firstGrapheme(word[i:])
				r, _ := utf8.DecodeRuneInString(g)
				if (gw >= 2 || wideEnd) && !isPunct(r) {
					if i > start {
						add(word[start:i], s.st, w)
					}
					end()
					start, w = i, 0
				}
				wideEnd = gw >= 2
				w += gw
				i += len(g)
			}
			if start < len(word) {
				add(word[start:], s.st, w)
			}
		}
	}
	end()
	return us, all
}

// wrap lays styled text out greedily in lines of at most width cells. Greedy
// matters for streaming: where a line breaks depends only on the words before
// it, so lines of a paragraph's beginning never change as more text arrives.
// A word wider than a whole line is cut between graphemes. There is always at
// least one line, possibly empty. Adjacent segments may share a style; paint
// merges them. The lines share buffers with the next call's: use them before
// wrapping again, or copy them.
func (r *renderer) wrap(segs []seg, width int) [][]seg {
	if width < 1 {
		width = 1
	}
	us, all := units(r.us[:0], r.all[:0], segs)
	r.us, r.all = us, all
	out := r.wrapOut[:0]
	bounds := r.bounds[:0] // where each line ends in out
	curW, have := 0, false
	flush := func() {
		bounds = append(bounds, len(out))
		curW, have = 0, false
	}
	for _, u := range us {
		if u.brk {
			flush()
			continue
		}
		gap := 0
		if have && u.space {
			gap = 1
		}
		if have && curW+gap+u.width > width {
			flush()
			gap = 0
		}
		if u.width > width {
			if have {
				flush()
			}
			for _, piece := range cut(all[u.from:u.to], width) {
				if have {
					flush()
				}
				out = append(out, piece.segs...)
				curW, have = piece.width, true
			}
			continue
		}
		if gap == 1 {
			out = append(out, seg{text: " ", st: u.spaceSt})
		}
		out = append(out, all[u.from:u.to]...)
		curW += gap + u.width
		have = true
	}
	if have || len(bounds) == 0 {
		flush()
	}
	lines := r.wrapLines[:0]
	start := 0
	for _, end := range bounds {
		lines = append(lines, out[start:end:end])
		start = end
	}
	r.wrapOut, r.wrapLines, r.bounds = out, lines, bounds
	return lines
}

// piece is part of a word cut to fit a line.
type piece struct {
	segs  []seg
	width int
}

// cut splits an over-long word into pieces of at most width cells (at least
// one grapheme each, so a wide character in a one-cell column still fits).
func cut(segs []seg, width int) []piece {
	var out []piece
	var cur piece
	for _, s := range segs {
		text := s.text
		for text != "" {
			// Take as many graphemes as fit, then the segment's next piece.
			n, w := 0, 0
			for n < len(text) {
				g, gw := firstGrapheme(text[n:])
				if (cur.width > 0 || w > 0) && cur.width+w+gw > width {
					break
				}
				n, w = n+len(g), w+gw
			}
			if n > 0 {
				cur.segs = append(cur.segs, seg{text: text[:n], st: s.st})
				cur.width += w
				text = text[n:]
			}
			if text != "" {
				out = append(out, cur)
				cur = piece{}
			}
		}
	}
	if len(cur.segs) > 0 {
		out = append(out, cur)
	}
	return out
}

// segsWidth is the width of a line of segments.
func segsWidth(segs []seg) int {
	w := 0
	for _, s := range segs {
		w += textWidth(s.text)
	}
	return w
}

// trimRight drops trailing spaces, so no output line ends in blanks.
func trimRight(segs []seg) []seg {
	for len(segs) > 0 {
		last := &segs[len(segs)-1]
		last.text = strings.TrimRight(last.text, " ")
		if last.text != "" {
			break
		}
		segs = segs[:len(segs)-1]
	}
	return segs
}

// paint appends segments to b as text, with SGR sequences in colour mode.
// Each line is self-contained: it ends in the default rendition, so a line
// can be printed, cut or measured alone (a TUI viewport does all three).
func (r *renderer) paint(b []byte, segs []seg) []byte {
	cur := style(0)
	for _, s := range segs {
		if s.text == "" {
			continue
		}
		if r.o.Color && s.st != cur {
			if r.sgr(cur) != "" {
				b = append(b, sgrReset...)
			}
			b = append(b, r.sgr(s.st)...)
			cur = s.st
		}
		b = append(b, s.text...)
	}
	if r.sgr(cur) != "" {
		b = append(b, sgrReset...)
	}
	return b
}
