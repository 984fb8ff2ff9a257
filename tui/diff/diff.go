// Package diff shows what a commit or a pull request changed (read by
// app/changes): the changed files and their unified diff, coloured,
// every line cleaned of anything a terminal would act on.
package diff

import (
	"strings"

	"github.com/forgehq/forge/app/changes"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// Lines draws files: a header per file, then its diff, added lines in
// green, removed in red, hunk heads in the accent colour. Tabs are
// expanded; every line is cleaned for the terminal. starts holds the
// index of each file's header, for jumping between files.
func Lines(ctx *common.Context, files []changes.File) (lines []string, starts []int) {
	st := ctx.Styles
	for _, f := range files {
		starts = append(starts, len(lines))
		head := st.Bold.Render(clean(f.Path)) + st.Dim.Render(" · "+clean(f.Status))
		if f.Note != "" {
			head += st.Dim.Render(" · " + f.Note)
		}
		lines = append(lines, head)
		for _, l := range changes.Hunks(f.Unified) { // the header says which file
			l = clean(l)
			switch {
			case strings.HasPrefix(l, "@@"):
				l = st.Accent.Render(l)
			case strings.HasPrefix(l, "+"):
				l = st.Success.Render(l)
			case strings.HasPrefix(l, "-"):
				l = st.Failure.Render(l)
			}
			lines = append(lines, l)
		}
		lines = append(lines, "")
	}
	return lines, starts
}

func clean(s string) string { return text.OneLine(strings.ReplaceAll(s, "\t", "    ")) }
