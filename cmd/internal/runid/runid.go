// Package runid reads the run ID that `forge run logs`, `view`, `watch`
// and `explain` take as their argument.
package runid

import "github.com/forgehq/forge/internal/cmdutil"

// Args accepts exactly one argument, the run ID.
var Args = cmdutil.ExactArgs(1, "a run ID")

// Parse reads a run ID. A bad one is a usage error (exit 2) that says
// where IDs are found.
func Parse(arg string) (int64, error) {
	id, err := cmdutil.ParseNumber(arg, "run ID")
	if err != nil {
		return 0, cmdutil.UsageErrorf("%w; `forge run list` shows the IDs", err)
	}
	return id, nil
}
