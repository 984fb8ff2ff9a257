package markdown

import (
	"bufio"
	"bytes"
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
)

// commonMarkFloor is how many CommonMark specification examples forge's
// renderer must agree on with goldmark (bench/README.md keeps the history).
// Raise it when a change makes more agree; never lower it.
const commonMarkFloor = 600

// TestCommonMarkSpec runs the examples of the CommonMark specification
// (the copy the github.com/yuin/goldmark module ships as _test/spec.json)
// through forge's renderer and through goldmark, a CommonMark-conformant
// parser used here only as the reference: it is a test dependency and is
// never linked into forge.
//
// What "agree" means. Each renderer's result becomes a sequence of
// characters, each marked with the styles bold, italic, code (a code span
// or code block) and strikethrough:
//
//   - forge: Render with colour at a width no line reaches, then the escape
//     sequences decoded back to styles; what forge adds around the text is
//     left out (list markers and task boxes, quote bars, rules and table
//     borders, the "#"s before a heading, a link's dimmed URL).
//   - goldmark: its syntax tree, walked for the text a reader sees: text with
//     escapes and character references resolved, code, raw HTML as written
//     (forge shows HTML as text), an autolink's label, an image's alt text.
//
// Whitespace runs become one space and the ends are trimmed; a space's own
// styles are ignored. Two results agree when the sequences are equal:
// the same visible characters in the same order, each with the same
// styles. Block structure (which list, how deep, where a line breaks) is
// not compared beyond the whitespace it puts between words. Not compared
// either: bold inside a heading (forge shows the whole heading bold) and
// italic inside an image's alt text (forge shows the alt text italic).
func TestCommonMarkSpec(t *testing.T) {
	t.Parallel()
	examples := loadSpec(t)
	agree := 0
	bySection := map[string][2]int{}
	for _, ex := range examples {
		want := goldmarkRunes([]byte(ex.Markdown))
		got := forgeRunes(Render(ex.Markdown, Options{Width: 1 << 20, Color: true, Dark: true}))
		s := bySection[ex.Section]
		s[1]++
		if equalRunes(got, want) {
			agree++
			s[0]++
		} else if testing.Verbose() {
			t.Logf("example %d (%s) differs:\n  forge:    %s\n  goldmark: %s", ex.Example, ex.Section, showRunes(got), showRunes(want))
		}
		bySection[ex.Section] = s
	}
	t.Logf("%d of %d CommonMark examples agree", agree, len(examples))
	if testing.Verbose() {
		for name, s := range bySection {
			t.Logf("  %-40s %3d of %3d", name, s[0], s[1])
		}
	}
	if agree < commonMarkFloor {
		t.Fatalf("%d of %d CommonMark examples agree with goldmark, fewer than the floor of %d", agree, len(examples), commonMarkFloor)
	}
}

type specExample struct {
	Markdown string `json:"markdown"`
	Example  int    `json:"example"`
	Section  string `json:"section"`
}

