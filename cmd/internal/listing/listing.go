// Package listing is what forge's list commands share: --limit, the
// --json/--jq/--template flags, and one loop that drains a paginated list
// either into JSON or into a table.
package listing

import (
	"encoding/json"
	"iter"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/output"
	"github.com/spf13/cobra"
)

// DefaultLimit is how many records a list shows unless --limit says
// otherwise, as in gh.
const DefaultLimit = 30

// Flags are a list command's --limit and JSON flags.
type Flags struct {
	Limit    int
	Exporter *output.Exporter
}

// Add registers --limit/-L (default def) and --json/--jq/--template with
// the command's known JSON fields. noun names the records in the help.
func (l *Flags) Add(cmd *cobra.Command, def int, noun string, fields ...string) {
	cmd.Flags().IntVarP(&l.Limit, "limit", "L", def, "List at most `N` "+noun)
	l.Exporter = output.AddJSONFlags(cmd, fields...)
}

// Validate checks the flags before anything is fetched.
func (l *Flags) Validate() error {
	if l.Limit < 1 {
		return cmdutil.UsageErrorf("--limit must be at least 1, not %d", l.Limit)
	}
	return l.Exporter.Validate()
}

// PerPage asks for pages no larger than the limit needs, up to the 100
// the service allows, so a short list is one request and a long one as few
// as possible.
func (l *Flags) PerPage() client.ListOptions {
	return client.ListOptions{PerPage: client.PageSize(l.Limit)}
}

// Record is a record that keeps the JSON the server sent.
type Record interface{ RawJSON() json.RawMessage }

// Drain reads seq up to the limit. With --json, --jq or --template it
// writes the records' JSON as the server sent it (an empty list is []),
// keeping only the text of each record as it streams by; otherwise it hands
// each record to row. It returns how many records there were.
func Drain[T Record](ios *iostreams.IOStreams, l *Flags, seq iter.Seq2[T, error], row func(T)) (int, error) {
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
