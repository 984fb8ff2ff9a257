// Package listing is what forge's list commands share: --limit, the
// --json/--jq/--template flags, and one loop that drains a paginated list
// either into JSON or into a table.
package listing

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// DefaultLimit is how many records a list shows unless --limit says
// otherwise, as in gh.
const DefaultLimit = 30

// Flags are a list command's --limit, --paginate and JSON flags.
type Flags struct {
	Limit    int
	Exporter *output.Exporter

	paginate bool
	limitSet func() bool
	filters  func() []string
	noun     string
	pages    client.Pages
}

// Add registers --limit/-L (default def), --paginate and
// --json/--jq/--template with the command's known JSON fields. noun names
// the records in the help and in the note of a list cut by the limit.
func (l *Flags) Add(cmd *cobra.Command, def int, noun string, fields ...string) {
	cmd.Flags().IntVarP(&l.Limit, "limit", "L", def, "List at most `N` "+noun)
	cmd.Flags().BoolVar(&l.paginate, "paginate", false, "List all the "+noun+", page after page, instead of at most --limit")
	l.limitSet = func() bool { return cmd.Flags().Changed("limit") }
	l.filters = func() []string { return filtersSet(cmd) }
	l.noun = noun
	l.Exporter = output.AddJSONFlags(cmd, fields...)
}

// Validate checks the flags before anything is fetched.
func (l *Flags) Validate() error {
	if l.paginate {
		if l.limitSet != nil && l.limitSet() {
			return cmdcore.UsageErrorf("--limit and --paginate cannot be used together")
		}
		l.Limit = math.MaxInt
	}
	if l.Limit < 1 {
		return cmdcore.UsageErrorf("--limit must be at least 1, not %d", l.Limit)
	}
	return l.Exporter.Validate()
}

// PerPage asks for pages no larger than the limit needs, up to the 100
// the service allows, so a short list is one request and a long one as few
// as possible; the iteration reports where it stands for Cut.
func (l *Flags) PerPage() client.ListOptions {
	return client.ListOptions{PerPage: client.PageSize(l.Limit), Pages: &l.pages}
}

// cut is the note for a terminal when the limit cut the list short:
// "Showing 30 of 123 open issues (-L 200 or --paginate for more)", the
// total from the Link header's last page when the server sends one (one
// more request), else "Showing the first 30 ...". It is "" when the list
// was not cut. what names n records (nil: the noun given to Add); the
// noun agrees with the number it follows. A list filtered by forge
// (filtered) has no total: the server's counts what forge left out.
func (l *Flags) cut(ctx context.Context, shown int, what func(n int) string, filtered bool) string {
	if !l.pages.Confirm(ctx) {
		return ""
	}
	if total, ok := l.pages.Total(ctx); ok && total > shown && !filtered {
		// -L that shows them all: the total, in hundreds past 100.
		all := total
		if all > 100 {
			all = (total + 99) / 100 * 100
		}
		return fmt.Sprintf("Showing %d of %d %s (-L %d or --paginate for more)", shown, total, what(total), all)
	}
	return fmt.Sprintf("Showing the first %d %s (-L %d or --paginate for more)", shown, what(shown), 2*shown)
}

// Record is a record that keeps the JSON the server sent.
type Record interface{ RawJSON() json.RawMessage }

// Drain reads seq up to the limit. With --json, --jq or --template it
// writes the records' JSON as the server sent it (an empty list is []),
// keeping only the text of each record as it streams by; otherwise it hands
// each record to row. It returns how many records there were. When forge
// cannot tell whether the service holds more than it read, it says so on
// stderr (piped too: a script must not take a partial list for whole).
func Drain[T Record](ios *iostreams.IOStreams, l *Flags, seq iter.Seq2[T, error], row func(T)) (int, error) {
	n, err := drain(ios, l, seq, row)
	if err == nil {
		NoteUnsure(ios, l.pages.Unsure(), n, l.noun)
	}
	return n, err
}

// NoteUnsure writes, when why is not "", that forge cannot tell whether
// more than the n records it read exist, and why.
func NoteUnsure(ios *iostreams.IOStreams, why string, n int, noun string) {
	if why == "" {
		return
	}
	ios.ErrPrintf("forge: cannot tell if more %s exist past these %d: %s\n", noun, n, why)
}

func drain[T Record](ios *iostreams.IOStreams, l *Flags, seq iter.Seq2[T, error], row func(T)) (int, error) {
	export := l.Exporter.Enabled()
	var raw []json.RawMessage
	if export {
		raw = make([]json.RawMessage, 0, min(l.Limit, 1024))
	}
	n := 0
	for rec, err := range seq {
		if err != nil {
			return n, err
		}
		if export {
			raw = append(raw, rec.RawJSON())
		} else {
			row(rec)
		}
		if n++; n >= l.Limit {
			break
		}
	}
	if export {
		return n, l.Exporter.Write(ios, raw)
	}
	return n, nil
}

// notFilters are the flags of a list that choose how much and in what form
// it is shown, or where: every other flag given filters it. --state is
// named by the lists' own empty sentence ("No closed issues").
func notFilter(name string) bool {
	switch name {
	case "limit", "paginate", "json", "jq", "template", "repo", "web", "help", "state":
		return true
	}
	return false
}

// filtersSet names the filtering flags given, as typed: `--author nobody`.
func filtersSet(cmd *cobra.Command) []string {
	var out []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if notFilter(f.Name) {
			return
		}
		v := f.Value.String()
		if v == "" || strings.ContainsAny(v, " \t\"'") {
			v = strconv.Quote(v)
		}
		out = append(out, "--"+f.Name+" "+v)
	})
	return out
}

// nounFor is the list's noun for n records: "1 run", "2 runs", "1
// repository".
func (l *Flags) nounFor(n int) string {
	if n != 1 {
		return l.noun
	}
	if stem, ok := strings.CutSuffix(l.noun, "ies"); ok {
		return stem + "y"
	}
	return strings.TrimSuffix(l.noun, "s")
}
