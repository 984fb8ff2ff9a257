package agent

import (
	"fmt"
	"hash/fnv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenize cuts text into the service's tokens: a run of letters and
// digits with the spaces after it, one other character with the spaces
// after it, or a run of newlines. The tokens concatenate back to text.
func Tokenize(text string) []string {
	var toks []string
	for len(text) > 0 {
		n := tokenLen(text)
		toks = append(toks, text[:n])
		text = text[n:]
	}
	return toks
}

// CountTokens is len(Tokenize(text)) without building the slice.
func CountTokens(text string) int {
	n := 0
	for len(text) > 0 {
		text = text[tokenLen(text):]
		n++
	}
	return n
}

func tokenLen(s string) int {
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case r == '\n':
		for n < len(s) && s[n] == '\n' {
			n++
		}
		return n
	case isWordRune(r):
		for n < len(s) {
			r, size := utf8.DecodeRuneInString(s[n:])
			if !isWordRune(r) {
				break
			}
			n += size
		}
	}
	for n < len(s) && (s[n] == ' ' || s[n] == '\t') {
		n++
	}
	return n
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// promptTokens counts a request's prompt: every history item and the
// message, plus 4 tokens of framing per message.
func promptTokens(history []Message, message string) int {
	n := CountTokens(message) + 4
	for _, m := range history {
		n += CountTokens(m.Content) + 4
	}
	return n
}

// refModel is the built-in deterministic model. long selects ref-1 (a few
// paragraphs) over ref-1-mini (two sentences).
func refModel(long bool) Model {
	name := "ref-1-mini"
	if long {
		name = "ref-1"
	}
	return func(history []Message, message string) string {
		fp := fingerprint(name, history, message)
		blocks, question := splitContext(message)
		turn := 1
		first := question
		for _, m := range history {
			if m.Role == "user" {
				if turn == 1 {
					_, first = splitContext(m.Content)
				}
				turn++
			}
		}
		topic := gist(question, 8)
		var b strings.Builder
		if !long {
			fmt.Fprintf(&b, "You asked about **%s** (turn %d). My fingerprint for this conversation is `%s`.", topic, turn, fp)
			for _, c := range blocks {
				b.WriteString(" " + c.describe())
			}
			return b.String()
		}
		fmt.Fprintf(&b, "You asked about **%s**. This is turn %d of our conversation", topic, turn)
		if turn > 1 {
			fmt.Fprintf(&b, ", which began with *%s*", gist(first, 8))
		}
		b.WriteString(".\n\n")
		for _, c := range blocks {
			b.WriteString(c.describe() + "\n\n")
		}
		b.WriteString("Here is what I can tell you:\n\n")
		fmt.Fprintf(&b, "- Your message has %s and %s.\n", count(len(strings.Fields(question)), "word"), count(utf8.RuneCountInString(question), "character"))
		fmt.Fprintf(&b, "- The history you sent holds %s.\n", count(len(history), "earlier message"))
		fmt.Fprintf(&b, "- This conversation's fingerprint is `%s`, so the same conversation always gets this same answer.\n\n", fp)
		fmt.Fprintf(&b, "I am **%s**, the reference server's built-in model. I do not understand your words, but I answer them deterministically, which makes me easy to test. Ask me something else, or switch models with `/model`.", name)
		return b.String()
	}
}

// count says "1 word", "2 words".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// gist is the first n words of s on one line, with an ellipsis when cut.
func gist(s string, n int) string {
	words := strings.Fields(s)
	if len(words) == 0 {
		return "nothing"
	}
	cut := len(words) > n
	if cut {
		words = words[:n]
	}
	g := strings.Join(words, " ")
	g = strings.NewReplacer("*", "", "`", "", "_", " ").Replace(g)
	if cut {
		g += "…"
	}
	return g
}

func fingerprint(model string, history []Message, message string) string {
	h := fnv.New32a()
	h.Write([]byte(model))
	for _, m := range history {
		fmt.Fprintf(h, "\x00%s\x00%s", m.Role, m.Content)
	}
	fmt.Fprintf(h, "\x00user\x00%s", message)
	return fmt.Sprintf("%08x", h.Sum32())
}
