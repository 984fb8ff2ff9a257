package chat

import (
	"context"
	"strings"

	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/internal/text"
)

// completer completes the session's commands, model names and REF kinds
// (chat.Session.Complete), for the line editor's Tab key.
func completer(ctx context.Context, s *chat.Session) func(line string) []string {
	return func(line string) []string { return s.Complete(ctx, line) }
}

// tabComplete is the line editor's AutoCompleteCallback: Tab at the end of
// the line extends it to the candidates' longest common prefix, plus a
// space when only one candidate is left; when several are left, show
// lists them (below the prompt, which is drawn again).
func tabComplete(complete func(string) []string, show func(choices []string)) func(string, int, rune) (string, int, bool) {
	return func(line string, pos int, key rune) (string, int, bool) {
		if key != '\t' || pos != len(line) {
			return "", 0, false
		}
		completed, choices, ok := chat.Completion(line, complete(line))
		if len(choices) > 0 && show != nil {
			show(choices)
		}
		if !ok {
			return "", 0, false
		}
		return completed, len(completed), true
	}
}

// choiceList is the line that lists the choices Tab left (model names
// come from the service).
func choiceList(choices []string) string { return text.OneLine(strings.Join(choices, "  ")) }
