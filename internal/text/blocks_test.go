package text

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	gtext "github.com/yuin/goldmark/text"
)

// codeLines are the lines of s that codeBlocks puts in a code block.
func codeLines(s string) []string {
	var out []string
	for _, b := range codeBlocks(s) {
		out = append(out, strings.Split(s[b[0]:b[1]], "\n")...)
	}
	return out
}

// TestIndentedCodeBlocksOfTheSpec: the examples of CommonMark 0.31's
// "Indented code blocks" section, each with the lines the specification
// renders as code (its <pre><code>), and a few of "List items",
// "Paragraphs", "Block quotes" and "Tabs" that decide what is not code.
func TestIndentedCodeBlocksOfTheSpec(t *testing.T) {
	for _, tc := range []struct {
		example int
		in      string
		code    []string
	}{
		{107, "    a simple\n      indented code block\n", []string{"    a simple", "      indented code block"}},
		{108, "  - foo\n\n    bar\n", nil}, // bar: the item's paragraph
		{109, "1.  foo\n\n    - bar\n", nil},
		{110, "    <a/>\n    *hi*\n\n    - one\n", []string{"    <a/>", "    *hi*", "", "    - one"}},
		{111, "    chunk1\n\n    chunk2\n  \n \n \n    chunk3\n", []string{"    chunk1", "", "    chunk2", "  ", " ", " ", "    chunk3"}},
		{112, "    chunk1\n      \n      chunk2\n", []string{"    chunk1", "      ", "      chunk2"}},
		{113, "Foo\n    bar\n\n", nil}, // a paragraph's continuation
		{114, "    foo\nbar\n", []string{"    foo"}},
		{115, "# Heading\n    foo\nHeading\n------\n    foo\n----\n", []string{"    foo", "    foo"}},
		{116, "        foo\n    bar\n", []string{"        foo", "    bar"}},
		{117, "\n    \n    foo\n    \n\n", []string{"    foo"}}, // blank lines around are not in it
		{118, "    foo  \n", []string{"    foo  "}},
		{2, "  \tfoo\tbaz\t\tbim\n", []string{"  \tfoo\tbaz\t\tbim"}},
		{5, "- foo\n\n\t\tbar\n", []string{"\t\tbar"}}, // code in the item, two columns in
		{6, ">\t\tfoo\n", []string{">\t\tfoo"}},
		{9, " - foo\n   - bar\n\t - baz\n", nil},
		{254, "1.  A paragraph\n    with two lines.\n\n        indented code\n\n    > A block quote.\n", []string{"        indented code"}},
		{273, "- foo\n\n      bar\n", []string{"      bar"}},
		{274, "  10.  foo\n\n           bar\n", []string{"           bar"}},
		{278, "1.     indented code\n\n   paragraph\n\n       more code\n", []string{"1.     indented code", "       more code"}},
		{222, "aaa\n             bbb\n                                       ccc\n", nil},
		{237, ">     code\n\n>    not code\n", []string{">     code"}},
	} {
		if got := codeLines(tc.in); !slices.Equal(got, tc.code) {
			t.Errorf("example %d %q: code %q, want %q", tc.example, tc.in, got, tc.code)
		}
	}
}

// TestCodeBlocksAgreeWithCommonMark: on every example of the CommonMark
// specification (the copy goldmark ships), the lines codeBlocks puts in
// code are those goldmark, a CommonMark-conformant parser, makes code
// block content, and a fence's own lines.
func TestCodeBlocksAgreeWithCommonMark(t *testing.T) {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/yuin/goldmark").Output()
	if err != nil {
		t.Fatalf("locating the goldmark module: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), "_test", "spec.json"))
	if err != nil {
		t.Fatal(err)
	}
	var examples []struct {
		Markdown string `json:"markdown"`
		Example  int    `json:"example"`
	}
	if err := json.Unmarshal(data, &examples); err != nil || len(examples) < 600 {
		t.Fatalf("spec.json: %d examples, %v", len(examples), err)
	}
	for _, ex := range examples {
		for _, d := range disagreements(ex.Markdown) {
			t.Errorf("example %d, %s\n%s", ex.Example, d, ex.Markdown)
		}
	}
}

// disagreements are the lines of src that codeBlocks and goldmark put
// on different sides of code, but for a fence's own lines (code to
// codeBlocks) and blank lines.
func disagreements(src string) []string {
	want := goldmarkCodeLines(src)
	got := map[int]bool{}
	for _, b := range codeBlocks(src) {
		for l := lineOf(src, b[0]); l <= lineOf(src, b[1]); l++ {
			got[l] = true
		}
	}
	var out []string
	for l, line := range strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(src), "\n") {
		bare := strings.TrimLeft(line, " \t>-*+0123456789.)")
		fence := strings.HasPrefix(bare, "```") || strings.HasPrefix(bare, "~~~")
		if want[l] && !got[l] || got[l] && !want[l] && !fence && strings.TrimSpace(line) != "" {
			out = append(out, fmt.Sprintf("line %d %q: code %v, CommonMark's %v", l+1, line, got[l], want[l]))
		}
	}
	return out
}

// lineOf is the number of the line s[at] is on, from 0; lines end in LF,
// CR LF or CR.
func lineOf(s string, at int) int {
	return strings.Count(strings.ReplaceAll(s[:at], "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(s[:at], "\r\n", ""), "\r")
}

// goldmarkCodeLines are the lines of src holding a code block's content,
// by goldmark's syntax tree.
func goldmarkCodeLines(src string) map[int]bool {
	lines := map[int]bool{}
	doc := goldmark.New().Parser().Parse(gtext.NewReader([]byte(src)))
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Kind() != ast.KindCodeBlock && n.Kind() != ast.KindFencedCodeBlock {
			return ast.WalkContinue, nil
		}
		for i := 0; i < n.Lines().Len(); i++ {
			if seg := n.Lines().At(i); seg.Start < len(src) && src[seg.Start] != '\n' || seg.Start < seg.Stop {
				lines[lineOf(src, min(seg.Start, len(src)))] = true
			}
		}
		return ast.WalkContinue, nil
	})
	return lines
}
