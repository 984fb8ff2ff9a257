package rest

import (
	"net/http"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver/store"
)

// Administration rules (the specification leaves them open):
//   - a user may call no /admin endpoint (403);
//   - a customer_admin sees and manages only the accounts it invited, and
//     may invite roles user and customer_admin;
//   - a site_admin sees and manages every account and may invite any role;
//   - nobody disables or deletes their own account here (403).

func requireAdmin(s *session) error {
	if !s.user.IsAdmin() {
		return errForbidden("administration needs the customer_admin or site_admin role; %s has role %s", s.user.Login, s.user.Role)
	}
	return nil
}

// manages reports whether admin may see and manage u.
func manages(admin, u store.User) bool {
	return admin.Role == store.RoleSiteAdmin || admin.Role == store.RoleCustomerAdmin && u.InvitedByID == admin.ID
}

type inviteJSON struct {
	ID                int64      `json:"id"`
	Login             string     `json:"login"`
	Username          string     `json:"username"`
	Email             string     `json:"email"`
	FullName          string     `json:"full_name"`
	Role              string     `json:"role"`
	InvitedBy         string     `json:"invited_by"`
	State             string     `json:"state"`
	CreatedAt         time.Time  `json:"created_at"`
	ActivatedAt       *time.Time `json:"activated_at"`
	TemporaryPassword string     `json:"temporary_password,omitempty"`
}

func inviteView(inv store.Invite) inviteJSON {
	state := "pending"
	if inv.ActivatedAt != nil {
		state = "accepted"
	}
	return inviteJSON{ID: inv.ID, Login: inv.Login, Username: inv.Login, Email: inv.Email, FullName: inv.FullName,
		Role: inv.Role, InvitedBy: inv.InvitedBy, State: state, CreatedAt: inv.CreatedAt, ActivatedAt: inv.ActivatedAt}
}

