package run

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/runid"
	"github.com/forgehq/forge/internal/browser"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type viewOptions struct {
	cmdutil.Deps
	exporter *output.Exporter
	repo     string
	id       int64
	explain  bool
	web      bool
	// logFailed prints the failed jobs' logs instead of the summary;
	// exitStatus exits 1 when the run failed (client.Failed).
	logFailed, exitStatus bool
	agent                 agentOptions
}

func newViewCmd(f *cmdutil.Factory, runF func(context.Context, *viewOptions) error) *cobra.Command {
	opts := &viewOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runView)
	cmd := &cobra.Command{
		Use:   "view [ID | URL]",
		Short: "Show a workflow run and its jobs",
		Long: `Show a workflow run: its state, branch, commit and trigger, and each job
with its outcome and duration (and the steps of jobs that failed or are
running). Piped, one "key:<TAB>value" line per field and one
"job:<TAB>ID<TAB>NAME<TAB>STATUS<TAB>CONCLUSION<TAB>ELAPSED" line per job.
With --json, the run's fields plus "jobs", the list of its jobs.

With --explain, when the run has failed (as --exit-status counts it) forge
then asks the agent why, as forge run explain does, and streams the answer
after the run; a run that finished without failing gets one line on stderr
saying so, and nothing is asked.

--log-failed prints the logs of the jobs that failed by themselves instead
(failure, timed_out, ...; not those cancelled), as forge run logs does.
--exit-status exits 1 when the run failed (failure, timed_out,
cancelled, ...), so a script can tell; a skipped or neutral run, or one
still going, exits 0.

Without an ID on a terminal, forge offers the recent runs to choose from.`,
		Example: `  forge run view 12
  forge run view 12 --json status,conclusion,jobs
  forge run view 12 --jq '.jobs[] | select(.conclusion == "failure") | .id'`,
	}
	runid.ArgOrPick(cmd, f, &opts.id, &opts.repo, func(cmd *cobra.Command) error {
		if err := opts.agent.limit.Check(cmd); err != nil {
			return err
		}
		return runF(cmd.Context(), opts)
	})
	cmdutil.AddRepoFlag(cmd, &opts.repo)
	opts.exporter = output.AddJSONFlags(cmd, append(runFields, "jobs")...)
	cmd.Flags().BoolVarP(&opts.web, "web", "w", false, "Open the run in the browser")
	cmd.Flags().BoolVar(&opts.logFailed, "log-failed", false, "Print the logs of the jobs that failed, not those cancelled (as forge run logs does)")
	cmd.Flags().BoolVar(&opts.exitStatus, "exit-status", false, "Exit with status 1 when the run failed (cancelled too; not skipped or neutral)")
	cmd.Flags().BoolVar(&opts.explain, "explain", false, "When the run has failed, ask the agent why (see forge run explain)")
	addAgentFlags(cmd, f, &opts.agent)
	return cmd
}

func runView(ctx context.Context, opts *viewOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	if opts.explain && opts.exporter.Enabled() {
		return cmdcore.UsageErrorf("--explain streams the agent's answer after the run; it does not go with --json, --jq or --template")
	}
	c, repo, err := opts.RepoClient(ctx, opts.repo)
	if err != nil {
		return err
	}
	run, jobs, err := fetchRun(ctx, c, repo, opts.id)
	if err != nil {
		return err
	}
	ios := opts.IO
	if opts.web {
		return browser.Open(ios, opts.Getenv, run.HTMLURL)
	}
	if !opts.explain {
		defer ios.StartPager()() // an agent's answer streams: no pager
	}
	if opts.logFailed {
		var failed []*client.Job
		for _, j := range jobs {
			if client.Broke(j.Conclusion) { // not a job someone cancelled
				failed = append(failed, j)
			}
		}
		if len(failed) == 0 {
			ios.ErrPrintf("No failed jobs in run %d (%s)\n", run.ID, stateWords(run.Status, run.Conclusion))
		} else if err := printLogs(ctx, ios, c, repo, run.ID, failed); err != nil {
			return err
		}
		return opts.exit(run)
	}
	if opts.exporter.Enabled() {
		v, err := withJobs(run, jobs)
		if err != nil {
			return err
		}
		return opts.exporter.Write(ios, v)
	}
	if !ios.IsStdoutTTY() {
		err = writePlain(ios.Out, run, jobs)
	} else {
		cs := ios.ColorScheme()
		lines := renderRun(cs, run, jobs, time.Now())
		lines = append(lines, "", cs.Gray(fmt.Sprintf("Logs: forge run logs %d -R %s", run.ID, repo)))
		if run.HTMLURL != "" {
			lines = append(lines, cs.Gray(text.OneLine(run.HTMLURL))) // server text: a title, a clear screen, OSC 52 ...
		}
		err = ios.Println(iostreams.Join(lines, "\n"))
	}
	if err == nil && opts.explain {
		err = explainAfter(ctx, opts.IO, &opts.agent, c, repo, run, jobs)
	}
	if err != nil {
		return err
	}
	return opts.exit(run)
}

// exit is --exit-status: 1 when the run failed.
func (opts *viewOptions) exit(run *client.WorkflowRun) error {
	if opts.exitStatus && run.Failed() {
		return &cmdcore.ExitError{Code: cmdcore.ExitFailure}
	}
	return nil
}

