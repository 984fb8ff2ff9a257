package repos

import (
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
	"github.com/forgehq/forge/tui/issues"
)

// NewPage returns the page of repository r: a header and its sections,
// switched with left and right.
func NewPage(ctx *common.Context, r *client.Repo) *components.SectionPage {
	name := r.RepoName()
	header := func() string {
		st := ctx.Styles
		head := st.Bold.Render(text.OneLine(name.String()))
		if r.Private {
			head += " " + st.Warning.Render("private")
		}
		if r.Description != "" {
			head += st.Dim.Render(" · " + text.OneLine(r.Description))
		}
		return head
	}
	return components.NewSectionPage(ctx, text.OneLine(name.String()), header,
		issues.NewList(ctx, name),
		newPulls(ctx, name),
		newReleases(ctx, name),
		newCommits(ctx, name),
		newFiles(ctx, name),
		newPeople(ctx, name),
	)
}
