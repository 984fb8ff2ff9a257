package markdown

import "strings"

// style is a set of presentation flags on a run of text. The renderer decides
// what a run is (strong, a link's URL, a table border); the palette decides
// how it looks. In plain mode styles are ignored, so plain output is the
// coloured output with its escape sequences removed.
type style uint32

const (
	stStrong style = 1 << iota
	stEmph
	stStrike
	stCode      // inline code span
	stLink      // link text, autolinks, bare URLs
	stURL       // a link's destination shown after its text: dimmed
	stImage     // an image's alt text
	stHeading   // heading text and its #s
	stH1        // level-1 heading, on top of stHeading
	stCodeBlock // fenced and indented code
	stQuote     // blockquote bar
	stRule      // horizontal rule
	stBullet    // list markers
	stBorder    // table borders
	stTableHead // table header cells
	stTaskDone  // a checked task box
)

// palette holds SGR parameter strings for the coloured styles. Colours are
// from the xterm 256-colour cube, which every terminal forge targets shows.
type palette struct {
	heading, code, codeBG, codeBlock, link, quote, rule, bullet, border, done string
}

func paletteFor(dark bool) palette {
	if dark {
		return palette{
			heading: "38;5;39", code: "38;5;203", codeBG: "48;5;236", codeBlock: "38;5;180",
			link: "38;5;75", quote: "38;5;243", rule: "38;5;240", bullet: "38;5;246",
			border: "38;5;240", done: "38;5;78",
		}
	}
	return palette{
		heading: "38;5;26", code: "38;5;161", codeBG: "48;5;255", codeBlock: "38;5;94",
		link: "38;5;25", quote: "38;5;246", rule: "38;5;250", bullet: "38;5;242",
		border: "38;5;250", done: "38;5;28",
	}
}

// sgr returns the escape sequence that switches to style s from the default
// rendition, or "" for the default itself. Sequences are built on first use
// and cached per renderer: nothing is computed at package init.
func (r *renderer) sgr(s style) string {
	if s == 0 || !r.o.Color {
		return ""
	}
	if seq, ok := r.sgrCache[s]; ok {
		return seq
	}
	p := &r.pal
	var params []string
	add := func(on bool, v string) {
		if on && v != "" {
			params = append(params, v)
		}
	}
	add(s&(stStrong|stHeading|stTableHead) != 0, "1")
	add(s&stURL != 0, "2")
	add(s&(stEmph|stImage) != 0, "3")
	add(s&(stLink|stH1) != 0 && s&stURL == 0, "4")
	add(s&stStrike != 0, "9")
	// One foreground colour: the most specific construct wins.
	switch {
	case s&stCode != 0:
		add(true, p.code)
		add(true, p.codeBG)
	case s&stCodeBlock != 0:
		add(true, p.codeBlock)
	case s&(stLink|stImage) != 0:
		add(true, p.link)
	case s&stHeading != 0:
		add(true, p.heading)
	case s&stTaskDone != 0:
		add(true, p.done)
	case s&stQuote != 0:
		add(true, p.quote)
	case s&stRule != 0:
		add(true, p.rule)
	case s&stBorder != 0:
		add(true, p.border)
	case s&stBullet != 0:
		add(true, p.bullet)
	}
	seq := ""
	if len(params) > 0 {
		seq = "\x1b[" + strings.Join(params, ";") + "m"
	}
	if r.sgrCache == nil {
		r.sgrCache = make(map[style]string)
	}
	r.sgrCache[s] = seq
	return seq
}

const sgrReset = "\x1b[0m"
