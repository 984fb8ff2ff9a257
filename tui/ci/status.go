// Package ci holds the TUI's CI views: a repository's workflow runs with
// live status (refreshed in the background while any is unfinished), a
// run's jobs, and a job's log in a pager that follows new lines.
package ci

import (
	"fmt"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// pollEvery is how often unfinished runs and jobs are asked about; logs
// of running jobs are asked for every logEvery.
const (
	pollEvery = 2 * time.Second
	logEvery  = time.Second
)

type pollMsg struct{ owner, gen int }

// pollAgain schedules owner's next poll, every from now, when again is
// set; *gen counts owner's polls, and only the tick of the latest one is
// acted on.
func pollAgain(owner int, gen *int, every time.Duration, again bool) tea.Cmd {
	if !again {
		return nil
	}
	*gen++
	g := *gen
	return tea.Tick(every, func(time.Time) tea.Msg { return pollMsg{owner: owner, gen: g} })
}

// icon draws a status as every interface does (client.State), in the
// TUI's styles; a running one is the spinner.
func icon(ctx *common.Context, status, conclusion string) string {
	st := ctx.Styles
	s := client.State(status, conclusion)
	switch s.Tone {
	case client.Pending:
		if status == "in_progress" {
			return st.Accent.Render(ctx.Spinner)
		}
		return st.Warning.Render(s.Mark)
	case client.Good:
		return st.Success.Render(s.Mark)
	case client.Bad:
		return st.Failure.Render(s.Mark)
	}
	return st.Dim.Render(s.Mark)
}

// describe says a status in words: client.State's word ("success",
// "queued"), but "in progress" with a space.
//
// What the service names its states is drawn as text: sanitized here,
// for every view that shows it.
func describe(status, conclusion string) string {
	if w := client.State(status, conclusion).Word; w != "in_progress" {
		return text.OneLine(w)
	}
	return "in progress"
}

// searchWords are the words a filter finds a run or job by, besides what
// its row shows: its state in words ("in progress", "failure") and as
// the service names it ("in_progress").
func searchWords(status, conclusion string) string {
	return describe(status, conclusion) + " " + status + " " + conclusion
}

// duration says how long something ran: "42s", "3m 05s"; while it runs,
// up to now.
func duration(start, end client.Time, now time.Time) string {
	if start.IsZero() {
		return ""
	}
	stop := now
	if !end.IsZero() {
		stop = end.Time
	}
	d := stop.Sub(start.Time).Round(time.Second)
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm %02ds", int(d/time.Minute), int(d/time.Second)%60)
	}
	return fmt.Sprintf("%dh %02dm", int(d/time.Hour), int(d/time.Minute)%60)
}

// askAbout opens the chat with run attached (its jobs and the log tails
// of the failed ones); about names what failed for the suggested question
// ("job test", "this run").
func askAbout(repo client.RepoName, run *client.WorkflowRun, about string, failedNow bool) tea.Cmd {
	prompt := ""
	if failedNow {
		prompt = "Why did " + about + " fail?"
	}
	return common.AskAgent(repo, "run:"+strconv.FormatInt(run.ID, 10), prompt)
}

// runTitle is what a run is called: its display title, else its name.
func runTitle(r *client.WorkflowRun) string {
	if r.DisplayTitle != "" {
		return text.OneLine(r.DisplayTitle)
	}
	return text.OneLine(r.Name)
}
