package repos

import (
	"context"
	"iter"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// sectionLimit caps what a section loads.
const sectionLimit = 500

// section is a repository page's list of one kind of record (pull
// requests, releases, commits, collaborators).
type section[T any] = components.List[*T]

func newSection[T any](ctx *common.Context, title, what string, cols ...components.Column) *section[T] {
	s := components.NewList[*T](ctx, title, what, cols...)
	s.Table().Empty = "No " + what + "."
	return s
}

// collect is the fetch of a plain list endpoint of repo.
func collect[T any](ctx *common.Context, repo client.RepoName, list func(ctx context.Context, c *client.Client, repo client.RepoName) iter.Seq2[*T, error]) func() (components.Work[*T], error) {
	return components.REST(ctx, func(cx context.Context, c *client.Client) ([]*T, error) {
		return client.Collect(list(cx, c, repo), sectionLimit)
	})
}
