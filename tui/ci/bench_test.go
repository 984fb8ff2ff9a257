package ci

import (
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/tuitest"
)

// BenchmarkLogScroll scrolls a job's log a line and draws it: the cost is
// the same for 100 lines as for 10,000, since only the lines in view are
// drawn.
func BenchmarkLogScroll(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			ctx := tuitest.Context(b, tuitest.Server(b), "alice")
			l := NewLog(ctx, tuitest.Webapp, &client.WorkflowRun{ID: 1}, &client.Job{ID: 1, Name: "build", Status: "completed", Conclusion: "success"})
			var log strings.Builder
			for i := range n {
				fmt.Fprintf(&log, "2026-11-20T12:00:%02d.000Z step %d: compiling package example.com/app/internal/module%d\n", i%60, i, i)
			}
			l.load.Done = true
			l.add(0, []byte(log.String()))
			l.SetSize(80, 20)
			up := tuitest.KeyPress("k")
			down := tuitest.KeyPress("j")
			l.Update(tuitest.KeyPress("g"))
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					l.Update(down)
				} else {
					l.Update(up)
				}
				l.View()
			}
		})
	}
}

// BenchmarkLogSearch types a query into the search of a 10,000-line log
// (every key scans the whole log for the new query) and goes to the next
// match, drawing the frame after each key.
func BenchmarkLogSearch(b *testing.B) {
	ctx := tuitest.Context(b, tuitest.Server(b), "alice")
	l := NewLog(ctx, tuitest.Webapp, &client.WorkflowRun{ID: 1}, &client.Job{ID: 1, Name: "build", Status: "completed", Conclusion: "success"})
	var log strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&log, "2026-11-20T12:00:%02d.000Z step %d: compiling package example.com/app/internal/module%d\n", i%60, i, i)
	}
	l.load.Done = true
	l.add(0, []byte(log.String()))
	l.SetSize(80, 20)
	keys := []string{"/", "m", "o", "d", "u", "l", "e", "9", "enter", "n", "N", "esc"}
	b.ResetTimer()
	for b.Loop() {
		for _, k := range keys {
			l.Update(tuitest.KeyPress(k))
			l.View()
		}
	}
}
