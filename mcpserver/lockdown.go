package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/forgehq/forge/client"
)

// trust says whose text the model may read: everyone's, or under
// lockdown only that of users with write access to the repository (its
// owner and collaborators with write or admin permission), as
// github-mcp-server's lockdown mode does. Anyone who can open an issue
// can write instructions into it — into its title as much as its body;
// lockdown keeps those from the model.
//
// What lockdown withholds, field by field, when the author may not write:
//   - issue and pull request titles and bodies, comment bodies: the
//     author's free text;
//   - release names and notes: the author's free text (a release by a
//     former collaborator is by someone who may not write now);
//   - a run's title and branch when its actor may not write: the title is
//     a pull request's title or a commit message, the branch a fork's;
//   - a pull request's head branch when it lives in another owner's
//     repository (a fork): its name is the author's;
//   - a pull request's commit messages (pr_commits): not yet the
//     repository's history, the author wrote them.
//
// What it keeps: numbers, states, logins, labels, dates and URLs (the
// model needs them to act, and no one writes prose into them); a head
// branch of the repository itself (someone with write access pushed
// it); commit messages of the repository's history (someone with write
// access pushed or merged them); job and step names (the repository's
// workflow files name them); job logs (what the repository's workflow
// printed, the data job_log and run_explain exist for — sanitized and
// redacted like every string); a pull request's diff (the code a review
// reads, as data); the repository's description (its admins write it).
type trust struct {
	lockdown bool
	owner    string          // the repository's owner, lower-case
	writers  map[string]bool // lower-case logins
}

func (s *Server) trusted(ctx context.Context, c *client.Client, repo client.RepoName) (trust, error) {
	t := trust{lockdown: s.opts.Lockdown, owner: strings.ToLower(repo.Owner)}
	if !t.lockdown {
		return t, nil
	}
	t.writers = map[string]bool{t.owner: true}
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

// withholds reports whether lockdown keeps author's text from the model.
func (t trust) withholds(author string) bool {
	return t.lockdown && !t.writers[strings.ToLower(author)]
}

// body is what the model gets of a body by author: withheld under
// lockdown unless the author may write (Server.out filters and cuts it).
func (t trust) body(author, body string) string {
	if t.withholds(author) {
		return fmt.Sprintf("[withheld by lockdown: %s has no write access to the repository]", author)
	}
	return body
}

// line is what the model gets of a one-line field (a title, a name, a
// branch) by author: the field itself, or under lockdown, unless the
// author may write, a marker naming what was withheld.
func (t trust) line(what, author, s string) string {
	if t.withholds(author) {
		return fmt.Sprintf("[%s withheld by lockdown: %s has no write access]", what, author)
	}
	return s
}

// title is line for a title.
func (t trust) title(author, s string) string { return t.line("title", author, s) }

// head is a pull request's head branch: withheld under lockdown when it
// is a branch of another owner's repository (a fork, "owner:branch" in
// its label) and the author may not write.
func (t trust) head(author string, ref client.PullRef) string {
	owner, _, forked := strings.Cut(ref.Label, ":")
	if forked && strings.ToLower(owner) != t.owner {
		return t.line("branch", author, ref.Ref)
	}
	return ref.Ref
}
