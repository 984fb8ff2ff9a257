// Package markdown renders markdown for a terminal: forge's issue bodies,
// comments and chat replies.
//
// It exists instead of glamour, whose dependencies cost about 30 ms of
// package initialisation on every forge invocation; this package does
// nothing at init and needs only charmbracelet/x/ansi for text widths.
//
// What it renders: ATX and setext headings ("#"s kept as a prefix),
// paragraphs re-wrapped to the width (wide characters and emoji measured as
// the terminal shows them), emphasis, strong, strikethrough, inline code,
// links as their text followed by the URL dimmed (once, when text and URL
// are the same), autolinks and bare URLs, bullet, ordered, nested and task
// lists, nested blockquotes behind "│", fenced and indented code kept
// verbatim and unwrapped in a code colour without highlighting, rules, GFM
// pipe tables aligned and fitted to the width, hard line breaks, backslash
// escapes and common character references. Inline HTML is shown as text;
// HTML blocks (CommonMark's seven kinds: <pre>, comments, <details>, ...)
// are shown line for line as written, unwrapped. Link reference definitions
// are never shown.
//
// Choices a reader may meet:
//   - A reference link ("[text][ref]", "[ref][]", "[ref]") resolves to a
//     definition earlier in the document; one to a later definition is
//     shown as written, because a stream does not have the text to come and
//     Render shows what a stream does.
//   - How far this agrees with CommonMark is measured against goldmark on
//     the specification's examples (TestCommonMarkSpec, bench/README.md).
//   - A setext underline makes a heading only of a paragraph of at most Width
//     characters (else "---" is a rule and "===" text), and a table header
//     row needs a "|" within its first Width characters and the delimiter
//     row a "|" too. Both let a stream show a long paragraph line by line
//     before it ends; neither limit is met by headings and tables in
//     practice.
//   - Control characters in the input are shown as text.Sanitize shows them
//     (ESC as "^[", U+202E as "<U+202E>"), so text from other users cannot
//     send escape sequences to the terminal or reorder what it shows.
//   - Colour output uses xterm 256-colour SGR sequences; every line ends in
//     the default rendition, so lines can be cut and measured one by one.
//     Without colour the output is the same text with the same layout.
package markdown

import (
	"strings"

	"github.com/forgehq/forge/internal/text"
)

// Options control rendering.
type Options struct {
	Width int  // wrap width in cells; <= 0 means 80
	Color bool // emit ANSI styling; false gives clean plain text with the same layout
	Dark  bool // terminal background is dark (choose the palette); the caller knows it, never probe the terminal
}

// Render renders a markdown document. Every output line ends in "\n"; an
// empty document renders as "".
func Render(src string, o Options) string {
	r := newRenderer(o)
	r.out = make([]byte, 0, len(src)+len(src)/4)
	for src != "" {
		i := strings.IndexAny(src, "\r\n")
		if i < 0 {
			r.line(cleanLine(src))
			break
		}
		r.line(cleanLine(src[:i]))
		if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			i++
		}
		src = src[i+1:]
	}
	r.finish()
	return string(r.out)
}

func cleanLine(s string) string { return expandTabs(text.Sanitize(s)) }
