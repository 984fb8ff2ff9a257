package mcpserver

import (
	"cmp"
	"context"
	"fmt"

	"github.com/forgehq/forge/app/changes"
	"github.com/forgehq/forge/client"
)

// DiffPage bounds a page of a diff: whole files' diffs are packed into
// pages of at most this many bytes; a file's diff longer than a page is
// read in pages of its own (path).
const DiffPage = 24 << 10

// ChangedFile is a file a change touched, with its diff's line counts.
type ChangedFile struct {
	Path    string `json:"path"`
	Status  string `json:"status"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Note    string `json:"note,omitempty"`
}

// FileDiff is a file's unified diff (or a page of it).
type FileDiff struct {
	ChangedFile
	Diff string `json:"diff,omitempty" mcp:"paged"`
}

// Change is what a pull request or a compare changed: its files, or a
// page of their diffs.
type Change struct {
	Base  string        `json:"base"`
	Head  string        `json:"head"`
	Files []ChangedFile `json:"files,omitempty"`
	Diffs []FileDiff    `json:"diffs,omitempty"`
	Note  string        `json:"note,omitempty"`
}

// PullDiffIn names a pull request and a page of its diff.
type PullDiffIn struct {
	IssueIn
	DiffPaging
}

// DiffPaging selects a page of a diff: of all files, or of one.
type DiffPaging struct {
	Path string `json:"path,omitempty" jsonschema:"only this file's diff, in pages of 24 KiB (default: every file, packed into pages of 24 KiB)"`
	Page int    `json:"page,omitempty" jsonschema:"page of the diff, from 1"`
}

// CompareIn names two refs.
type CompareIn struct {
	RepoArg
	Base string `json:"base" jsonschema:"the branch, tag or commit compared against (as a pull request's base)"`
	Head string `json:"head" jsonschema:"the branch, tag or commit whose own commits are compared"`
	Diff bool   `json:"diff,omitempty" jsonschema:"send the diffs (paged), not just the files changed"`
	DiffPaging
}

// PullCommits are a pull request's own commits.
type PullCommits struct {
	Commits []Commit `json:"commits"`
	Note    string   `json:"note,omitempty"`
}

func reviewTools() []toolDef {
	return []toolDef{
		handle("pr_files", pullFiles),
		handle("pr_diff", pullDiff),
		handle("pr_commits", pullCommits),
		handle("pr_checks", pullChecks),
		handle("repo_compare", compare),
	}
}

func (s *Server) pull(ctx context.Context, in IssueIn) (*client.Client, client.RepoName, *client.PullRequest, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return nil, name, nil, err
	}
	pr, err := c.Pulls.Get(ctx, name, in.Number)
	return c, name, pr, err
}

func pullFiles(ctx context.Context, s *Server, in IssueIn) (Change, error) {
	c, name, pr, err := s.pull(ctx, in)
	if err != nil {
		return Change{}, err
	}
	return changeOf(ctx, c, name, cmp.Or(pr.Base.SHA, pr.Base.Ref), cmp.Or(pr.Head.SHA, pr.Head.Ref), nil)
}

func pullDiff(ctx context.Context, s *Server, in PullDiffIn) (Change, error) {
	c, name, pr, err := s.pull(ctx, in.IssueIn)
	if err != nil {
		return Change{}, err
	}
	return changeOf(ctx, c, name, cmp.Or(pr.Base.SHA, pr.Base.Ref), cmp.Or(pr.Head.SHA, pr.Head.Ref), &in.DiffPaging)
}

func compare(ctx context.Context, s *Server, in CompareIn) (Change, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return Change{}, err
	}
	if in.Base == "" || in.Head == "" {
		return Change{}, fmt.Errorf("repo_compare needs base and head (branches, tags or commits)")
	}
	var paging *DiffPaging
	if in.Diff || in.Path != "" {
		paging = &in.DiffPaging
	}
	return changeOf(ctx, c, name, in.Base, in.Head, paging)
}

// changeOf is what head changed since base: its files, or (paging set)
// the page of their diffs asked for.
func changeOf(ctx context.Context, c *client.Client, repo client.RepoName, base, head string, paging *DiffPaging) (Change, error) {
	files, diffs, err := changes.Between(ctx, c, repo, base, head)
	if err != nil {
		return Change{}, err
	}
	out := Change{Base: base, Head: head}
	if paging == nil {
		out.Files = each(diffs, changedFile)
		if len(files) == 0 {
			out.Note = "no changes: " + head + " has no commits " + base + " lacks"
		}
		return out, nil
	}
	out.Diffs, out.Note, err = diffPage(diffs, *paging)
	return out, err
}

func changedFile(d changes.File) ChangedFile {
	return ChangedFile{Path: d.Path, Status: d.Status, Added: d.Added, Removed: d.Removed, Note: d.Note}
}

// diffPage is page p of the diffs: one file's diff in pages of
// DiffPage bytes, or whole files packed into pages of at most DiffPage
// (a longer one cut, saying how to read it whole).
func diffPage(diffs []changes.File, in DiffPaging) ([]FileDiff, string, error) {
	page := max(in.Page, 1)
	if in.Path != "" {
		for _, d := range diffs {
			if d.Path == in.Path {
				chunk, note := pageText(d.Unified, page, DiffPage)
				return []FileDiff{{ChangedFile: changedFile(d), Diff: chunk}}, note, nil
			}
		}
		return nil, "", fmt.Errorf("the change does not touch %s; pr_files (or repo_compare) lists the files it does", in.Path)
	}
	// Pack the files into pages.
	var pages [][]FileDiff
	var cur []FileDiff
	size := 0
	for _, d := range diffs {
		fd := FileDiff{ChangedFile: changedFile(d), Diff: d.Unified}
		if len(fd.Diff) > DiffPage {
			fd.Diff = cutBytes(fd.Diff, DiffPage)
			fd.Note = fmt.Sprintf("diff cut at %d of %d bytes: ask with path %q for it in pages", DiffPage, len(d.Unified), d.Path)
		}
		if len(cur) > 0 && size+len(fd.Diff) > DiffPage {
			pages, cur, size = append(pages, cur), nil, 0
		}
		cur, size = append(cur, fd), size+len(fd.Diff)
	}
	if len(cur) > 0 {
		pages = append(pages, cur)
	}
	switch {
	case len(pages) == 0:
		return []FileDiff{}, "no changes", nil
	case page > len(pages):
		return []FileDiff{}, fmt.Sprintf("page %d is past the end: the diff of %d files has %d pages", page, len(diffs), len(pages)), nil
	case len(pages) > 1:
		return pages[page-1], fmt.Sprintf("page %d of %d of the diff of %d files", page, len(pages), len(diffs)) + more(page, len(pages)), nil
	}
	return pages[0], "", nil
}

func more(page, pages int) string {
	if page < pages {
		return fmt.Sprintf("; ask with page %d for more", page+1)
	}
	return ", the last"
}

func pullCommits(ctx context.Context, s *Server, in IssueIn) (PullCommits, error) {
	c, name, pr, err := s.pull(ctx, in)
	if err != nil {
		return PullCommits{}, err
	}
	own, _, err := changes.Own(ctx, c, name, cmp.Or(pr.Base.SHA, pr.Base.Ref), cmp.Or(pr.Head.SHA, pr.Head.Ref))
	if err != nil {
		return PullCommits{}, err
	}
	trusted, err := s.trusted(ctx, c, name)
	if err != nil {
		return PullCommits{}, err
	}
	out := PullCommits{Commits: []Commit{}}
	for cm, err := range c.Repos.CommitsFrom(ctx, name, cmp.Or(pr.Head.SHA, pr.Head.Ref), client.ListOptions{PerPage: MaxPerPage}) {
		if err != nil {
			return PullCommits{}, err
		}
		if len(out.Commits) == len(own) {
			break
		}
		shown := commitOf(cm)
		// Not yet the repository's history: the pull request's author
		// wrote the messages.
		shown.Message = trusted.line("message", pr.User.Login, shown.Message)
		out.Commits = append(out.Commits, shown)
	}
	return out, nil
}

func pullChecks(ctx context.Context, s *Server, in IssueIn) (RunList, error) {
	c, name, pr, err := s.pull(ctx, in)
	if err != nil {
		return RunList{}, err
	}
	trusted, err := s.trusted(ctx, c, name)
	if err != nil {
		return RunList{}, err
	}
	out := RunList{Runs: []Run{}}
	scanned := 0
	for r, err := range c.Actions.ListRuns(ctx, name, client.RunListOptions{ListOptions: client.ListOptions{PerPage: MaxPerPage}, Branch: pr.Head.Ref}) {
		if err != nil {
			return RunList{}, err
		}
		if scanned++; scanned > MaxScan {
			out.Note = fmt.Sprintf("searched the newest %d runs of %s only", MaxScan, pr.Head.Ref)
			break
		}
		if pr.Head.SHA == "" || r.HeadSHA == pr.Head.SHA {
			out.Runs = append(out.Runs, trusted.runOf(r))
		}
		if len(out.Runs) == PerPage {
			out.Note = fmt.Sprintf("the newest %d runs of the head commit shown", PerPage)
			break
		}
	}
	return out, nil
}
