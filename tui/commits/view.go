// Package commits is the page of one commit: its message, the files it
// changed and their diff, read from the service.
package commits

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/app/changes"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/diff"
)

// NewView returns the page of commit cm of repo: cm as a list has it
// shows at once, the files and the diff once read (GET .../commits/{sha}
// lists the files; both sides of each come from the contents endpoint).
func NewView(ctx *common.Context, repo client.RepoName, cm *client.Commit) *diff.Page {
	sha := cm.SHA
	p := diff.NewPage(ctx, "commit "+text.OneLine(text.ShortSHA(sha)), func(cx context.Context, c *client.Client) (*diff.Change, error) {
		d, err := c.Repos.Commit(cx, repo, sha)
		if err != nil {
			return nil, err
		}
		parent := ""
		if len(d.Parents) > 0 {
			parent = d.Parents[0].SHA
		}
		diffs, err := changes.Read(cx, c, repo, parent, d.SHA, d.Files)
		return &diff.Change{Files: d.Files, Diffs: diffs, Commit: d}, err
	})
	p.Head = func(ch *diff.Change) []string {
		if ch != nil && ch.Commit != nil {
			return head(ctx, &ch.Commit.Commit)
		}
		return head(ctx, cm)
	}
	p.Ask = func() tea.Cmd { return common.AskAgent(repo, "commit:"+sha, "") }
	p.URL = cm.HTMLURL
	return p
}

// head is the commit as git log shows it.
func head(ctx *common.Context, cm *client.Commit) []string {
	st := ctx.Styles
	a := cm.Commit.Author
	lines := []string{
		st.Accent.Render("commit " + text.OneLine(cm.SHA)),
		st.Dim.Render(fmt.Sprintf("Author: %s <%s>", text.OneLine(a.Name), text.OneLine(a.Email))),
		st.Dim.Render("Date:   " + a.Date.UTC().Format("2006-01-02 15:04:05 UTC")),
		"",
	}
	for _, l := range strings.Split(strings.TrimRight(cm.Commit.Message, "\n"), "\n") {
		lines = append(lines, "    "+text.OneLine(l))
	}
	return append(lines, "")
}
