package run

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/runid"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type logsOptions struct {
	cmdutil.Deps
	repo string
	id   int64
	job  string
}

func newLogsCmd(f *cmdutil.Factory, runF func(context.Context, *logsOptions) error) *cobra.Command {
	opts := &logsOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runLogs)
	cmd := &cobra.Command{
		Use:   "logs ID",
		Short: "Print the logs of a run's jobs, each line prefixed by its job's name",
		Long: `Print the log of every job of a run, in the order the jobs run, each line
prefixed by the job's name (piped: the name and a tab, for cut and grep).
--job narrows it to one job, by ID or by name. The logs are streamed, never
held in memory whole. A run still in progress prints its logs so far.

For one job's log without prefixes, use forge job logs JOB_ID.`,
		Example: `  forge run logs 12
  forge run logs 12 --job test
  forge run logs 12 | grep -i error`,
	}
	runid.Arg(cmd, f, &opts.id, &opts.repo, func(cmd *cobra.Command) error {
		return runF(cmd.Context(), opts)
	})
	cmdutil.AddRepoFlag(cmd, &opts.repo)
	cmd.Flags().StringVarP(&opts.job, "job", "j", "", "Only this `job`, by ID or name")
	return cmd
}

func runLogs(ctx context.Context, opts *logsOptions) error {
	c, repo, err := opts.RepoClient(ctx, opts.repo)
	if err != nil {
		return err
	}
	jobs, err := client.Collect(c.Actions.ListJobs(ctx, repo, opts.id, client.ListOptions{PerPage: 100}), 0)
	if err != nil {
		return err
	}
	if opts.job != "" {
		j, err := pickJob(jobs, opts.job, opts.id)
		if err != nil {
			return err
		}
		jobs = []*client.Job{j}
	}
	defer opts.IO.StartPager()()
	return printLogs(ctx, opts.IO, c, repo, opts.id, jobs)
}

// printLogs writes the logs of jobs, each line prefixed by its job's
// name, after a warning when a job is still running.
func printLogs(ctx context.Context, ios *iostreams.IOStreams, c *client.Client, repo client.RepoName, runID int64, jobs []*client.Job) error {
	for _, j := range jobs {
		if !client.Done(j.Status, j.Conclusion) {
			ios.ErrPrintf("%s run %d is still in progress; these are its logs so far (follow it with `forge run watch %d`)\n",
				ios.ErrColorScheme().WarningIcon(), runID, runID)
			break
		}
	}
	width := 0
	for _, j := range jobs {
		width = max(width, len(text.OneLine(j.Name)))
	}
	out := bufio.NewWriterSize(ios.Out, 32<<10)
	cs := ios.ColorScheme()
	for _, j := range jobs {
		prefix := text.Flatten(j.Name) + "\t"
		if ios.IsStdoutTTY() {
			prefix = string(cs.Cyan(fmt.Sprintf("%-*s", width, text.OneLine(j.Name)))) + "  "
		}
		pw := &prefixWriter{w: out, prefix: prefix, atStart: true}
		if err := copyJobLog(ctx, c, repo, j.ID, pw, ios.IsStdoutTTY()); err != nil {
			out.Flush()
			return err
		}
	}
	return out.Flush()
}

// copyJobLog streams one job's log into w: on a terminal line by line
// through text.LogLine, so the log keeps its colours and nothing else of
// the server's reaches the terminal; piped, as the server sent it.
func copyJobLog(ctx context.Context, c *client.Client, repo client.RepoName, jobID int64, w *prefixWriter, tty bool) error {
	body, err := c.Actions.JobLogs(ctx, repo, jobID)
	if err != nil {
		return err
	}
	defer body.Close()
	var dst io.Writer = w
	lw := text.NewLogWriter(w)
	if tty {
		dst = lw
	}
	if _, err := io.Copy(dst, body); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("reading the log of job %d: %w", jobID, err)
	}
	if err := lw.Flush(); err != nil {
		return err
	}
	return w.endLine()
}

// pickJob finds --job among a run's jobs: an ID, else a name (exactly,
// then ignoring case).
func pickJob(jobs []*client.Job, want string, runID int64) (*client.Job, error) {
	if id, err := strconv.ParseInt(want, 10, 64); err == nil {
		for _, j := range jobs {
			if j.ID == id {
				return j, nil
			}
		}
	}
	for _, j := range jobs {
		if j.Name == want {
			return j, nil
		}
	}
	for _, j := range jobs {
		if strings.EqualFold(j.Name, want) {
			return j, nil
		}
	}
	names := make([]string, 0, len(jobs))
	for _, j := range jobs {
		names = append(names, fmt.Sprintf("%s (%d)", j.Name, j.ID))
	}
	have := "it has no jobs"
	if len(names) > 0 {
		have = "its jobs: " + strings.Join(names, ", ")
	}
	return nil, fmt.Errorf("run %d has no job %q; %s", runID, want, have)
}

// prefixWriter writes its input with prefix at the start of every line.
type prefixWriter struct {
	w       *bufio.Writer
	prefix  string
	atStart bool
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if p.atStart {
			p.w.WriteString(p.prefix)
			p.atStart = false
		}
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			p.w.Write(b)
			break
		}
		p.w.Write(b[:i+1])
		b = b[i+1:]
		p.atStart = true
	}
	// bufio.Writer keeps its first error and returns it from every later
	// call: a closed pipe stops the copy here.
	if _, err := p.w.Write(nil); err != nil {
		return 0, err
	}
	return n, nil
}

// endLine ends a log whose last line has no newline, so the next job's
// lines start on their own.
func (p *prefixWriter) endLine() error {
	if !p.atStart {
		p.atStart = true
		_, err := p.w.WriteString("\n")
		return err
	}
	return nil
}
