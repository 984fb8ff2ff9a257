package rest

import (
	"net/http"

	"github.com/forgehq/forge/refserver/store"
)

// Repository permission rules (the specification leaves them open):
//
//   - see (read, clone, list issues, open issues and comment): anyone
//     logged in for a public repository; for a private one its owner, its
//     collaborators and site admins. Whoever may not see a private
//     repository gets 404, as if it did not exist;
//   - write (close, reopen and edit any issue, create releases, cancel and
//     re-run workflow runs, push): the owner, collaborators with write or
//     admin, site admins; an issue's author may also edit, close and
//     reopen it;
//   - admin (edit and delete the repository, manage collaborators): the
//     owner, collaborators with admin, site admins.
//
// A caller who may see a repository but lacks the permission gets 403.

// access is the caller's standing on one repository.
type access struct {
	repo store.Repo
	perm string // "", read, write or admin
	site bool   // caller is a site admin
}

func (x access) canWrite() bool { return x.site || store.PermRank(x.perm) >= 2 }
func (x access) canAdmin() bool { return x.site || x.perm == store.PermAdmin }

func (x access) needWrite(what string) error {
	if !x.canWrite() {
		return errForbidden("%s needs write permission on %s", what, x.repo.FullName())
	}
	return nil
}

func (x access) needAdmin(what string) error {
	if !x.canAdmin() {
		return errForbidden("%s needs admin permission on %s", what, x.repo.FullName())
	}
	return nil
}

// repoAccess finds the repository the path names and the caller's
// standing; a repository the caller may not see is not found.
func (a *API) repoAccess(r *http.Request, s *session) (access, error) {
	owner, name := r.PathValue("owner"), r.PathValue("repo")
	repo, ok := a.st.RepoByName(owner, name)
	if !ok {
		return access{}, errNotFound("repository %s/%s not found", owner, name)
	}
	x := access{repo: repo, perm: a.st.Permission(repo.ID, s.user.ID), site: s.user.Role == store.RoleSiteAdmin}
	if repo.Private && x.perm == "" && !x.site {
		return access{}, errNotFound("repository %s/%s not found", owner, name)
	}
	return x, nil
}
