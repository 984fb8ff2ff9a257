package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
)

// trust says whose text the model may read: everyone's, or under
// lockdown only that of users with write access to the repository (its
// owner and collaborators with write or admin permission), as
// github-mcp-server's lockdown mode does. Anyone who can open an issue
// can write instructions into it; lockdown keeps those from the model.
type trust struct {
	lockdown bool
	writers  map[string]bool // lower-case logins
}

func (s *Server) trusted(ctx context.Context, c *client.Client, repo client.RepoName) (trust, error) {
	t := trust{lockdown: s.opts.Lockdown}
	if !t.lockdown {
		return t, nil
	}
	t.writers = map[string]bool{strings.ToLower(repo.Owner): true}
	for cm, err := range c.Repos.Collaborators(ctx, repo, client.ListOptions{PerPage: MaxPerPage}) {
		if client.HasStatus(err, http.StatusForbidden) || client.HasStatus(err, http.StatusNotFound) {
			break // a caller who may not see the list trusts the owner alone
		}
		if err != nil {
			return t, err
		}
		switch strings.ToLower(cm.Permission) {
		case "write", "maintain", "admin":
			t.writers[strings.ToLower(cm.Login)] = true
		}
	}
	return t, nil
}

// body is what the model gets of a body by author: withheld under
// lockdown unless the author may write, and cut at limit bytes.
func (t trust) body(author, body string, limit int) string {
	if t.lockdown && !t.writers[strings.ToLower(author)] {
		return fmt.Sprintf("[withheld by lockdown: %s has no write access to the repository]", author)
	}
	body = text.ForModel(body) // first, as it may lengthen the text
	if len(body) > limit {
		return cutBytes(body, limit) + fmt.Sprintf(" [truncated: %d bytes in all]", len(body))
	}
	return body
}
