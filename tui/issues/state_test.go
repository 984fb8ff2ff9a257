package issues

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/tui/tuitest"
)

// TestAllIssuesShowState: without colour, "All issues" still tells open
// from closed, by a glyph on each row (and a legend).
func TestAllIssuesShowState(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	ctx.SetTheme(false, true) // NO_COLOR
	d := tuitest.Drive(t, NewList(ctx, tuitest.Webapp), 100, 20)
	d.UntilView("Open issues", "4 issues")
	d.Key("s", "s")
	v := d.UntilView("All issues", "6 issues", "● open ✓ closed")
	rows := map[string]string{"Typo in README": "✓", "Server crashes on empty request body": "✓", "Support graceful shutdown": "●"}
	for title, glyph := range rows {
		if !strings.Contains(v, glyph+" "+title) {
			t.Errorf("%q is not marked %s:\n%s", title, glyph, v)
		}
	}
}
