package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/poll"
	"github.com/forgehq/forge/cmd/internal/runid"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type watchOptions struct {
	cmdutil.Deps
	repo       string
	id         int64
	exitStatus bool
	interval   string
	explain    bool
	agent      agentOptions
}

func newWatchCmd(f *cmdutil.Factory, runF func(context.Context, *watchOptions) error) *cobra.Command {
	opts := &watchOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runWatch)
	cmd := &cobra.Command{
		Use:   "watch [ID | URL]",
		Short: "Follow a workflow run until it completes",
		Long: `Follow a workflow run until it completes, polling every --interval.

On a terminal the run and its jobs are redrawn in place (on the alternate
screen, so your scrollback stays as it was); when the run completes, its
final state is printed to the normal screen. Piped, forge prints one plain
line per change of state, for CI logs:

  run 12 CI: in_progress
  job 34 build: in_progress
  job 34 build: completed (success)

When the connection to the service drops (refused, reset, timed out, or a
502, 503 or 504 from a proxy), forge keeps watching: it says that it is
reconnecting and tries again after the interval, doubling the wait up to
15s, for up to 1 minute after the connection was lost; only then does it
give up (exit 1).

With --exit-status, forge exits 1 when the run failed (failure, timed_out,
cancelled, ...) and 0 when it succeeded, was skipped or was neutral — as
run view --exit-status and pr checks count it — so a script can wait for
CI: forge run watch 12 --exit-status && deploy.
With --explain as well, a run that fails is followed by the agent's answer
to why (see forge run explain); the exit status stays the run's.
Ctrl-C stops watching (exit 130), leaving the run's last state on the
normal screen; the run goes on.`,
		Example: `  forge run watch 12
  forge run watch 12 --exit-status --interval 10
  forge run watch "$(forge run list -L 1 --jq '.[0].id')" --exit-status`,
	}
	runid.ArgOrPick(cmd, f, &opts.id, &opts.repo, func(cmd *cobra.Command) error {
		if err := opts.agent.limit.Check(cmd); err != nil {
			return err
		}
		if opts.explain && !opts.exitStatus {
			return cmdcore.UsageErrorf("--explain goes with --exit-status: forge run watch %d --exit-status --explain", opts.id)
		}
		return runF(cmd.Context(), opts)
	})
	cmdutil.AddRepoFlag(cmd, &opts.repo)
	cmd.Flags().BoolVar(&opts.exitStatus, "exit-status", false, "Exit with status 1 when the run failed (cancelled too; not skipped or neutral)")
	cmd.Flags().StringVarP(&opts.interval, "interval", "i", "3", "Time between refreshes: `seconds`, or a duration such as 500ms or 1m")
	cmd.Flags().BoolVar(&opts.explain, "explain", false, "With --exit-status: when the run fails, ask the agent why (see forge run explain)")
	addAgentFlags(cmd, f, &opts.agent)
	return cmd
}

func runWatch(ctx context.Context, opts *watchOptions) error {
	interval, err := poll.ParseInterval(opts.interval)
	if err != nil {
		return err
	}
	c, repo, err := opts.RepoClient(ctx, opts.repo)
	if err != nil {
		return err
	}
	w := &watcher{ctx: ctx, c: c, repo: repo, id: opts.id, interval: interval, reconnectFor: reconnectFor}
	ios := opts.IO
	run, jobs, err := fetchRun(ctx, c, repo, opts.id)
	if err != nil {
		return err
	}
	switch {
	case client.Done(run.Status, run.Conclusion):
		// Nothing to follow: show where it ended, like view.
		if ios.IsStdoutTTY() {
			ios.Println(iostreams.Join(renderRun(ios.ColorScheme(), run, jobs, time.Now()), "\n"))
			ios.ErrPrintf("Run %s has already completed with %q.\n", runTitle(run), run.State().Word)
		} else {
			newChanges().write(ios.Out, run, jobs)
		}
	case ios.IsStdoutTTY():
		if run, err = w.onTerminal(opts, run, jobs); err != nil {
			return err
		}
	default:
		if run, err = w.plain(ios, run, jobs); err != nil {
			return err
		}
	}
	if opts.exitStatus && run.Failed() {
		if opts.explain {
			// jobs may be from before the run completed: read them again.
			if run, jobs, err = fetchRun(ctx, c, repo, opts.id); err != nil {
				return err
			}
			if err := explainAfter(ctx, opts.IO, &opts.agent, c, repo, run, jobs); err != nil {
				return err
			}
		}
		return &cmdcore.ExitError{Code: cmdcore.ExitFailure}
	}
	return nil
}

// reconnectFor is how long a watch keeps trying after the connection to
// the service was lost; maxReconnectWait bounds one wait between tries.
const (
	reconnectFor     = time.Minute
	maxReconnectWait = 15 * time.Second
)

// watcher polls one run.
type watcher struct {
	ctx          context.Context
	c            *client.Client
	repo         client.RepoName
	id           int64
	interval     time.Duration
	reconnectFor time.Duration
}

// wait sleeps one interval; it ends early with the context's error on
// Ctrl-C.
func (w *watcher) wait() error { return poll.Sleep(w.ctx, w.interval) }

