package agent

import (
	"fmt"
	"strings"
)

// contextTag marks a block of attached context (see the package
// documentation, "Attached context").
const contextTag = "forge-context"

// contextBlock is one block of attached context found in a message.
type contextBlock struct {
	Ref   string
	Title string
	Lines []string // the lines after the title
}

// splitContext takes the attached-context blocks out of a message and
// returns them with the text left around them.
func splitContext(message string) (blocks []contextBlock, rest string) {
	lines := strings.Split(message, "\n")
	var keep []string
	for i := 0; i < len(lines); i++ {
		fence, ref, ok := openingFence(lines[i])
		if !ok {
			keep = append(keep, lines[i])
			continue
		}
		end := i + 1
		for end < len(lines) && lines[end] != fence {
			end++
		}
		if end == len(lines) { // never closed: not a block
			keep = append(keep, lines[i])
			continue
		}
		b := contextBlock{Ref: ref}
		if body := lines[i+1 : end]; len(body) > 0 {
			b.Title, b.Lines = body[0], body[1:]
		}
		blocks = append(blocks, b)
		i = end
	}
	return blocks, strings.TrimSpace(strings.Join(keep, "\n"))
}

// openingFence recognises "```forge-context REF" (three or more
// backticks) and returns the fence and the REF.
func openingFence(line string) (fence, ref string, ok bool) {
	n := 0
	for n < len(line) && line[n] == '`' {
		n++
	}
	if n < 3 {
		return "", "", false
	}
	rest, found := strings.CutPrefix(line[n:], contextTag+" ")
	if !found || strings.TrimSpace(rest) == "" {
		return "", "", false
	}
	return line[:n], strings.TrimSpace(rest), true
}

// describe is what the reference model says about a block: its REF,
// title and size, its last line, and for a CI run the job that failed
// and the last error line of its log.
func (b contextBlock) describe() string {
	var s strings.Builder
	fmt.Fprintf(&s, "You attached `%s` (%s): %s", b.Ref, b.Title, count(len(b.Lines)+1, "line"))
	if last := lastContent(b.Lines); last != "" {
		fmt.Fprintf(&s, ", ending with %s", codeSpan(last))
	}
	s.WriteString(".")
	for _, f := range b.failedJobs() {
		fmt.Fprintf(&s, " The run failed in job **%s**", f.job)
		if f.errLine != "" {
			fmt.Fprintf(&s, "; the last error line of its log is %s", codeSpan(f.errLine))
		}
		s.WriteString(".")
	}
	if cuts := b.cuts(); cuts > 0 {
		fmt.Fprintf(&s, " Part of it was cut to fit (%s).", count(cuts, "cut"))
	}
	return s.String()
}

type failure struct{ job, errLine string }

// failedJobs reads the "@@ job NAME (CONCLUSION)...@@" sections of a run
// whose conclusion is not success.
func (b contextBlock) failedJobs() []failure {
	var out []failure
	cur := -1
	for _, l := range b.Lines {
		if title, ok := sectionTitle(l); ok {
			cur = -1
			name, after, found := strings.Cut(strings.TrimPrefix(title, "job "), " (")
			concl, _, _ := strings.Cut(after, ")")
			if strings.HasPrefix(title, "job ") && found && concl != "success" {
				out = append(out, failure{job: name})
				cur = len(out) - 1
			}
			continue
		}
		if cur >= 0 && isErrorLine(l) {
			out[cur].errLine = strings.TrimSpace(l)
		}
	}
	return out
}

func (b contextBlock) cuts() int {
	n := 0
	for _, l := range b.Lines {
		if strings.HasPrefix(l, "[forge: cut ") {
			n++
		}
	}
	return n
}

func sectionTitle(l string) (string, bool) {
	if strings.HasPrefix(l, "@@ ") && strings.HasSuffix(l, " @@") && len(l) > 6 {
		return l[3 : len(l)-3], true
	}
	return "", false
}

func isErrorLine(l string) bool {
	low := strings.ToLower(l)
	return strings.Contains(low, "error") || strings.Contains(low, "fail") || strings.Contains(low, "panic")
}

// lastContent is the last line that is neither blank nor forge's own.
func lastContent(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if _, sec := sectionTitle(l); l != "" && !sec && !strings.HasPrefix(l, "[forge: cut ") {
			return l
		}
	}
	return ""
}

// codeSpan quotes text as a markdown code span, whatever backticks it
// holds.
func codeSpan(text string) string {
	fence := strings.Repeat("`", longestBackticks(text)+1)
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		return fence + " " + text + " " + fence
	}
	return fence + text + fence
}

func longestBackticks(s string) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}
