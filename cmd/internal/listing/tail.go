package listing

import (
	"context"
	"fmt"
	"iter"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
)

// Tail is what a list command does once it has its records: drain them
// into the table (or the JSON export), say so on a terminal when there
// are none, render, and note a list the limit cut short.
type Tail struct {
	IO    *iostreams.IOStreams
	Flags *Flags
	Table *output.Table
	// Empty is said on stderr, on a terminal, when there is no record
	// ("" for nothing).
	Empty string
	// What names the records in the count line by their number (nil: the
	// noun given to Flags.Add, in In).
	What func(n int) string
	// In is the repository a repository's list is of ("" for the others).
	In string
	// Filtered says forge filters the records (listing.Filter): the
	// server's total is not the list's.
	Filtered bool
}

// Show drains seq through row into the tail's table and prints it.
func Show[T Record](ctx context.Context, tl Tail, seq iter.Seq2[T, error], row func(T)) error {
	ios, l := tl.IO, tl.Flags
	n, err := Drain(ios, l, seq, row)
	if err != nil || l.Exporter.Enabled() {
		return err
	}
	tty := ios.IsStdoutTTY()
	if n == 0 {
		if tty && tl.Empty != "" {
			ios.ErrPrintln(emptySentence(tl.Empty, l.filters))
		}
		return nil
	}
	if !tty {
		return tl.Table.Render()
	}
	// Every list counts its rows the same way, above the table as gh's
	// issue and pr lists do: "Showing 30 of 123 open issues in alice/demo
	// (-L 200 or --paginate for more)", or "Showing 3 runs in alice/demo".
	what := tl.What
	if what == nil {
		what = func(n int) string { return l.nounFor(n) + in(tl.In) }
	}
	head := l.cut(ctx, n, what, tl.Filtered)
	if head == "" {
		head = fmt.Sprintf("Showing %d %s", n, what(n))
	}
	ios.Printf("%s\n\n", head)
	return tl.Table.Render()
}

func in(repo string) string {
	if repo == "" {
		return ""
	}
	return " in " + repo
}

// Filter keeps the records of seq that keep accepts: a filter the service
// does not offer, applied as the pages come (the limit counts what is
// kept).
func Filter[T any](seq iter.Seq2[T, error], keep func(T) bool) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for rec, err := range seq {
			if err == nil && !keep(rec) {
				continue
			}
			if !yield(rec, err) {
				return
			}
		}
	}
}

// RepoClient checks the flags, then gives the repository's client: the
// order every list command needs (a usage error before any request).
func (l *Flags) RepoClient(ctx context.Context, d cmdutil.DepsSource, repoFlag string) (*client.Client, client.RepoName, error) {
	if err := l.Validate(); err != nil {
		return nil, client.RepoName{}, err
	}
	return d.Deps().RepoClient(ctx, repoFlag)
}

// REST is RepoClient for the lists that are not a repository's.
func (l *Flags) REST(d cmdutil.DepsSource) (*client.Client, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return d.Deps().REST()
}

// emptySentence is what an empty list says: with filters given, that
// nothing matched them, named as typed ("No open issues in alice/demo
// match --search zzz"), and no hint to create the first one.
func emptySentence(empty string, filters func() []string) string {
	var set []string
	if filters != nil {
		set = filters()
	}
	if len(set) == 0 {
		return empty
	}
	head, _, _ := strings.Cut(empty, ";")
	head = strings.TrimSuffix(strings.TrimSuffix(head, "."), " yet")
	return head + " match " + text.OneLine(strings.Join(set, " "))
}
