package chat

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The format of attached context is described in the package
// documentation (client.go), "Attached context".

// ContextTag is the info string that marks an attached-context block.
const ContextTag = "forge-context"

// Section is a part of an attachment that a budget may shorten: from the
// top for a log (whose end is where failures are), from the end for the
// rest.
type Section struct {
	Title    string // the "@@ TITLE @@" line; "" for the part under the title
	Lines    []string
	KeepTail bool // cut from the top, keeping the last lines
	cut      int  // lines left out to fit the budget
}

// shown is what is left of the section after the cut.
func (s *Section) shown() []string {
	if s.KeepTail {
		return s.Lines[s.cut:]
	}
	return s.Lines[:len(s.Lines)-s.cut]
}

// Attachment is context sent to the agent with a message.
type Attachment struct {
	Ref      string // as typed: "issue:12", "pull:3", "run:57", "file:go.mod@v1", "commit:abc123"
	Title    string
	Sections []*Section
}

// Cuts describes what the budget removed, one sentence per shortened
// section; none when the attachment is whole.
func (a *Attachment) Cuts() []string {
	var out []string
	for _, s := range a.Sections {
		if s.cut > 0 {
			name := s.Title
			if name == "" {
				name = a.Title
			}
			out = append(out, fmt.Sprintf("%s: cut %d of %d lines %s of %s to fit the token budget", a.Ref, s.cut, len(s.Lines), s.cutWhere(), name))
		}
	}
	return out
}

func (s *Section) cutWhere() string {
	if s.KeepTail {
		return "from the top"
	}
	return "from the end"
}

// Block renders the attachment as the fenced block the agent receives.
func (a *Attachment) Block() string {
	var body strings.Builder
	body.WriteString(oneLine(a.Title))
	body.WriteByte('\n')
	for _, s := range a.Sections {
		if s.Title != "" {
			fmt.Fprintf(&body, "@@ %s @@\n", oneLine(s.Title))
		}
		if s.cut > 0 {
			fmt.Fprintf(&body, "[forge: cut %d of %d lines %s to fit the token budget]\n", s.cut, len(s.Lines), s.cutWhere())
		}
		for _, l := range s.shown() {
			body.WriteString(l)
			body.WriteByte('\n')
		}
	}
	fence := strings.Repeat("`", max(3, longestRun(body.String(), '`')+1))
	return fence + ContextTag + " " + oneLine(a.Ref) + "\n" + body.String() + fence
}

// Tokens estimates the attachment's size as the agent counts it.
func (a *Attachment) Tokens() int { return EstimateTokens(a.Block()) }

// WithContext is the message as sent: the attachments' blocks, then the
// user's text.
func WithContext(atts []*Attachment, message string) string {
	if len(atts) == 0 {
		return message
	}
	var b strings.Builder
	for _, a := range atts {
		b.WriteString(a.Block())
		b.WriteString("\n\n")
	}
	b.WriteString(message)
	return b.String()
}

// Fit shortens the attachments' sections so that together they take at
// most budget tokens, sharing the budget fairly: a section smaller than
// its share keeps all of it and leaves the rest to the others. A section
// keeps its lines, so a later Fit with a larger budget shows more again.
// It reports false when even the titles alone do not fit.
func Fit(atts []*Attachment, budget int) bool {
	var secs []*Section
	for _, a := range atts {
		for _, s := range a.Sections {
			s.cut = 0
			secs = append(secs, s)
		}
	}
	total := func() int {
		n := 0
		for _, a := range atts {
			n += a.Tokens()
		}
		return n
	}
	if total() <= budget {
		return true
	}
	// What the blocks cost with every section empty.
	for _, s := range secs {
		s.cut = len(s.Lines)
	}
	fixed := total()
	// Shrink the shared part until the whole fits; rounding and the cut
	// notes may need a second pass.
	for avail := budget - fixed; avail >= 0; avail -= max(1, avail/10) {
		share(secs, avail)
		if total() <= budget {
			return true
		}
	}
	return false
}

// noteTokens is what a "[forge: cut ...]" line costs, at most.
const noteTokens = 24

// share cuts each section to its part of avail tokens.
func share(secs []*Section, avail int) {
	sizes := make([]int, len(secs))
	for i, s := range secs {
		sizes[i] = linesTokens(s.Lines)
	}
	alloc := make([]int, len(secs))
	done := make([]bool, len(secs))
	left, open := avail, len(secs)
	for open > 0 {
		each, progress := left/open, false
		for i := range secs {
			if !done[i] && sizes[i] <= each {
				alloc[i], done[i], progress = sizes[i], true, true
				left -= sizes[i]
				open--
			}
		}
		if !progress {
			for i := range secs {
				if !done[i] {
					alloc[i] = each
				}
			}
			break
		}
	}
	for i, s := range secs {
		n := kept(s.Lines, alloc[i], s.KeepTail)
		if n < len(s.Lines) {
			n = kept(s.Lines, alloc[i]-noteTokens, s.KeepTail)
		}
		s.cut = len(s.Lines) - n
	}
}

// kept is how many whole lines fit in budget tokens, counted from the
// end of lines when tail is set, else from the start.
func kept(lines []string, budget int, tail bool) int {
	n, used := 0, 0
	for n < len(lines) {
		i := n
		if tail {
			i = len(lines) - 1 - n
		}
		c := EstimateTokens(lines[i]) + 1
		if used+c > budget {
			break
		}
		used += c
		n++
	}
	return n
}

func linesTokens(lines []string) int {
	n := 0
	for _, l := range lines {
		n += EstimateTokens(l) + 1
	}
	return n
}

// EstimateTokens counts text's tokens as the reference service does: a
// run of letters and digits with the spaces after it, any other character
// with the spaces after it, or a run of newlines. Another service may
// count differently; forge uses the estimate only to size attachments.
func EstimateTokens(text string) int {
	n := 0
	for len(text) > 0 {
		r, size := utf8.DecodeRuneInString(text)
		switch {
		case r == '\n':
			for size < len(text) && text[size] == '\n' {
				size++
			}
			text = text[size:]
			n++
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			for size < len(text) {
				r, s := utf8.DecodeRuneInString(text[size:])
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				size += s
			}
		}
		for size < len(text) && (text[size] == ' ' || text[size] == '\t') {
			size++
		}
		text = text[size:]
		n++
	}
	return n
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// oneLine keeps a title or REF on its line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