// explainAfter is --explain: after a run that failed (client.Failed), a
// blank line and the agent's answer; after one that finished otherwise, a
// line on stderr saying there is nothing to explain.
func explainAfter(ctx context.Context, ios *iostreams.IOStreams, o *agentOptions, c *client.Client, repo client.RepoName, run *client.WorkflowRun, jobs []*client.Job) error {
	if !client.Done(run.Status, run.Conclusion) || notFailed(ios, run) {
		return nil
	}
	ios.Println()
	return explainRun(ctx, ios, o, c, repo, run, jobs, ios.Out)
}

// withJobs is the run as the server sent it plus "jobs", the jobs as the
// server sent them.
func withJobs(run *client.WorkflowRun, jobs []*client.Job) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if err := json.Unmarshal(run.RawJSON(), &out); err != nil {
		return nil, fmt.Errorf("decoding the run: %w", err)
	}
	list := make([]json.RawMessage, 0, len(jobs))
	for _, j := range jobs {
		list = append(list, j.RawJSON())
	}
	b, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	out["jobs"] = b
	return out, nil
}

// renderRun draws a run and its jobs for a terminal, one string per line
// (none of them ends in a newline), the server's words sanitized; run
// watch redraws the same lines.
func renderRun(cs *iostreams.ColorScheme, run *client.WorkflowRun, jobs []*client.Job, now time.Time) []iostreams.Styled {
	header := output.StateMark(cs, run.State()) + " " + cs.Bold(text.OneLine(joinNonEmpty(" ", run.HeadBranch, run.Name))) +
		" · " + cs.Cyan(fmt.Sprint(run.ID))
	lines := []iostreams.Styled{header}
	if run.DisplayTitle != "" && run.DisplayTitle != run.Name {
		lines = append(lines, cs.Sprintf("%s", run.DisplayTitle))
	}
	trigger := ""
	if run.Event != "" {
		trigger = "Triggered via " + run.Event
		if run.Actor.Login != "" {
			trigger += " by " + run.Actor.Login
		}
		if !run.CreatedAt.IsZero() {
			trigger += " " + output.FormatTime(run.CreatedAt.Time, true)
		}
	}
	lines = append(lines, cs.Sprintf("%s", joinNonEmpty(" · ", trigger, text.ShortSHA(run.HeadSHA), stateText(run.Status, run.Conclusion, output.FormatElapsed(run.Elapsed(now))))))
	lines = append(lines, "", cs.Bold("JOBS"))
	if len(jobs) == 0 {
		lines = append(lines, cs.Gray("(no jobs yet)"))
	}
	for _, j := range jobs {
		line := output.StateMark(cs, j.State()) + " " + cs.Bold(text.OneLine(j.Name))
		if d := output.FormatElapsed(j.Elapsed(now)); d != "" {
			line += cs.Sprintf(" in %s", d)
		}
		if !client.Done(j.Status, j.Conclusion) {
			line += " " + cs.Gray("("+text.OneLine(j.State().Word)+")")
		}
		line += cs.Gray(fmt.Sprintf(" (ID %d)", j.ID))
		lines = append(lines, line)
		if showSteps(j) {
			for _, s := range j.Steps {
				lines = append(lines, cs.Sprintf("  %s %s", output.StateMark(cs, s.State()), s.Name))
			}
		}
	}
	return lines
}

// showSteps: a job's steps are worth showing while it runs and when it
// failed, to point at the step to look at.
func showSteps(j *client.Job) bool {
	if !client.Done(j.Status, j.Conclusion) {
		return j.Status == "in_progress"
	}
	return j.State().Tone == client.Bad
}

// stateText says where a run is: "success in 11s", "in_progress for 4s",
// "queued".
func stateText(status, conclusion, took string) string {
	word := client.State(status, conclusion).Word
	switch {
	case took == "":
		return word
	case client.Done(status, conclusion):
		return word + " in " + took
	}
	return word + " for " + took
}

// writePlain prints a run for scripts: "key:\tvalue" lines, then one
// "job:" line per job.
func writePlain(w io.Writer, run *client.WorkflowRun, jobs []*client.Job) error {
	var b strings.Builder
	field := func(k, v string) { fmt.Fprintf(&b, "%s:\t%s\n", k, text.Flatten(v)) }
	iso := func(t client.Time) string { return output.FormatTime(t.Time, false) }
	field("id", fmt.Sprint(run.ID))
	field("name", run.Name)
	field("title", run.DisplayTitle)
	field("status", run.Status)
	field("conclusion", run.Conclusion)
	field("branch", run.HeadBranch)
	field("sha", run.HeadSHA)
	field("event", run.Event)
	field("actor", run.Actor.Login)
	field("created", iso(run.CreatedAt))
	field("started", iso(run.RunStartedAt))
	field("updated", iso(run.UpdatedAt))
	field("url", run.HTMLURL)
	now := time.Now()
	for _, j := range jobs {
		fmt.Fprintf(&b, "job:\t%d\t%s\t%s\t%s\t%s\n", j.ID, text.Flatten(j.Name), j.Status, j.Conclusion, output.FormatElapsed(j.Elapsed(now)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
