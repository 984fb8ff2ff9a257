package chatview

import (
	"regexp"
	"strings"
	"sync"

	"github.com/forgehq/forge/internal/httpwait"
	"github.com/forgehq/forge/internal/text"
)

// A reply cut short (the quota ran out, or esc stopped it) may end inside
// markdown: "**hi" with its closing marks never sent. closeCut closes
// what was left open — a code fence, a code span, strong and emphasis
// marks — so the part received is drawn as it was meant, not as raw
// asterisks.
func closeCut(s string) string {
	if strings.Count(s, "```")%2 == 1 {
		return s + "\n```"
	}
	// Code spans are left as they are; list bullets are no marks.
	bullets, spans := cutMarks()
	inline := spans.ReplaceAllString(bullets.ReplaceAllString(s, ""), "")
	var tail string
	if strings.Count(inline, "`")%2 == 1 {
		return s + "`"
	}
	if strings.Count(inline, "**")%2 == 1 {
		tail = "**"
	}
	if strings.Count(strings.ReplaceAll(inline, "**", ""), "*")%2 == 1 {
		tail = "*" + tail
	}
	s = strings.TrimRight(s, " ")
	// A mark the cut left with nothing after it goes; others are closed.
	for _, m := range []string{"**", "*"} {
		if strings.HasPrefix(tail, m) && strings.HasSuffix(s, m) {
			s, tail = strings.TrimRight(strings.TrimSuffix(s, m), " "), strings.TrimPrefix(tail, m)
		}
	}
	return s + tail
}

// cutMarks are closeCut's list bullets and code spans, compiled on the
// first cut reply rather than at start-up.
var cutMarks = sync.OnceValues(func() (bullets, spans *regexp.Regexp) {
	return regexp.MustCompile(`(?m)^\s*\* `), regexp.MustCompile("`[^`]*`")
})

// errorSentence says an agent error in one sentence for people: a reply
// that did not come in time is said so, not in net/http's words.
func errorSentence(err error) string {
	if httpwait.IsTimeout(err) {
		return "The agent did not answer in time; ↑ brings your message back to send again."
	}
	return text.ErrorText(err)
}
