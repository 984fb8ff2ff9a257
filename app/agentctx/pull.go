package agentctx

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/app/changes"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
)

// pull: the number, title, state, author, branches and body, then what
// the pull request changed, as the TUI's Diff shows it (app/changes):
// each file's unified diff. The diff is a section of its own, cut from
// its end to fit the budget like the rest.
func pull(ctx context.Context, c *client.Client, repo client.RepoName, n int64) (*chat.Attachment, error) {
	pr, err := c.Pulls.Get(ctx, repo, n)
	if err != nil {
		return nil, err
	}
	files, diffs, err := changes.Pull(ctx, c, repo, pr)
	if err != nil {
		return nil, fmt.Errorf("the diff: %w", err)
	}
	a := described(fmt.Sprintf("Pull request #%d in %s: %s", pr.Number, repo, pr.Title), pr.StateWord(), pr.User.Login, pr.CreatedAt, pr.Body,
		fmt.Sprintf("branches: %s ← %s (base ← head)", pr.Base.Ref, pr.Head.Ref))
	added, removed := 0, 0
	var dl []string
	for _, d := range diffs {
		added, removed = added+d.Added, removed+d.Removed
		line := fileLine(d.Status, d.Path, &d.Added, &d.Removed)
		if d.Note != "" {
			line = d.Status + " " + d.Path + ": " + d.Note
		}
		dl = append(dl, line)
		dl = append(dl, lines(d.Unified)...)
	}
	if len(files) == 0 {
		dl = []string{"(no changes since the base branch)"}
	}
	a.Sections = append(a.Sections, &chat.Section{
		Title: fmt.Sprintf("diff: %s, +%d -%d", text.Count(len(files), "changed file"), added, removed),
		Lines: dl,
	})
	return a, nil
}
