package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestRenderConstructs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, want string
		width           int
	}{
		{"empty", "", "", 0},
		{"blank lines only", "\n\n  \n", "", 0},
		{"atx headings", "# One\n## Two ##\n###### Six\n####### seven", "# One\n\n## Two\n\n###### Six\n\n####### seven\n", 0},
		{"setext headings", "Title\n=====\nSub\n---", "# Title\n\n## Sub\n", 0},
		{"setext over a paragraph wider than Width is a rule",
			"a b c d e f g h i j k l m n o p\n---", "a b c d e f g h i j k l m n o\np\n\n" + strings.Repeat("─", 30) + "\n", 0},
		{"setext over a paragraph of Width characters", "a b c d e f g h i j k l m n o\n---", "## a b c d e f g h i j k l m n\n   o\n", 0},
		{"paragraph rewrapped", "one two three four five six seven\neight nine", "one two three four five six\nseven eight nine\n", 0},
		{"hard breaks", "a  \nb\\\nc", "a\nb\nc\n", 0},
		{"trailing backslash is literal", "a\\", "a\\\n", 0},
		{"emphasis markers dropped", "*em* **strong** ~~gone~~ `co de`", "em strong gone co de\n", 0},
		{"intraword underscore kept", "snake_case_name and 2*3*4", "snake_case_name and 234\n", 0},
		{"escapes", `\*not em\* \[x\] \\`, "*not em* [x] \\\n", 0},
		{"entities", "&lt;a&gt; &amp; &#65; &#x42; &copy; &nope; &#0;", "<a> & A B © &nope; \uFFFD\n", 0},
		{"link then its url", "see [the docs](https://x.io/d) now", "see the docs (https://x.io/d)\nnow\n", 0},
		{"link whose text is its url", "[https://x.io](https://x.io)", "https://x.io\n", 0},
		{"autolinks", "<https://x.io/a> <me@x.io> www.x.io/p. https://y.io/(a)b)", "https://x.io/a me@x.io\nwww.x.io/p. https://y.io/(a)b)\n", 0},
		{"image", "![logo](/l.png)", "logo (/l.png)\n", 0},
		{"reference links resolve to earlier definitions, never shown", "[r]: https://x.io\n[S]: /s 'title'\n\n[a][r] [s][] [r]",
			"a (https://x.io) s (/s) r\n(https://x.io)\n", 0},
		{"a definition spans lines, and text may follow it", "[r]:\n  /u\n  \"t\"\ntext [r]", "text r (/u)\n", 0},
		{"a reference to a later definition stays as written", "[a][r]\n\n[r]: https://x.io", "[a][r]\n", 0},
		{"not a definition: text after the title", "[r]: /u \"t\" x", "[r]: /u \"t\" x\n", 0},
		{"definitions are no setext heading", "[r]: /u\n===\n[r]", "=== r (/u)\n", 0},
		{"inline html as written", "<b>*b*</b> <a href=\"*x*\n&amp;\">&amp; <!-- *c* -->", "<b>b</b> <a href=\"*x*\n&amp;\">& <!-- *c* -->\n", 60},
		{"named character references", "&AElig; &frac34; &notit; &amp&amp;", "Æ ¾ &notit; &amp&\n", 0},
		{"html block verbatim", "<pre>\n  keep   this *x*\n\n</pre>\nafter *x*", "<pre>\n  keep   this *x*\n\n</pre>\n\nafter x\n", 0},
		{"html block ends at a blank line", "<details>\n<summary>S *x*</summary>\n\nbody *x*\n\n</details>",
			"<details>\n<summary>S *x*</summary>\n\nbody x\n\n</details>\n", 0},
		{"html comment across blank lines", "<!--\n\n# no\n-->\n# yes", "<!--\n\n# no\n-->\n\n# yes\n", 0},
		{"html block interrupts a paragraph, a lone tag does not", "a\n<div>\nb\n\nc\n<span>\nd",
			"a\n\n<div>\nb\n\nc <span> d\n", 0},
		{"html block in a quote, control characters escaped", "> <div>\n> a \x1b[2J  b\n\nx", "│ <div>\n│ a ^[[2J  b\n\nx\n", 0},
		{"bullets nest", "- a\n- b\n  - c\n    - d\n      - e", "• a\n• b\n  ◦ c\n    ▪ d\n      • e\n", 0},
		{"ordered keeps its start and counts", "3. a\n3. b\n10) c", "3. a\n4. b\n\n10) c\n", 0},
		{"loose list keeps its blank lines", "- a\n\n- b\n- c", "• a\n\n• b\n• c\n", 0},
		{"list item wraps under its text", "- one two three four five six seven", "• one two three four five six\n  seven\n", 0},
		{"task lists", "- [ ] todo\n- [x] done\n1. [X] n", "[ ] todo\n[✓] done\n\n1. [✓] n\n", 0},
		{"empty item", "-\n- b", "•\n• b\n", 0},
		{"blockquotes nest", "> a\n>> b\n\n> c", "│ a\n│\n│ │ b\n\n│ c\n", 0},
		{"lazy continuation", "> a\nb", "│ a b\n", 0},
		{"fenced code verbatim and unwrapped", "```go\nx :=  1 // a long comment that will not wrap\n\n\ty\n```",
			"  x :=  1 // a long comment that will not wrap\n\n      y\n", 0},
		{"tilde fence and unclosed fence", "~~~\na\n~~~\n```\nb", "  a\n\n  b\n", 0},
		{"indented code", "    a\n\n    b\n\nc", "  a\n\n  b\n\nc\n", 0},
		{"indented code cannot interrupt a paragraph", "a\n    b", "a b\n", 0},
		{"rules", "***\n- - -\n___", strings.Repeat("─", 30) + "\n\n" + strings.Repeat("─", 30) + "\n\n" + strings.Repeat("─", 30) + "\n", 0},
		{"a rule spaced with tabs (CommonMark allows them)", "*\t*\t*", strings.Repeat("─", 30) + "\n", 0},
		{"table aligned", "| a | b | c |\n|:--|:-:|--:|\n| x | yy | zzz |\n| 1 |",
			"a │ b  │   c\n──┼────┼────\nx │ yy │ zzz\n1 │    │\n", 0},
		{"table without outer pipes, split from a paragraph", "intro\na | b\n--|--\n1 | 2",
			"intro\n\na │ b\n──┼──\n1 │ 2\n", 0},
		{"table cells with escaped pipes and inline code", "| a |\n|---|\n| `x\\|y` |", "a\n───\nx|y\n", 0},
		{"table fitted to width", "| name | description |\n|---|---|\n| forge | a command-line client for the hosting service |",
			"name  │ description\n──────┼───────────────────────\nforge │ a command-line client\n      │ for the hosting\n      │ service\n", 0},
		{"table delimiter needs a pipe", "a\n--", "## a\n", 0},
		{"mismatched table is text", "a | b\n--|--|--", "a | b --|--|--\n", 0},
		{"wide characters wrap by cells", "日本語のテキストは空白がありません", "日本語のテキストは\n空白がありません\n", 18},
		{"long word is cut", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\naaaaaa\n", 0},
		{"escape sequences neutralised", "a \x1b[2J b\x07 \x9b", "a ^[[2J b^G <0x9B>\n", 0},
		{"crlf and cr", "a\r\nb\r\rc", "a b\n\nc\n", 0},
		{"tiny width", "hello world", "h\ne\nl\nl\no\nw\no\nr\nl\nd\n", 1},
		{"default width is 80", strings.Repeat("x ", 41), strings.TrimSpace(strings.Repeat("x ", 40)) + "\nx\n", -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.width
			if w == 0 {
				w = 30
			}
			if w < 0 {
				w = 0
			}
			got := Render(tc.src, Options{Width: w})
			if got != tc.want {
				t.Errorf("Render(%q)\n got: %q\nwant: %q", tc.src, got, tc.want)
			}
		})
	}
}

