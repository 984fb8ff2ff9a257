package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/client"
)

// RepoArg names the repository a tool works on.
type RepoArg struct {
	Repo string `json:"repo,omitempty" jsonschema:"the repository as OWNER/REPO; default: the one forge was started for (FORGE_REPO or the git remote)"`
}

// Repo is a repository as the tools show it.
type Repo struct {
	FullName      string `json:"full_name"`
	Description   string `json:"description,omitempty"`
	Private       bool   `json:"private"`
	DefaultBranch string `json:"default_branch,omitempty"`
	URL           string `json:"url,omitempty"`
	CloneURL      string `json:"clone_url,omitempty"`
	UpdatedAt     string `json:"updated_at,omitempty"`
	// CanWrite is whether the caller may push (nil: not reported).
	CanWrite *bool `json:"can_write,omitempty"`
}

func repoOf(r *client.Repo) Repo {
	out := Repo{FullName: r.FullName, Description: r.Description, Private: r.Private, DefaultBranch: r.DefaultBranch,
		URL: r.HTMLURL, CloneURL: r.CloneURL, UpdatedAt: when(r.UpdatedAt)}
	if r.Permissions != nil {
		w := r.Permissions.Push || r.Permissions.Admin
		out.CanWrite = &w
	}
	return out
}

func when(t client.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}

// RepoList is a page of repositories.
type RepoList struct {
	Repos []Repo `json:"repos"`
	Note  string `json:"note,omitempty"`
}

// ContentsIn asks for a file or directory.
type ContentsIn struct {
	RepoArg
	Path string `json:"path,omitempty" jsonschema:"the file or directory, from the top (default: the top directory)"`
	Ref  string `json:"ref,omitempty" jsonschema:"branch, tag or commit (default: the default branch)"`
	Page int    `json:"page,omitempty" jsonschema:"page of a long file (24 KiB a page) or of a directory's entries (500 a page), from 1"`
}

// Contents is a file's text (a page of it) or a directory's entries.
type Contents struct {
	Path    string  `json:"path"`
	Type    string  `json:"type"` // file or dir
	Size    int64   `json:"size,omitempty"`
	Text    string  `json:"text,omitempty" mcp:"paged"`
	Entries []Entry `json:"entries,omitempty"`
	Note    string  `json:"note,omitempty"`
}

// Entry is one entry of a directory.
type Entry struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Size int64  `json:"size,omitempty"`
}

// Commit is one commit.
type Commit struct {
	SHA     string `json:"sha"`
	Message string `json:"message"`
	Author  string `json:"author"`
	Date    string `json:"date,omitempty"`
}

// CommitList is a page of commits.
type CommitList struct {
	Commits []Commit `json:"commits"`
	Note    string   `json:"note,omitempty"`
}

// Collaborator is a user with access to a repository.
type Collaborator struct {
	Login      string `json:"login"`
	Permission string `json:"permission"`
}

// CollaboratorList is a page of collaborators.
type CollaboratorList struct {
	Collaborators []Collaborator `json:"collaborators"`
	Note          string         `json:"note,omitempty"`
}

// ListReposIn asks for a page of the caller's repositories.
type ListReposIn struct{ Paging }

// RepoPagingIn is a repository and a page.
type RepoPagingIn struct {
	RepoArg
	Paging
}

func repoTools() []toolDef {
	return []toolDef{
		handle("repos_list", listRepos),
		handle("repo_view", viewRepo),
		handle("repo_contents", contents),
		handle("repo_commits", commits),
		handle("repo_collaborators", collaborators),
	}
}

func (s *Server) repo(ctx context.Context, in RepoArg) (*client.Client, client.RepoName, error) {
	name, err := s.opts.Backend.Repo(ctx, in.Repo)
	if err != nil {
		return nil, name, err
	}
	c, err := s.opts.Backend.REST()
	return c, name, err
}

func listRepos(ctx context.Context, s *Server, in ListReposIn) (RepoList, error) {
	c, err := s.opts.Backend.REST()
	if err != nil {
		return RepoList{}, err
	}
	lo := listOptions()
	rs, note, err := pageOf(ctx, c.Repos.List(ctx, lo), in.Paging, lo.Pages)
	out := RepoList{Repos: each(rs, repoOf), Note: note}
	return out, err
}

