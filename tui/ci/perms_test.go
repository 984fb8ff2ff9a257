package ci

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// helpKeys are the keys a view lists in its short and full help.
func helpKeys(short []key.Binding, full [][]key.Binding) map[string]bool {
	keys := map[string]bool{}
	for _, b := range short {
		keys[b.Help().Key] = true
	}
	for _, g := range full {
		for _, b := range g {
			keys[b.Help().Key] = true
		}
	}
	return keys
}

// permsIn matches the answer that tells a view the caller's rights.
func permsIn(m tea.Msg) bool {
	r, ok := m.(common.Result[*client.Repo])
	return ok && r.Err == nil
}

// sent matches the service's answer to a cancel or re-run: one was sent.
func sent(m tea.Msg) bool { _, ok := m.(actionMsg); return ok }

// TestRunActionsOnlyForWriters: dave may read alice/webapp, not write.
// The runs list and a run's page do not offer him x or R, and pressing
// them says why without asking the service; alice is still asked.
func TestRunActionsOnlyForWriters(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	dave := tuitest.Context(t, srv, "dave")
	run := runOn(t, dave, "slog") // unfinished: both x and R apply

	r := NewRuns(dave, tuitest.Webapp)
	d := tuitest.Drive(t, r, 100, 20)
	d.UntilView("CI on slog")
	d.Until("the repository's permissions", func() bool { return d.Seen(permsIn) })
	if k := helpKeys(r.ShortHelp(), r.FullHelp()); k["x"] || k["R"] {
		t.Fatalf("the runs list offers dave x or R: %v", k)
	}
	for _, k := range []string{"x", "R"} {
		d.Key(k)
		status(t, d, "Only someone with write access to alice/webapp may cancel or re-run its runs.")
	}

	j := NewJobs(dave, tuitest.Webapp, run)
	dj := tuitest.Drive(t, j, 100, 20)
	dj.UntilView("in progress")
	dj.Until("the repository's permissions", func() bool { return dj.Seen(permsIn) })
	if k := helpKeys(j.ShortHelp(), j.FullHelp()); k["x"] || k["R"] {
		t.Fatalf("the run's page offers dave x or R: %v", k)
	}
	dj.Key("x")
	status(t, dj, "Only someone with write access")
	if strings.Contains(dj.View(), "[y/N]") || d.Seen(sent) || dj.Seen(sent) {
		t.Fatalf("dave's key went on to the service:\n%s", dj.View())
	}

	// A writer is offered both and asked before a cancel.
	alice := tuitest.Context(t, srv, "alice")
	ra := NewRuns(alice, tuitest.Webapp)
	da := tuitest.Drive(t, ra, 100, 20)
	da.UntilView("CI on slog")
	da.Until("the repository's permissions", func() bool { return da.Seen(permsIn) })
	if k := helpKeys(ra.ShortHelp(), ra.FullHelp()); !k["x"] || !k["R"] {
		t.Fatalf("the runs list does not offer alice x and R: %v", k)
	}
	da.Key("x")
	da.UntilView("Cancel run", "[y/N]")
}