func loadSpec(t *testing.T) []specExample {
	t.Helper()
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/yuin/goldmark").Output()
	if err != nil {
		t.Fatalf("locating the goldmark module: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), "_test", "spec.json"))
	if err != nil {
		t.Fatal(err)
	}
	var examples []specExample
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	if len(examples) < 600 {
		t.Fatalf("only %d examples in spec.json", len(examples))
	}
	return examples
}

// styled is one visible character and its styles.
type styled struct {
	r     rune
	flags uint8
}

const (
	fBold uint8 = 1 << iota
	fItalic
	fCode
	fStrike
)

// runeSink collects styled characters, collapsing whitespace.
type runeSink struct {
	out   []styled
	space bool // a space is owed before the next character
}

func (s *runeSink) add(text string, flags uint8) {
	for _, r := range text {
		if r == ' ' || r == '\n' || r == '\t' || r == '\r' {
			s.space = true
			continue
		}
		if s.space && len(s.out) > 0 {
			s.out = append(s.out, styled{r: ' '})
		}
		s.space = false
		s.out = append(s.out, styled{r, flags})
	}
}

func (s *runeSink) brk() { s.space = true }

func equalRunes(a, b []styled) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// showRunes writes styled text with its styles as markers: *bold*,
// _italic_, `code`, ~strike~.
func showRunes(rs []styled) string {
	var b strings.Builder
	var cur uint8
	marks := []struct {
		f uint8
		s string
	}{{fBold, "*"}, {fItalic, "_"}, {fCode, "`"}, {fStrike, "~"}}
	for _, r := range rs {
		if r.r != ' ' && r.flags != cur {
			for _, m := range marks {
				if (r.flags^cur)&m.f != 0 {
					b.WriteString(m.s)
				}
			}
			cur = r.flags
		}
		b.WriteRune(r.r)
	}
	return jsonQuote(b.String())
}

func jsonQuote(s string) string { q, _ := json.Marshal(s); return string(q) }

// forgeRunes decodes Render's coloured output (dark palette).
func forgeRunes(out string) []styled {
	pal := paletteFor(true)
	var sink runeSink
	for _, line := range strings.Split(out, "\n") {
		sink.brk()
		params := ""
		first := true
		for line != "" {
			if strings.HasPrefix(line, "\x1b[") {
				end := strings.IndexByte(line, 'm')
				params = line[2:end]
				if params == "0" {
					params = ""
				}
				line = line[end+1:]
				continue
			}
			n := strings.Index(line, "\x1b[")
			if n < 0 {
				n = len(line)
			}
			run := line[:n]
			line = line[n:]
			has := func(p string) bool {
				return params != "" && strings.Contains(";"+params+";", ";"+p+";")
			}
			switch {
			case has("2"):
				sink.space = false // a link's URL and the space forge puts before it
				continue
			case has(pal.bullet), has(pal.quote), has(pal.rule), has(pal.border), has(pal.done):
				continue // decoration: markers, bars, rules
			case has(pal.heading):
				if first {
					run = strings.TrimLeft(strings.TrimLeft(run, "#"), " ")
				}
				var f uint8
				if has("3") {
					f |= fItalic
				}
				sink.add(run, f)
			default:
				var f uint8
				if has("1") {
					f |= fBold
				}
				if has("3") && (has("4") || !has(pal.link)) {
					f |= fItalic // italic without underline in link colour is an image's alt text
				}
				if has(pal.code) || has(pal.codeBlock) {
					f |= fCode
				}
				if has("9") {
					f |= fStrike
				}
				sink.add(run, f)
			}
			if strings.TrimSpace(run) != "" {
				first = false
			}
		}
	}
	return sink.out
}

// goldmarkRunes walks goldmark's syntax tree of src (CommonMark, no
// extensions) for its visible text.
func goldmarkRunes(src []byte) []styled {
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	var sink runeSink
	g := gmWalker{src: src, sink: &sink}
	g.walk(doc, 0, false, false)
	return sink.out
}

type gmWalker struct {
	src  []byte
	sink *runeSink
}

func (g *gmWalker) lines(segs *text.Segments, flags uint8) {
	for i := 0; i < segs.Len(); i++ {
		sg := segs.At(i)
		g.sink.add(string(sg.Value(g.src)), flags)
		g.sink.brk()
	}
}

// text resolves escapes and character references the way goldmark's HTML
// renderer does, without the HTML.
func (g *gmWalker) text(v []byte) string {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	ghtml.DefaultWriter.Write(w, v)
	w.Flush()
	return html.UnescapeString(b.String())
}

func (g *gmWalker) walk(n ast.Node, flags uint8, heading, image bool) {
	if n.Type() == ast.TypeBlock {
		g.sink.brk()
		defer g.sink.brk()
	}
	switch x := n.(type) {
	case *ast.Heading:
		heading = true
	case *ast.Image:
		image = true
	case *ast.Emphasis:
		switch {
		case x.Level == 2 && !heading:
			flags |= fBold
		case x.Level == 1 && !image:
			flags |= fItalic
		}
	case *ast.CodeSpan:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch t := c.(type) {
			case *ast.Text:
				g.sink.add(string(t.Segment.Value(g.src)), flags|fCode)
			case *ast.String:
				g.sink.add(string(t.Value), flags|fCode)
			}
		}
		return
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		g.lines(n.Lines(), fCode)
		return
	case *ast.HTMLBlock:
		g.lines(n.Lines(), 0)
		if x.HasClosure() {
			g.sink.add(string(x.ClosureLine.Value(g.src)), 0)
		}
		return
	case *ast.RawHTML:
		for i := 0; i < x.Segments.Len(); i++ {
			sg := x.Segments.At(i)
			g.sink.add(string(sg.Value(g.src)), flags)
		}
		return
	case *ast.AutoLink:
		g.sink.add(string(x.Label(g.src)), flags)
		return
	case *ast.Text:
		v := x.Segment.Value(g.src)
		if x.IsRaw() {
			g.sink.add(string(v), flags)
		} else {
			g.sink.add(g.text(v), flags)
		}
		if x.SoftLineBreak() || x.HardLineBreak() {
			g.sink.brk()
		}
		return
	case *ast.String:
		if x.IsRaw() || x.IsCode() {
			g.sink.add(string(x.Value), flags)
		} else {
			g.sink.add(g.text(x.Value), flags)
		}
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		g.walk(c, flags, heading, image)
	}
}

// TestStreamSpecExamples: for each CommonMark example, a Stream fed a few
// bytes at a time (1, 3 or 16 per write) writes exactly what Render
// returns, at a narrow and a common width.
func TestStreamSpecExamples(t *testing.T) {
	t.Parallel()
	for _, ex := range loadSpec(t) {
		for _, width := range []int{8, 80} {
			o := Options{Width: width, Color: true}
			want := Render(ex.Markdown, o)
			for _, chunk := range []int{1, 3, 16} {
				var out bytes.Buffer
				s := NewStream(&out, o)
				for i := 0; i < len(ex.Markdown); i += chunk {
					s.Write([]byte(ex.Markdown[i:min(i+chunk, len(ex.Markdown))]))
				}
				s.Close()
				if out.String() != want {
					t.Errorf("example %d, width %d, %d-byte writes: stream differs:\n%s", ex.Example, width, chunk, diff(want, out.String()))
				}
			}
		}
	}
}
