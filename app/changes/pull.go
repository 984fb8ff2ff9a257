package changes

import (
	"cmp"
	"context"
	"fmt"

	"github.com/forgehq/forge/client"
)

// Bounds on the history read to find where a pull request's commits
// begin.
const (
	maxBaseCommits = 1000
	maxOwnCommits  = 100
)

// Pull finds the pull request's own commits — its head's history up to
// the first commit the base has — and diffs what they changed, from
// that commit to the head: the changed files, and their diffs.
func Pull(ctx context.Context, c *client.Client, repo client.RepoName, pr *client.PullRequest) ([]client.CommitFile, []File, error) {
	return Between(ctx, c, repo, cmp.Or(pr.Base.SHA, pr.Base.Ref), cmp.Or(pr.Head.SHA, pr.Head.Ref))
}

// Between is what head changed since it left base (a compare of two
// refs): the files head's own commits changed, and their diffs from the
// last commit base has to head.
func Between(ctx context.Context, c *client.Client, repo client.RepoName, base, head string) ([]client.CommitFile, []File, error) {
	own, from, err := Own(ctx, c, repo, base, head)
	if err != nil {
		return nil, nil, err
	}
	files, err := touched(ctx, c, repo, own)
	if err != nil {
		return nil, nil, err
	}
	diffs, err := Read(ctx, c, repo, from, head, files)
	return files, diffs, err
}

// Own is head's own commits (newest first) — its history up to the first
// commit base's has — and that commit ("" when they share none).
func Own(ctx context.Context, c *client.Client, repo client.RepoName, base, head string) (own []string, from string, err error) {
	seen := map[string]bool{}
	for cm, err := range c.Repos.CommitsFrom(ctx, repo, base, client.ListOptions{PerPage: 100}) {
		if err != nil {
			return nil, "", err
		}
		if seen[cm.SHA] = true; len(seen) >= maxBaseCommits {
			break
		}
	}
	for cm, err := range c.Repos.CommitsFrom(ctx, repo, head, client.ListOptions{PerPage: 100}) {
		if err != nil {
			return nil, "", err
		}
		if seen[cm.SHA] {
			return own, cm.SHA, nil
		}
		if own = append(own, cm.SHA); len(own) >= maxOwnCommits {
			return nil, "", fmt.Errorf("more than %d commits since the base branch: see them with git", maxOwnCommits)
		}
	}
	return own, "", nil
}

// touched is the files the commits (newest first) changed, oldest
// change first; a file added and then removed again is not listed, and
// one removed and then added again is modified.
func touched(ctx context.Context, c *client.Client, repo client.RepoName, commits []string) ([]client.CommitFile, error) {
	var files []client.CommitFile
	at := map[string]int{}
	for i := len(commits) - 1; i >= 0; i-- {
		d, err := c.Repos.Commit(ctx, repo, commits[i])
		if err != nil {
			return nil, err
		}
		for _, f := range d.Files {
			j, seen := at[f.Filename]
			switch {
			case !seen:
				at[f.Filename] = len(files)
				files = append(files, client.CommitFile{Filename: f.Filename, Status: f.Status})
			case files[j].Status == "added" && f.Status == "removed":
				files[j].Status = "" // gone again
			case files[j].Status == "removed" && f.Status == "added":
				files[j].Status = "modified" // back: the base has it
			case f.Status == "removed" || files[j].Status != "added":
				files[j].Status = f.Status
			}
		}
	}
	kept := files[:0]
	for _, f := range files {
		if f.Status != "" {
			kept = append(kept, f)
		}
	}
	return kept, nil
}
