package output

import (
	"time"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/iostreams"
)

// The colours of client.State's tones, for the commands that show a run's,
// job's or check's state (the TUI has its own styles for the same tones).
var toneColors = map[client.Tone]struct {
	cell Color
	name string // for ColorScheme.Named
}{
	client.Pending: {Yellow, "yellow"},
	client.Good:    {Green, "green"},
	client.Bad:     {Red, "red"},
	client.Muted:   {Gray, "gray"},
}

// StateMark is a state's mark in its colour, for lines drawn with cs.
func StateMark(cs *iostreams.ColorScheme, s client.RunState) iostreams.Styled {
	return cs.Named(toneColors[s.Tone].name, s.Mark)
}

// StateCell adds a state to a table's row: "✗ failure" in its colour.
func StateCell(t *Table, s client.RunState) {
	t.Add(s.Mark+" "+s.Word, toneColors[s.Tone].cell)
}

// FormatElapsed is how long a run or job took (WorkflowRun.Elapsed,
// Job.Elapsed) as Go writes a duration, "1m5s" (time.ParseDuration reads
// it back); "" when unknown.
func FormatElapsed(d time.Duration, ok bool) string {
	if !ok {
		return ""
	}
	return d.String()
}
