package pr

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/gitremote"
)

// branchScan bounds how many open pull requests are read to find the one
// whose head is the current branch: the service cannot filter by branch.
const branchScan = 300

// pullNumber is the pull request a verb given no NUMBER acts on, as gh
// chooses it: the open pull request whose head branch is the branch checked
// out here (the repository's own, or a fork's of the same name); else, on a
// terminal, one picked from the recent open ones; else a usage error naming
// the branch. With -R the checkout here says nothing of that repository, so
// the branch is not used.
func pullNumber(ctx context.Context, d cmdutil.Deps, repoFlag, verb string) (int64, error) {
	noWay := cmdcore.UsageErrorf("missing a pull request NUMBER; see `forge pr %s --help`", verb)
	if repoFlag == "" {
		branch, err := gitremote.CurrentBranch(ctx, ".")
		if err == nil && branch != "" {
			n, found, err := branchPull(ctx, d, branch)
			if err != nil || found {
				return n, err
			}
			noWay = cmdcore.UsageErrorf("no open pull request has this branch (%s) as its head; pass a NUMBER", branch)
			if d.IO.CanPrompt() {
				d.IO.ErrPrintf("No open pull request has this branch (%s) as its head.\n", branch)
			}
		}
	}
	return pickPull(ctx, d, repoFlag, noWay)
}

// branchPull finds the open pull request whose head is branch; found is
// false when none is. Two with that head (from two forks) are a usage
// error listing them.
func branchPull(ctx context.Context, d cmdutil.Deps, branch string) (n int64, found bool, err error) {
	c, name, err := d.RepoClient(ctx, "")
	if err != nil {
		return 0, false, err
	}
	var hits []*client.PullRequest
	seen := 0
	for p, err := range c.Pulls.List(ctx, name, client.PullListOptions{ListOptions: client.ListOptions{PerPage: 100}, State: "open"}) {
		if err != nil {
			return 0, false, err
		}
		if p.Head.Ref == branch {
			hits = append(hits, p)
		}
		if seen++; seen >= branchScan {
			break
		}
	}
	switch len(hits) {
	case 0:
		return 0, false, nil
	case 1:
		return hits[0].Number, true, nil
	}
	nums := make([]string, len(hits))
	for i, p := range hits {
		nums[i] = fmt.Sprintf("#%d", p.Number)
	}
	return 0, false, cmdcore.UsageErrorf("open pull requests %s all have this branch (%s) as their head; pass a NUMBER", strings.Join(nums, ", "), branch)
}
