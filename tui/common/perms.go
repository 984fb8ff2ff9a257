package common

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
)

// Perms is what the caller may do in one repository, as the service
// reports it in the repository's permissions: views use it to offer only
// the actions the service would allow, instead of ending in a 403.
type Perms struct {
	p    *client.RepoPermissions
	load Load
}

// Fetch asks for repo's permissions; the answer is a Result[*client.Repo]
// for owner, to hand to Take.
func (p *Perms) Fetch(c *Context, owner int, repo client.RepoName) tea.Cmd {
	return LoadREST(c, &p.load, owner, func(ctx context.Context, rc *client.Client) (*client.Repo, error) {
		return rc.Repos.Get(ctx, repo)
	})
}

// Asked reports whether Fetch was called (answered or not).
func (p *Perms) Asked() bool { return p.load.Gen > 0 }

// Take records msg when it is the answer to owner's Fetch, and reports
// whether it was. Failing to learn the rights is no error to show: the
// actions stay offered and the service decides.
func (p *Perms) Take(owner int, msg Result[*client.Repo]) bool {
	if !msg.Take(owner, &p.load) {
		return false
	}
	if msg.Err == nil && msg.Value != nil {
		p.p = msg.Value.Permissions
	}
	return true
}

// Known reports whether the service said what the caller may do.
func (p *Perms) Known() bool { return p.p != nil }

// MayWrite reports whether the caller may push (write or admin). Unknown
// rights (not loaded yet, or a service that does not report them) let the
// service decide: true.
func (p *Perms) MayWrite() bool { return p.p == nil || p.p.Push || p.p.Admin }
