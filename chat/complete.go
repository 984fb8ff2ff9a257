package chat

import (
	"context"
	"strings"
)

// Complete lists what Tab may complete line to: in-session commands,
// model names after "/model " and the kinds of REF after "/with " — each
// the whole line as it would read. Other text (a message) has none.
func (s *Session) Complete(ctx context.Context, line string) []string {
	if rest, ok := strings.CutPrefix(line, "/with "); ok && !strings.Contains(rest, ":") {
		return withPrefix(ContextRefKinds, strings.TrimLeft(rest, " "), "/with ")
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
	names := make([]string, len(Commands))
	for i, c := range Commands {
		names[i] = c.Name
	}
	return withPrefix(names, line, "")
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

// Completion is what Tab does to line given its candidates (Complete):
// the line extended to their longest common prefix, plus a space when
// only one is left (but not after "issue:", which waits for its number);
// ok is false when the line does not grow. choices are the candidates as
// the user picks among them, without the words before the last (the
// model names, not "/model ..."), when more than one is left.
func Completion(line string, cands []string) (completed string, choices []string, ok bool) {
	if len(cands) == 0 {
		return "", nil, false
	}
	common := cands[0]
	for _, c := range cands[1:] {
		for !strings.HasPrefix(c, common) {
			common = common[:len(common)-1]
		}
	}
	if len(cands) == 1 && !strings.HasSuffix(common, ":") {
		common += " "
	}
	if len(cands) > 1 {
		for _, c := range cands {
			choices = append(choices, c[strings.LastIndexByte(c, ' ')+1:])
		}
	}
	if len(common) <= len(line) {
		return "", choices, false
	}
	return common, choices, true
}
