package chat

import (
	"context"
	"strings"

	"github.com/forgehq/forge/chat"
)

// completer completes in-session commands, model names after "/model "
// and the kinds of REF after "/with ", for the line editor's Tab key.
func completer(ctx context.Context, s *chat.Session) func(line string) []string {
	return func(line string) []string {
		if rest, ok := strings.CutPrefix(line, "/with "); ok && !strings.Contains(rest, ":") {
			return withPrefix([]string{"issue:", "run:", "file:", "commit:"}, strings.TrimLeft(rest, " "), "/with ")
		}
		if rest, ok := strings.CutPrefix(line, "/model "); ok {
			names, _, err := s.Models(ctx)
			if err != nil {
				return nil
			}
			return withPrefix(names, strings.TrimLeft(rest, " "), "/model ")
		}
		if !strings.HasPrefix(line, "/") || strings.Contains(line, " ") {
			return nil
		}
		names := make([]string, len(chat.Commands))
		for i, c := range chat.Commands {
			names[i] = c.Name
		}
		return withPrefix(names, line, "")
	}
}

func withPrefix(names []string, prefix, lead string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, lead+n)
		}
	}
	return out
}

// tabComplete is the line editor's AutoCompleteCallback: Tab at the end of
// the line extends it to the candidates' longest common prefix, plus a
// space when only one candidate is left.
func tabComplete(complete func(string) []string) func(string, int, rune) (string, int, bool) {
	return func(line string, pos int, key rune) (string, int, bool) {
		if key != '\t' || pos != len(line) {
			return "", 0, false
		}
		cands := complete(line)
		if len(cands) == 0 {
			return "", 0, false
		}
		common := cands[0]
		for _, c := range cands[1:] {
			for !strings.HasPrefix(c, common) {
				common = common[:len(common)-1]
			}
		}
		if len(cands) == 1 && !strings.HasSuffix(common, ":") { // "/with issue:" waits for its number
			common += " "
		}
		if len(common) <= len(line) {
			return "", 0, false
		}
		return common, len(common), true
	}
}
