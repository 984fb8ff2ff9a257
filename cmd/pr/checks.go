package pr

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/poll"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

// checkScan is how many of the repository's latest runs are searched for
// the head commit's: the service cannot filter runs by commit.
const checkScan = 200

type checksOptions struct {
	gitOptions
	exporter *output.Exporter
	watch    bool
	interval string
}

func newChecksCmd(f *cmdutil.Factory, runF func(context.Context, *checksOptions) error) *cobra.Command {
	opts := &checksOptions{gitOptions: gitOptions{Deps: f.Deps()}}
	runF = cmdcore.Seam(runF, runChecks)
	cmd := prArg(&cobra.Command{
		Use:   "checks [NUMBER | URL]",
		Short: "Show the CI runs of a pull request's head commit",
		Long: `Show the workflow runs of the pull request's head commit (its head sha),
found among the repository's latest 200 runs: the service cannot list runs
by commit. On a terminal a table, each run's state marked as forge run list
marks it (✓ success, ✗ failed, ⊘ cancelled, - skipped, * running, • waiting);
piped, one line each: status, conclusion, workflow, ID and elapsed time.

Without a NUMBER: the open pull request whose head is the branch checked
out here.

Exits 1 when a run failed (failure, timed_out, cancelled, ...); else 8
while a run is still queued or running (gh's code for pending checks), so
"forge pr checks 3 && deploy" holds until every run passed; skipped and
neutral runs count as passed. --watch waits, polling every --interval,
until no run is still going, then exits by the same rule.`,
		Example: `  forge pr checks 3
  forge pr checks --watch && ./deploy
  forge pr checks 3 --json id,status,conclusion`,
	}, &opts.gitOptions, func(ctx context.Context, _ *gitOptions) error { return runF(ctx, opts) })
	opts.exporter = output.AddJSONFlags(cmd, "id", "name", "status", "conclusion", "head_sha", "html_url", "created_at", "updated_at")
	cmd.Flags().BoolVar(&opts.watch, "watch", false, "Wait until no run is still going, then exit by the same rule")
	cmd.Flags().StringVarP(&opts.interval, "interval", "i", "10", "With --watch, time between refreshes: `seconds`, or a duration such as 500ms")
	return cmd
}

func runChecks(ctx context.Context, opts *checksOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	interval, err := poll.ParseInterval(opts.interval)
	if err != nil {
		return err
	}
	c, name, p, err := opts.pull(ctx)
	if err != nil {
		return err
	}
	runs, err := headRuns(ctx, c, name, p)
	for err == nil && opts.watch && pending(runs) > 0 {
		if opts.IO.IsStderrTTY() {
			opts.IO.ErrPrintf("Waiting for %s of pull request #%d (%s); Ctrl-C to stop\n",
				text.Count(pending(runs), "run"), p.Number, text.OneLine(checksSummary(runs)))
		}
		if err = poll.Sleep(ctx, interval); err == nil {
			runs, err = headRuns(ctx, c, name, p)
		}
	}
	if err != nil {
		return err
	}
	if err := printChecks(opts, p, runs); err != nil {
		return err
	}
	for _, r := range runs {
		if r.Failed() {
			return cmdcore.ErrSilent
		}
	}
	if n := pending(runs); n > 0 {
		if opts.IO.IsStderrTTY() {
			opts.IO.ErrPrintf("%s still going (exit 8); --watch waits for them\n", text.Count(n, "run"))
		}
		return &cmdcore.ExitError{Code: cmdcore.ExitPending}
	}
	return nil
}

// pending counts the runs not finished yet.
func pending(runs []*client.WorkflowRun) int {
	n := 0
	for _, r := range runs {
		if !client.Done(r.Status, r.Conclusion) {
			n++
		}
	}
	return n
}

func printChecks(opts *checksOptions, p *client.PullRequest, runs []*client.WorkflowRun) error {
	ios := opts.IO
	if opts.exporter.Enabled() {
		raw := make([]any, 0, len(runs))
		for _, r := range runs {
			raw = append(raw, r.RawJSON())
		}
		return opts.exporter.Write(ios, raw)
	}
	if len(runs) == 0 {
		ios.ErrPrintf("No CI runs for the head of pull request #%d (%s)\n", p.Number, text.OneLine(text.ShortSHA(p.Head.SHA)))
		return nil
	}
	tty := ios.IsStdoutTTY()
	t := output.NewTable(ios, "STATUS", "WORKFLOW", "ID", "ELAPSED")
	if !tty {
		t = output.NewTable(ios, "STATUS", "CONCLUSION", "WORKFLOW", "ID", "ELAPSED")
	}
	t.KeepWhole("ID")
	now := time.Now()
	for _, r := range runs {
		if tty {
			output.StateCell(t, r.State())
		} else {
			t.Add(r.Status)
			t.Add(r.Conclusion)
		}
		t.Add(r.Name, output.Bold)
		t.Add(fmt.Sprint(r.ID), output.Cyan)
		t.Add(output.FormatElapsed(r.Elapsed(now)))
		t.EndRow()
	}
	return t.Render()
}

// headRuns are the runs of the pull request's head commit, newest first.
func headRuns(ctx context.Context, c *client.Client, repo client.RepoName, p *client.PullRequest) ([]*client.WorkflowRun, error) {
	if p.Head.SHA == "" {
		return nil, nil
	}
	seq := c.Actions.ListRuns(ctx, repo, client.RunListOptions{ListOptions: client.ListOptions{PerPage: 100}})
	var out []*client.WorkflowRun
	n := 0
	for r, err := range seq {
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(r.HeadSHA, p.Head.SHA) {
			out = append(out, r)
		}
		if n++; n >= checkScan {
			break
		}
	}
	return out, nil
}

// checksSummary is the runs counted by state: "2 success, 1 failure".
func checksSummary(runs []*client.WorkflowRun) string {
	if len(runs) == 0 {
		return "none"
	}
	counts := map[string]int{}
	var order []string
	for _, r := range runs {
		w := r.State().Word
		if counts[w] == 0 {
			order = append(order, w)
		}
		counts[w]++
	}
	parts := make([]string, len(order))
	for i, w := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[w], w)
	}
	return strings.Join(parts, ", ")
}
