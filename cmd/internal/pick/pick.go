// Package pick asks the user to choose one of a few items on a terminal:
// what a command does when it needs an item (a run, an issue, a remote)
// and none was given.
package pick

import (
	"context"
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
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
		ios.ErrPrintf("%3d  %s\n", i+1, text.OneLine(it))
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
		ios.ErrPrintf("%s Type a number from 1 to %d\n", cs.FailureIcon(), len(items))
	}
	return 0, fmt.Errorf("no choice after 3 tries")
}

// Recent is what a view command does without a number on a terminal: it
// lists up to 10 of the repository's recent items (list), offers them by
// label, and returns the number of the one chosen. Without a terminal it
// is noWay, the usage error of the missing number, before any request.
func Recent[T any](ctx context.Context, src cmdutil.DepsSource, repoFlag string, noWay error, what string,
	list func(*client.Client, client.RepoName) iter.Seq2[*T, error], label func(*T) string, number func(*T) int64) (int64, error) {
	d := src.Deps()
	if !d.IO.CanPrompt() {
		return 0, noWay
	}
	c, name, err := d.RepoClient(ctx, repoFlag)
	if err != nil {
		return 0, err
	}
	recs, err := client.Collect(list(c, name), 10)
	if err != nil {
		return 0, err
	}
	if len(recs) == 0 {
		return 0, fmt.Errorf("no %s in %s", what, name)
	}
	items := make([]string, len(recs))
	for i, r := range recs {
		items[i] = label(r)
	}
	i, err := One(ctx, d.IO, d.Prompter, "Which one?", items, noWay)
	if err != nil {
		return 0, err
	}
	return number(recs[i]), nil
}
