package repos

import (
	"context"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/commits"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
	"github.com/forgehq/forge/tui/pulls"
)

// newPulls is the pull requests section.
func newPulls(ctx *common.Context, repo client.RepoName) *section[client.PullRequest] {
	s := newSection[client.PullRequest](ctx, "Pull requests", "pull requests",
		components.Column{Title: "#", Width: 5, Right: true},
		components.Column{Title: "TITLE", Flex: 3, Min: 10},
		components.Column{Title: "STATE", Width: 6},
		components.Column{Title: "BRANCH", Flex: 1, Min: 6},
		components.Column{Title: "AUTHOR", Width: 8},
	)
	s.Fetch = collect(ctx, repo, func(ctx context.Context, c *client.Client, repo client.RepoName) iter.Seq2[*client.PullRequest, error] {
		return c.Pulls.List(ctx, repo, client.PullListOptions{State: "all", ListOptions: client.ListOptions{PerPage: 100}})
	})
	s.Row = func(p *client.PullRequest) components.Row {
		return components.Row{Key: strconv.FormatInt(p.Number, 10), Cells: []string{
			"#" + strconv.FormatInt(p.Number, 10), text.OneLine(p.Title), pulls.State(ctx, p),
			text.OneLine(p.Head.Ref) + " → " + text.OneLine(p.Base.Ref), text.OneLine(p.User.Login)}}
	}
	s.PageOf = func(p *client.PullRequest) string { return p.HTMLURL }
	s.Open = func(p *client.PullRequest) tea.Cmd { return common.Push(pulls.NewPage(ctx, repo, p)) }
	return s
}

// newReleases is the releases section.
func newReleases(ctx *common.Context, repo client.RepoName) *section[client.Release] {
	s := newSection[client.Release](ctx, "Releases", "releases",
		components.Column{Title: "TAG", Flex: 1, Min: 8},
		components.Column{Title: "NAME", Flex: 2, Min: 8},
		components.Column{Title: "", Width: 10},
		components.Column{Title: "PUBLISHED", Width: 9, Right: true},
	)
	s.Fetch = collect(ctx, repo, func(ctx context.Context, c *client.Client, repo client.RepoName) iter.Seq2[*client.Release, error] {
		return c.Releases.List(ctx, repo, client.ListOptions{PerPage: 100})
	})
	s.Row = func(r *client.Release) components.Row {
		st := ctx.Styles
		return components.Row{Key: r.TagName, Cells: []string{
			st.Bold.Render(text.OneLine(r.TagName)), text.OneLine(r.Name), releaseKind(ctx, r),
			st.Dim.Render(text.Since(releaseTime(r), ctx.Now()))}}
	}
	s.PageOf = func(r *client.Release) string { return r.HTMLURL }
	s.Open = func(r *client.Release) tea.Cmd {
		doc := components.NewDoc(ctx, text.OneLine(r.TagName), func(w int) []string { return releaseLines(ctx, r, w) })
		doc.URL = r.HTMLURL
		return common.Push(doc)
	}
	return s
}

func releaseTime(r *client.Release) time.Time {
	if !r.PublishedAt.IsZero() {
		return r.PublishedAt.Time
	}
	return r.CreatedAt.Time
}

func releaseKind(ctx *common.Context, r *client.Release) string {
	switch {
	case r.Draft:
		return ctx.Styles.Dim.Render("draft")
	case r.Prerelease:
		return ctx.Styles.Warning.Render("prerelease")
	}
	return ""
}

func releaseLines(ctx *common.Context, r *client.Release, w int) []string {
	st := ctx.Styles
	title := text.OneLine(r.Name)
	if title == "" {
		title = text.OneLine(r.TagName)
	}
	meta := fmt.Sprintf("%s · by %s · %s", text.OneLine(r.TagName), text.OneLine(r.Author.Login), text.Since(releaseTime(r), ctx.Now()))
	if k := releaseKind(ctx, r); k != "" {
		meta = k + " · " + meta
	}
	lines := []string{st.Bold.Render(title), st.Dim.Render(meta), ""}
	if strings.TrimSpace(r.Body) == "" {
		lines = append(lines, st.Dim.Render("No release notes."))
	} else {
		lines = append(lines, ctx.Markdown(r.Body, w)...)
	}
	if len(r.Assets) > 0 {
		lines = append(lines, "", st.Bold.Render("Assets"))
		for _, a := range r.Assets {
			lines = append(lines, fmt.Sprintf("  %s %s", text.OneLine(a.Name), st.Dim.Render(text.Bytes(a.Size))))
		}
	}
	return lines
}

// newCommits is the recent commits section.
func newCommits(ctx *common.Context, repo client.RepoName) *section[client.Commit] {
	s := newSection[client.Commit](ctx, "Commits", "commits",
		components.Column{Title: "SHA", Width: 7},
		components.Column{Title: "MESSAGE", Flex: 1, Min: 10},
		components.Column{Title: "AUTHOR", Width: 12},
		components.Column{Title: "DATE", Width: 8, Right: true},
	)
	s.Fetch = collect(ctx, repo, func(ctx context.Context, c *client.Client, repo client.RepoName) iter.Seq2[*client.Commit, error] {
		return c.Repos.Commits(ctx, repo, client.ListOptions{PerPage: 100})
	})
	s.PageOf = func(cm *client.Commit) string { return cm.HTMLURL }
	s.Row = func(cm *client.Commit) components.Row {
		st := ctx.Styles
		subject, _, _ := strings.Cut(cm.Commit.Message, "\n")
		return components.Row{Key: cm.SHA, Cells: []string{
			st.Accent.Render(text.OneLine(text.ShortSHA(cm.SHA))), text.OneLine(subject), text.OneLine(cm.Commit.Author.Name),
			st.Dim.Render(text.Since(cm.Commit.Author.Date.Time, ctx.Now()))}}
	}
	s.Open = func(cm *client.Commit) tea.Cmd { return common.Push(commits.NewView(ctx, repo, cm)) }
	return s
}

// newPeople is the collaborators section.
func newPeople(ctx *common.Context, repo client.RepoName) *section[client.Collaborator] {
	s := newSection[client.Collaborator](ctx, "Collaborators", "collaborators",
		components.Column{Title: "LOGIN", Flex: 1, Min: 10},
		components.Column{Title: "PERMISSION", Width: 10},
	)
	s.Fetch = collect(ctx, repo, func(ctx context.Context, c *client.Client, repo client.RepoName) iter.Seq2[*client.Collaborator, error] {
		return c.Repos.Collaborators(ctx, repo, client.ListOptions{PerPage: 100})
	})
	s.Row = func(cb *client.Collaborator) components.Row {
		perm := text.OneLine(cb.Permission)
		if perm == "admin" {
			perm = ctx.Styles.Warning.Render(perm)
		}
		return components.Row{Key: cb.Login, Cells: []string{text.OneLine(cb.Login), perm}}
	}
	s.Table().Empty = "No collaborators: only the owner has access. Add one with `forge repo collaborator add USER`."
	return s
}