func viewRepo(ctx context.Context, s *Server, in RepoArg) (Repo, error) {
	c, name, err := s.repo(ctx, in)
	if err != nil {
		return Repo{}, err
	}
	r, err := c.Repos.Get(ctx, name)
	if err != nil {
		return Repo{}, err
	}
	return repoOf(r), nil
}

// maxFile is how much of a file repo_contents reads: its pages cover
// the first MiB (the service's inline limit), and the note says when the
// file goes on.
const maxFile = 1 << 20

func contents(ctx context.Context, s *Server, in ContentsIn) (Contents, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return Contents{}, err
	}
	file, dir, err := c.Repos.OpenFile(ctx, name, in.Path, client.ContentsOptions{Ref: in.Ref})
	if err != nil {
		return Contents{}, err
	}
	if file == nil {
		entries, note, err := pageWithTotal(withNoError(dir), max(in.Page, 1), DirPage, func() (int, bool) { return len(dir), true })
		out := Contents{Path: in.Path, Type: "dir", Entries: each(entries, func(e *client.Content) Entry {
			return Entry{Name: e.Name, Type: e.Type, Size: e.Size}
		}), Note: note}
		return out, err
	}
	defer file.Close()
	b, cut, err := file.ReadAtMost(maxFile)
	if err != nil {
		return Contents{}, err
	}
	p := in.Path
	if file.Entry != nil && file.Entry.Path != "" {
		p = file.Entry.Path
	}
	out := Contents{Path: p, Type: "file", Size: file.Size}
	if out.Size < 0 {
		out.Size = 0 // not known: the service did not say
	}
	if client.Binary(b, !cut) {
		out.Note = fmt.Sprintf("%s is not a text file (%s); its content is not shown", p, sizeOf(file.Size, len(b)))
		return out, nil
	}
	out.Text, out.Note = textPage(string(b), in.Page)
	if cut {
		more := fmt.Sprintf("the file is %s; the pages cover its first %d bytes only", sizeOf(file.Size, len(b)), maxFile)
		out.Note = strings.TrimPrefix(out.Note+"; "+more, "; ")
	}
	return out, nil
}

// sizeOf says a file's size: size bytes, or more than read when the
// service did not say.
func sizeOf(size int64, read int) string {
	if size < 0 {
		return fmt.Sprintf("more than %d bytes", read)
	}
	return fmt.Sprintf("%d bytes", size)
}

// commitOf is a commit as the tools show it: by its author's login, or
// the name git recorded when the service knows no user.
func commitOf(cm *client.Commit) Commit {
	author := cm.Author.Login
	if author == "" {
		author = cm.Commit.Author.Name
	}
	return Commit{SHA: cm.SHA, Message: cm.Commit.Message, Author: author, Date: when(cm.Commit.Author.Date)}
}

// CommitsIn names a repository, a ref and a page of its history.
type CommitsIn struct {
	RepoArg
	Ref string `json:"ref,omitempty" jsonschema:"branch, tag or commit whose history to list (default: the default branch)"`
	Paging
}

func commits(ctx context.Context, s *Server, in CommitsIn) (CommitList, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return CommitList{}, err
	}
	lo := listOptions()
	cs, note, err := pageOf(ctx, c.Repos.CommitsFrom(ctx, name, in.Ref, lo), in.Paging, lo.Pages)
	return CommitList{Commits: each(cs, commitOf), Note: note}, err
}

func collaborators(ctx context.Context, s *Server, in RepoPagingIn) (CollaboratorList, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return CollaboratorList{}, err
	}
	lo := listOptions()
	cs, note, err := pageOf(ctx, c.Repos.Collaborators(ctx, name, lo), in.Paging, lo.Pages)
	return CollaboratorList{Collaborators: each(cs, func(cm *client.Collaborator) Collaborator {
		return Collaborator{Login: cm.Login, Permission: cm.Permission}
	}), Note: note}, err
}
