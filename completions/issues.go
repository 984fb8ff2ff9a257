package completions

import (
	"context"
	"iter"
	"strconv"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/spf13/cobra"
)

// maxItems bounds the issues or runs one completion offers: the newest.
const maxItems = 100

// Issues completes the first argument with the numbers of the
// repository's issues in state (open, closed or all), each described by
// its title: open ones for `issue close`, closed ones for `reopen`.
func Issues(f *cmdutil.Factory, state string) Func {
	return fromRepo(f, func(ctx context.Context, c *client.Client, repo client.RepoName) iter.Seq2[*client.Issue, error] {
		return c.Issues.List(ctx, repo, client.IssueListOptions{State: state, ListOptions: client.ListOptions{PerPage: maxItems}})
	}, func(is *client.Issue) cobra.Completion {
		return cobra.CompletionWithDesc(strconv.FormatInt(is.Number, 10), oneLine(is.Title))
	})
}

// Runs completes the first argument with the IDs of the repository's
// newest workflow runs, each described by its name, branch and state.
func Runs(f *cmdutil.Factory) Func {
	return fromRepo(f, func(ctx context.Context, c *client.Client, repo client.RepoName) iter.Seq2[*client.WorkflowRun, error] {
		return c.Actions.ListRuns(ctx, repo, client.RunListOptions{ListOptions: client.ListOptions{PerPage: maxItems}})
	}, func(r *client.WorkflowRun) cobra.Completion {
		state := r.Status
		if r.Conclusion != "" {
			state = r.Conclusion
		}
		return cobra.CompletionWithDesc(strconv.FormatInt(r.ID, 10), oneLine(r.Name+" on "+r.HeadBranch+": "+state))
	})
}

// Releases completes the first argument with the tags of the repository's
// newest releases, each described by its title.
func Releases(f *cmdutil.Factory) Func {
	return fromRepo(f, func(ctx context.Context, c *client.Client, repo client.RepoName) iter.Seq2[*client.Release, error] {
		return c.Releases.List(ctx, repo, client.ListOptions{PerPage: maxItems})
	}, func(r *client.Release) cobra.Completion {
		return cobra.CompletionWithDesc(oneLine(r.TagName), oneLine(r.Name))
	})
}

// fromRepo completes the first argument with up to maxItems of what list
// yields for the command's repository, each made a completion by item; a
// failed request ends the list where it is (completion never errors).
func fromRepo[T any](f *cmdutil.Factory, list func(context.Context, *client.Client, client.RepoName) iter.Seq2[T, error], item func(T) cobra.Completion) Func {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, noFiles
		}
		c, _, _ := rest(f)
		if c == nil {
			return nil, noFiles
		}
		ctx, cancel := withTimeout(cmd)
		defer cancel()
		repo, ok := repoOf(ctx, f, cmd)
		if !ok {
			return nil, noFiles
		}
		var out []cobra.Completion
		for v, err := range list(ctx, c, repo) {
			if err != nil {
				break
			}
			out = append(out, item(v))
			if len(out) == maxItems {
				break
			}
		}
		return out, noFiles
	}
}

// IssuesNotIn completes the issues that a command putting them in state
// want would change: open ones for `issue close` (want "closed"), closed
// ones for `issue reopen` (want "open").
func IssuesNotIn(f *cmdutil.Factory, want string) Func {
	if want == "closed" {
		return Issues(f, "open")
	}
	return Issues(f, "closed")
}
