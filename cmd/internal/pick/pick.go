// Package pick asks the user to choose one of a few items on a terminal:
// what a command does when it needs an item (a run, an issue, a remote)
// and none was given.
package pick

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/prompt"
	"github.com/forgehq/forge/internal/text"
)

// One lists items on stderr, numbered from 1, and asks for a number
// (three tries); it returns the index chosen. Items come from the server:
// they are drawn on one line each, made safe. Without a terminal it is
// the caller's usage error, noWay, since nothing can be asked.
func One(ctx context.Context, ios *iostreams.IOStreams, p prompt.Prompter, question string, items []string, noWay error) (int, error) {
	if !ios.CanPrompt() {
		return 0, noWay
	}
	if len(items) == 0 {
		return 0, fmt.Errorf("nothing to choose from")
	}
	for i, it := range items {
		fmt.Fprintf(ios.ErrOut, "%3d  %s\n", i+1, text.OneLine(it))
	}
	cs := ios.ErrColorScheme()
	for range 3 {
		answer, err := p.Input(ctx, fmt.Sprintf("%s [1-%d]", question, len(items)), "1")
		if err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(strings.TrimSpace(answer))
		if err == nil && n >= 1 && n <= len(items) {
			return n - 1, nil
		}
		fmt.Fprintf(ios.ErrOut, "%s Type a number from 1 to %d\n", cs.FailureIcon(), len(items))
	}
	return 0, fmt.Errorf("no choice after 3 tries")
}
