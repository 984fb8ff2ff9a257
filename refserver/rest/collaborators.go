package rest

import (
	"net/http"

	"github.com/forgehq/forge/refserver/store"
)

type collaboratorJSON struct {
	ID         int64  `json:"id"`
	Login      string `json:"login"`
	Permission string `json:"permission"`
}

// listCollaborators: GET /repos/{owner}/{repo}/collaborators, the owner
// first (permission admin), then the others in the order added.
func (a *API) listCollaborators(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	out := []collaboratorJSON{{ID: x.repo.OwnerID, Login: x.repo.Owner, Permission: store.PermAdmin}}
	for _, c := range a.st.Collaborators(x.repo.ID) {
		out = append(out, collaboratorJSON{ID: c.UserID, Login: c.Login, Permission: c.Permission})
	}
	page, err := paginate(w, r, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

// addCollaborator: POST /repos/{owner}/{repo}/collaborators {username,
// permission (default write)}: 201 for a new collaborator, 200 when an
// existing one's permission changes.
func (a *API) addCollaborator(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	var in struct {
		Username   *string `json:"username"`
		Permission *string `json:"permission"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if err := required("username", in.Username); err != nil {
		return err
	}
	perm := store.PermWrite
	if in.Permission != nil {
		perm = *in.Permission
	}
	if store.PermRank(perm) == 0 {
		return errInvalid("permission must be read, write or admin, not %q", perm)
	}
	if err := x.needAdmin("managing collaborators"); err != nil {
		return err
	}
	u, ok := a.st.UserByLogin(*in.Username)
	if !ok {
		return errNotFound("user %s not found", *in.Username)
	}
	created, err := a.st.SetCollaborator(x.repo.ID, u, perm)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, map[string]any{"ok": true, "login": u.Login, "permission": perm})
	return nil
}

// removeCollaborator: DELETE /repos/{owner}/{repo}/collaborators/{user}.
func (a *API) removeCollaborator(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	if err := x.needAdmin("managing collaborators"); err != nil {
		return err
	}
	u, ok := a.st.UserByLogin(r.PathValue("user"))
	if !ok {
		return errNotFound("user %s not found", r.PathValue("user"))
	}
	if err := a.st.RemoveCollaborator(x.repo.ID, u.ID); err != nil {
		return errNotFound("%s is not a collaborator on %s", u.Login, x.repo.FullName())
	}
	writeJSON(w, http.StatusOK, okBody)
	return nil
}