// listInvites: GET /admin/invites.
func (a *API) listInvites(w http.ResponseWriter, r *http.Request, s *session) error {
	if err := requireAdmin(s); err != nil {
		return err
	}
	invs := a.st.Invites(func(inv *store.Invite) bool {
		return s.user.Role == store.RoleSiteAdmin || inv.InvitedByID == s.user.ID
	})
	out := make([]inviteJSON, 0, len(invs))
	for _, inv := range invs {
		out = append(out, inviteView(inv))
	}
	page, err := paginate(w, r, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

// createInvite: POST /admin/invites {username, email, fullName, role}
// creates the account with a one-time temporary password, returned only
// here: it logs in once (the first login sets activated_at and spends
// it), so the inviter who saw it cannot log in as the invitee later.
func (a *API) createInvite(w http.ResponseWriter, r *http.Request, s *session) error {
	if err := requireAdmin(s); err != nil {
		return err
	}
	var in struct {
		Username  *string `json:"username"`
		Email     *string `json:"email"`
		FullName  *string `json:"fullName"`
		FullName2 *string `json:"full_name"`
		Role      *string `json:"role"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if err := required("username", in.Username, "email", in.Email); err != nil {
		return err
	}
	if why := store.ValidLogin(*in.Username); why != "" {
		return errInvalid("%s", why)
	}
	if err := checkEmail(*in.Email); err != nil {
		return err
	}
	role := store.RoleUser
	if in.Role != nil && *in.Role != "" {
		role = *in.Role
	}
	if !store.ValidRole(role) {
		return errInvalid("role must be user, customer_admin or site_admin, not %q", role)
	}
	if role == store.RoleSiteAdmin && s.user.Role != store.RoleSiteAdmin {
		return errForbidden("only a site_admin may invite a site_admin")
	}
	full := ""
	if in.FullName != nil {
		full = *in.FullName
	} else if in.FullName2 != nil {
		full = *in.FullName2
	}
	temp := store.RandomString(20, "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
	hash, err := store.HashPassword(temp, a.cfg.PasswordCost)
	if err != nil {
		return err
	}
	inv, err := a.st.CreateInvite(store.NewUser{Login: *in.Username, Email: *in.Email, FullName: strings.TrimSpace(full),
		Role: role, PasswordHash: hash, InvitedBy: &s.user, Temporary: true})
	if err != nil {
		return err
	}
	out := inviteView(inv)
	out.TemporaryPassword = temp
	writeJSON(w, http.StatusCreated, out)
	return nil
}

type adminUserJSON struct {
	userJSON
	State       string     `json:"state"`
	InvitedBy   string     `json:"invited_by"`
	ActivatedAt *time.Time `json:"activated_at"`
	TwoFA       bool       `json:"twofa_enabled"`
}

func (a *API) adminUserView(r *http.Request, u store.User) adminUserJSON {
	state := "enabled"
	if u.Disabled {
		state = "disabled"
	}
	return adminUserJSON{userJSON: a.userView(r, u), State: state, InvitedBy: u.InvitedBy, ActivatedAt: u.ActivatedAt, TwoFA: u.TwoFA}
}

// listUsers: GET /admin/users.
func (a *API) listUsers(w http.ResponseWriter, r *http.Request, s *session) error {
	if err := requireAdmin(s); err != nil {
		return err
	}
	users := a.st.Users(func(u *store.User) bool { return manages(s.user, *u) })
	out := make([]adminUserJSON, 0, len(users))
	for _, u := range users {
		out = append(out, a.adminUserView(r, u))
	}
	page, err := paginate(w, r, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

// target finds the account an admin endpoint names, as the caller may see
// it: an account it does not manage is not found.
func (a *API) target(r *http.Request, s *session, verb string) (store.User, error) {
	if err := requireAdmin(s); err != nil {
		return store.User{}, err
	}
	login := r.PathValue("user")
	u, ok := a.st.UserByLogin(login)
	if ok && u.ID == s.user.ID {
		return store.User{}, errForbidden("you cannot %s your own account", verb)
	}
	if !ok || !manages(s.user, u) {
		return store.User{}, errNotFound("user %s not found", login)
	}
	return u, nil
}

// disableUser: POST /admin/users/{user}/disable; the account's tokens are
// revoked and it cannot log in.
func (a *API) disableUser(w http.ResponseWriter, r *http.Request, s *session) error {
	return a.setDisabled(w, r, s, true)
}

// enableUser: POST /admin/users/{user}/enable.
func (a *API) enableUser(w http.ResponseWriter, r *http.Request, s *session) error {
	return a.setDisabled(w, r, s, false)
}

func (a *API) setDisabled(w http.ResponseWriter, r *http.Request, s *session, disabled bool) error {
	verb := "enable"
	if disabled {
		verb = "disable"
	}
	u, err := a.target(r, s, verb)
	if err != nil {
		return err
	}
	was := u.Disabled
	u, err = a.st.SetDisabled(u.ID, disabled)
	if err != nil {
		return err
	}
	// changed says whether the call did anything, so a client can tell
	// "disabled now" from "already was" without a second request.
	writeJSON(w, http.StatusOK, struct {
		adminUserJSON
		Changed bool `json:"changed"`
	}{a.adminUserView(r, u), was != disabled})
	return nil
}

// deleteUser: DELETE /admin/users/{user} removes the account, its tokens,
// keys and repositories.
func (a *API) deleteUser(w http.ResponseWriter, r *http.Request, s *session) error {
	u, err := a.target(r, s, "delete")
	if err != nil {
		return err
	}
	repos, err := a.st.DeleteUser(u.ID)
	if err != nil {
		return err
	}
	for _, id := range repos {
		a.git.Remove(id)
	}
	if a.cfg.OnUserDeleted != nil {
		if err := a.cfg.OnUserDeleted(u.Login); err != nil {
			return err
		}
	}
	writeJSON(w, http.StatusOK, okBody)
	return nil
}