// fetch reads the run and its jobs. While the connection to the service is
// lost it tries again — after the interval, then twice as long each time,
// up to maxReconnectWait — for up to reconnectFor, calling status before
// each wait with what it is doing, and with "" once it is back.
func (w *watcher) fetch(status func(string)) (*client.WorkflowRun, []*client.Job, error) {
	var lost time.Time
	delay := w.interval
	for attempt := 1; ; attempt++ {
		run, jobs, err := fetchRun(w.ctx, w.c, w.repo, w.id)
		if err == nil || !connectionLost(err) {
			if !lost.IsZero() && err == nil {
				status("")
			}
			return run, jobs, err
		}
		if lost.IsZero() {
			lost = time.Now()
		}
		left := w.reconnectFor - time.Since(lost)
		if left <= 0 {
			return nil, nil, fmt.Errorf("gave up reconnecting after %s: %w", w.reconnectFor, err)
		}
		wait := min(delay, left, maxReconnectWait)
		status(fmt.Sprintf("connection lost; reconnecting in %s (attempt %d, for up to %s)…", roundWait(wait), attempt, w.reconnectFor))
		if err := poll.Sleep(w.ctx, wait); err != nil {
			return nil, nil, err
		}
		delay *= 2
	}
}

// roundWait rounds a wait for people: 40ms, 1.5s, 37s.
func roundWait(d time.Duration) time.Duration {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond)
	case d < 10*time.Second:
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

// connectionLost reports a failure that trying again later may mend: no
// answer from the service, or a proxy's answer that it is unavailable.
func connectionLost(err error) bool {
	var (
		netErr     *client.NetworkError
		timeoutErr *client.TimeoutError
	)
	return errors.As(err, &netErr) || errors.As(err, &timeoutErr) ||
		client.HasStatus(err, http.StatusBadGateway) ||
		client.HasStatus(err, http.StatusServiceUnavailable) ||
		client.HasStatus(err, http.StatusGatewayTimeout)
}

// plain prints a line per change until the run completes, and returns the
// completed run.
func (w *watcher) plain(ios *iostreams.IOStreams, run *client.WorkflowRun, jobs []*client.Job) (*client.WorkflowRun, error) {
	seen := newChanges()
	for {
		seen.write(ios.Out, run, jobs)
		if client.Done(run.Status, run.Conclusion) {
			return run, nil
		}
		if err := w.wait(); err != nil {
			return nil, err
		}
		var err error
		run, jobs, err = w.fetch(func(msg string) {
			if msg == "" {
				msg = "reconnected"
			}
			ios.ErrPrintf("forge: %s\n", msg)
		})
		if err != nil {
			return nil, err
		}
	}
}

// onTerminal redraws the run in place until it completes, then prints its
// final state on the normal screen. Stopped early — Ctrl-C, or a
// connection that did not come back — it leaves the last state it showed
// there too, so what was watched does not vanish with the alternate
// screen.
func (w *watcher) onTerminal(opts *watchOptions, run *client.WorkflowRun, jobs []*client.Job) (_ *client.WorkflowRun, err error) {
	ios := opts.IO
	cs := ios.ColorScheme()
	scr := newScreen(ios)
	scr.enter()
	defer func() {
		scr.leave()
		if err != nil {
			ios.Println(iostreams.Join(renderRun(cs, run, jobs, time.Now()), "\n"))
		}
	}()
	resized := notifyResize(w.ctx)
	refreshing := cs.Gray(fmt.Sprintf("Refreshing run status every %s. Press Ctrl+C to quit.", w.interval))
	head := refreshing
	frame := func() []iostreams.Styled {
		return append([]iostreams.Styled{head, ""}, renderRun(cs, run, jobs, time.Now())...)
	}
	for !client.Done(run.Status, run.Conclusion) {
		scr.draw(frame())
		t := time.NewTimer(w.interval)
	waiting:
		for {
			select {
			case <-resized:
				scr.draw(frame())
			case <-t.C:
				break waiting
			case <-w.ctx.Done():
				t.Stop()
				return nil, w.ctx.Err()
			}
		}
		next, nextJobs, err := w.fetch(func(msg string) {
			head = refreshing
			if msg != "" {
				head = cs.Yellow(text.Capitalize(msg))
			}
			scr.draw(frame())
		})
		if err != nil {
			return nil, err
		}
		run, jobs = next, nextJobs
	}
	scr.leave()
	ios.Println(iostreams.Join(renderRun(cs, run, jobs, time.Now()), "\n"))
	ios.Printf("\n%s Run %s completed with %q\n", output.StateMark(cs, run.State()), runTitle(run), run.State().Word)
	return run, nil
}

// changes remembers the last state printed for the run and each job, so
// piped output has one line per change.
type changes map[string]string

func newChanges() changes { return changes{} }

// write prints the lines for what changed since the last call: the run
// first while it goes on, last once it completed, so the log reads in
// order.
func (seen changes) write(out io.Writer, run *client.WorkflowRun, jobs []*client.Job) {
	var b strings.Builder
	line := func(key, what, state string) {
		if seen[key] != state {
			seen[key] = state
			fmt.Fprintf(&b, "%s: %s\n", what, state)
		}
	}
	runLine := func() {
		line("run", fmt.Sprintf("run %d %s", run.ID, text.Flatten(run.Name)), stateWords(run.Status, run.Conclusion))
	}
	finished := client.Done(run.Status, run.Conclusion)
	if !finished {
		runLine()
	}
	for _, j := range jobs {
		line(fmt.Sprint("job ", j.ID), fmt.Sprintf("job %d %s", j.ID, text.Flatten(j.Name)), stateWords(j.Status, j.Conclusion))
	}
	if finished {
		runLine()
	}
	io.WriteString(out, b.String())
}

// stateWords is "in_progress", or "completed (success)" once concluded.
func stateWords(status, conclusion string) string {
	if conclusion == "" {
		return client.State(status, "").Word
	}
	if status == "" {
		status = "completed"
	}
	return status + " (" + conclusion + ")"
}