// TestColorStyles checks each construct gets its own styling in colour, and
// that colour never changes the text or layout.
func TestColorStyles(t *testing.T) {
	t.Parallel()
	src := "# H\n\n*e* **s** ~~x~~ `c` [l](u)\n\n- i\n\n> q\n\n```\nk\n```\n\n---\n\n| t |\n|---|\n| d |"
	for _, dark := range []bool{true, false} {
		o := Options{Width: 40, Color: true, Dark: dark}
		out := Render(src, o)
		plain := Render(src, Options{Width: 40})
		if ansi.Strip(out) != plain {
			t.Fatalf("dark=%v: colour changes the text:\n%s", dark, diff(plain, ansi.Strip(out)))
		}
		p := paletteFor(dark)
		for _, want := range []string{
			"\x1b[1;4;" + p.heading + "mH\x1b[0m",
			"\x1b[3me\x1b[0m",
			"\x1b[1ms\x1b[0m",
			"\x1b[9mx\x1b[0m",
			"\x1b[" + p.code + ";" + p.codeBG + "mc\x1b[0m",
			"\x1b[4;" + p.link + "ml\x1b[0m",
			"\x1b[2m(u)\x1b[0m",
			"\x1b[" + p.bullet + "m•\x1b[0m",
			"\x1b[" + p.quote + "m│\x1b[0m",
			"\x1b[" + p.codeBlock + "mk\x1b[0m",
			"\x1b[" + p.rule + "m────",
			"\x1b[1mt\x1b[0m",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("dark=%v: output lacks %q:\n%q", dark, want, out)
			}
		}
		for n, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if i := strings.LastIndex(line, "\x1b["); i >= 0 && !strings.HasPrefix(line[i:], "\x1b[0m") {
				t.Errorf("line %d does not end in the default rendition: %q", n+1, line)
			}
		}
	}
	if Render(src, Options{Color: true, Dark: true}) == Render(src, Options{Color: true}) {
		t.Error("dark and light palettes are the same")
	}
}

// TestWidthRespected checks every line of wrapped text fits the width, in
// every container (code blocks and too-narrow tables may overflow).
func TestWidthRespected(t *testing.T) {
	t.Parallel()
	src := "# A heading that is long enough to wrap somewhere\n\n" +
		"Some text with **strong words** and `code spans` and [a link](https://example.com/a/long/path) to wrap.\n\n" +
		"- item one that has quite a lot of text in it\n  - nested item with more text than fits\n\n" +
		"> a quote with words enough to need wrapping twice or more\n> > and nested\n\n" +
		"1. 中文文本没有空格所以每个字符都可以换行。\n\n" +
		"| a | b |\n|---|---|\n| some words | more words here |"
	for _, w := range []int{20, 33, 50} {
		for i, line := range strings.Split(Render(src, Options{Width: w, Color: true}), "\n") {
			if lw := ansi.StringWidth(line); lw > w {
				t.Errorf("width %d: line %d is %d wide: %q", w, i+1, lw, line)
			}
		}
	}
}
