package job

import (
	"context"
	"fmt"
	"io"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type logsOptions struct {
	cmdutil.Deps
	repo string
	id   int64
}

func newLogsCmd(f *cmdutil.Factory, runF func(context.Context, *logsOptions) error) *cobra.Command {
	opts := &logsOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runLogs)
	cmd := &cobra.Command{
		Use:   "logs JOB_ID",
		Short: "Print a job's log as plain text",
		Long: `Print a job's log exactly as the service sends it (text/plain), streamed to
stdout as it arrives: a log of any size goes straight through to a file or a
pipe. Job IDs are shown by forge run view. A job still running prints its
log so far.`,
		Example: `  forge job logs 34
  forge job logs 34 -R alice/demo > build.log
  forge job logs "$(forge run view 12 --jq '.jobs[0].id')" | tail -n 20`,
		Args: cmdcore.ExactArgs(1, "a job ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := cmdcore.ParseNumber(args[0], "job ID")
			if err != nil {
				return err
			}
			opts.id = id
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repo)
	return cmd
}

func runLogs(ctx context.Context, opts *logsOptions) error {
	c, repo, err := opts.RepoClient(ctx, opts.repo)
	if err != nil {
		return err
	}
	body, err := c.Actions.JobLogs(ctx, repo, opts.id)
	if err != nil {
		return err
	}
	defer body.Close()
	// On a terminal line by line through text.LogLine (colours kept,
	// every other control shown); piped, as the server sent it.
	ios := opts.IO
	dst := ios.Out
	lw := text.NewLogWriter(ios.Out)
	if ios.IsStdoutTTY() {
		dst = lw
	}
	if _, err := io.Copy(dst, body); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("reading the log of job %d: %w", opts.id, err)
	}
	return lw.Flush()
}
