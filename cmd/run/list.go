package run

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/listing"
	"github.com/spf13/cobra"
)

type listOptions struct {
	cmdutil.Deps
	list   listing.Flags
	repo   string
	branch string
	status string
	event  string
	// Filters the service does not offer, applied to the pages as they
	// come: the limit counts the runs kept.
	workflow, commit, user string
}

func newListCmd(f *cmdutil.Factory, runF func(context.Context, *listOptions) error) *cobra.Command {
	opts := &listOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runList)
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List a repository's recent workflow runs",
		Long: `List workflow runs, newest first. On a terminal: a table with a status mark
(✓ success, ✗ failed, ⊘ cancelled, - skipped, * running, • waiting, as in
forge pr checks), relative ages and durations. Piped: tab-separated fields
status, conclusion, title, workflow, branch, event, ID, elapsed and creation
time (ISO 8601).`,
		Example: `  forge run list
  forge run list -R alice/demo --limit 5
  forge run list --status failure --json id,head_branch`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repo)
	cmd.Flags().StringVarP(&opts.branch, "branch", "b", "", "Only runs on this `branch`")
	cmdcore.EnumFlag(cmd, &opts.status, "status", "s", "", runStatuses, "Only runs with this `status` or conclusion")
	cmd.Flags().StringVarP(&opts.event, "event", "e", "", "Only runs triggered by this `event` (push, pull_request, ...)")
	cmd.Flags().StringVarP(&opts.workflow, "workflow", "w", "", "Only runs of the workflow of this `name` (filtered by forge)")
	cmd.Flags().StringVarP(&opts.commit, "commit", "c", "", "Only runs of the commit whose SHA starts with `sha` (filtered by forge)")
	cmd.Flags().StringVarP(&opts.user, "user", "u", "", "Only runs triggered by this `login` (filtered by forge)")
	opts.list.Add(cmd, 20, "runs", runFields...)
	return cmd
}

// runStatuses are the values --status takes: a run's status or its
// conclusion, as the service filters them.
var runStatuses = []string{"queued", "in_progress", "completed", "success", "failure", "cancelled"}

func runList(ctx context.Context, opts *listOptions) error {
	c, repo, err := opts.list.RepoClient(ctx, opts.Deps, opts.repo)
	if err != nil {
		return err
	}
	runs := listing.Filter(c.Actions.ListRuns(ctx, repo, client.RunListOptions{
		ListOptions: opts.list.PerPage(),
		Branch:      opts.branch, Status: opts.status, Event: opts.event,
	}), opts.keep)
	ios := opts.IO
	tty := ios.IsStdoutTTY()
	now := time.Now()
	var t *output.Table
	if tty {
		t = output.NewTable(ios, "STATUS", "TITLE", "WORKFLOW", "BRANCH", "EVENT", "ID", "ELAPSED", "AGE")
	} else {
		t = output.NewTable(ios, "STATUS", "CONCLUSION", "TITLE", "WORKFLOW", "BRANCH", "EVENT", "ID", "ELAPSED", "CREATED")
	}
	t.KeepWhole("ID")
	t.DropFirst("EVENT", "ELAPSED", "WORKFLOW", "BRANCH") // a title and an age read best
	return listing.Show(ctx, listing.Tail{IO: ios, Flags: &opts.list, Table: t, Filtered: opts.workflow != "" || opts.commit != "" || opts.user != "", In: repo.String(), Empty: fmt.Sprintf("No workflow runs in %s.", repo)}, runs, func(r *client.WorkflowRun) {
		if tty {
			output.StateCell(t, r.State())
		} else {
			t.Add(r.Status)
			t.Add(r.Conclusion)
		}
		title := r.DisplayTitle
		if title == "" {
			title = r.Name
		}
		t.Add(title, output.Bold)
		t.Add(r.Name)
		t.Add(r.HeadBranch, output.Cyan)
		t.Add(r.Event)
		t.Add(fmt.Sprint(r.ID), output.Cyan)
		t.Add(output.FormatElapsed(r.Elapsed(now)))
		t.AddTime(r.CreatedAt.Time)
		t.EndRow()
	})
}

// keep applies --workflow, --commit and --user, which the service's run
// list does not take.
func (opts *listOptions) keep(r *client.WorkflowRun) bool {
	return (opts.workflow == "" || strings.EqualFold(r.Name, opts.workflow)) &&
		(opts.commit == "" || strings.HasPrefix(strings.ToLower(r.HeadSHA), strings.ToLower(opts.commit))) &&
		(opts.user == "" || strings.EqualFold(r.Actor.Login, strings.TrimPrefix(opts.user, "@")))
}
