package rest

import (
	"net/http"
	"net/mail"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver/store"
	"golang.org/x/crypto/ssh"
)

// userJSON is the User shape of the specification plus GitHub-like extras.
type userJSON struct {
	ID          int64     `json:"id"`
	Login       string    `json:"login"`
	Email       string    `json:"email"`
	FullName    string    `json:"full_name"`
	IsAdmin     bool      `json:"is_admin"`
	Role        string    `json:"role"`
	AvatarURL   string    `json:"avatar_url"`
	HTMLURL     string    `json:"html_url"`
	Location    string    `json:"location"`
	Website     string    `json:"website"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"created_at"`
}

func (a *API) userView(r *http.Request, u store.User) userJSON {
	o := origin(r)
	return userJSON{ID: u.ID, Login: u.Login, Email: u.Email, FullName: u.FullName, IsAdmin: u.IsAdmin(),
		Role: u.Role, AvatarURL: o + "/avatars/" + u.Login, HTMLURL: o + "/" + u.Login,
		Location: u.Location, Website: u.Website, Description: u.Description, CreatedAt: u.CreatedAt}
}

// getMe: GET /me.
func (a *API) getMe(w http.ResponseWriter, r *http.Request, s *session) error {
	writeJSON(w, http.StatusOK, a.userView(r, s.user))
	return nil
}

type stateJSON struct {
	Role        string     `json:"role"`
	TwoFA       bool       `json:"twofa_enabled"`
	SSHKeyAdded bool       `json:"ssh_key_added"`
	InvitedBy   string     `json:"invited_by"`
	ActivatedAt *time.Time `json:"activated_at"`
	Disabled    bool       `json:"disabled"`
}

// getState: GET /me/state.
func (a *API) getState(w http.ResponseWriter, r *http.Request, s *session) error {
	u := s.user
	writeJSON(w, http.StatusOK, stateJSON{Role: u.Role, TwoFA: u.TwoFA, SSHKeyAdded: len(a.st.Keys(u.ID)) > 0,
		InvitedBy: u.InvitedBy, ActivatedAt: u.ActivatedAt, Disabled: u.Disabled})
	return nil
}

// patchProfile: PATCH /me/profile with optional full_name, email,
// location, website, description.
func (a *API) patchProfile(w http.ResponseWriter, r *http.Request, s *session) error {
	var in struct {
		FullName    *string `json:"full_name"`
		Email       *string `json:"email"`
		Location    *string `json:"location"`
		Website     *string `json:"website"`
		Description *string `json:"description"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if in.Email != nil && *in.Email != "" {
		if err := checkEmail(*in.Email); err != nil {
			return err
		}
	}
	for name, v := range map[string]*string{"full_name": in.FullName, "location": in.Location, "website": in.Website} {
		if v != nil && len(*v) > 255 {
			return errInvalid("%s must be at most 255 characters", name)
		}
	}
	if in.Description != nil && len(*in.Description) > 4096 {
		return errInvalid("description must be at most 4096 characters")
	}
	if _, err := a.st.UpdateProfile(s.user.ID, store.Profile{FullName: in.FullName, Email: in.Email,
		Location: in.Location, Website: in.Website, Description: in.Description}); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, okBody)
	return nil
}

func checkEmail(e string) error {
	addr, err := mail.ParseAddress(e)
	if err != nil || addr.Address != e || !strings.Contains(e, "@") {
		return errInvalid("email %q is not an email address", e)
	}
	return nil
}

// MinPasswordLen is the specification's minimum for new passwords.
const MinPasswordLen = 12

func checkNewPassword(pw string) error {
	n := len([]rune(pw))
	if n < MinPasswordLen {
		return errInvalid("new_password must be at least %d characters (got %d)", MinPasswordLen, n)
	}
	if n > 1024 {
		return errInvalid("new_password must be at most 1024 characters")
	}
	return nil
}

// changePassword: POST /me/password {old_password, new_password}. Every
// token of the account is revoked, the caller's too; the response carries
// a fresh token for the caller.
func (a *API) changePassword(w http.ResponseWriter, r *http.Request, s *session) error {
	var in struct {
		Old *string `json:"old_password"`
		New *string `json:"new_password"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if in.Old == nil || *in.Old == "" {
		return errInvalid("field old_password is required")
	}
	if in.New == nil {
		return errInvalid("field new_password is required")
	}
	if err := checkNewPassword(*in.New); err != nil {
		return err
	}
	if !store.PasswordMatches(s.user.PasswordHash, *in.Old) {
		return errForbidden("old_password is incorrect")
	}
	hash, err := store.HashPassword(*in.New, a.cfg.PasswordCost)
	if err != nil {
		return err
	}
	tok, err := a.st.SetPassword(s.user.ID, hash, true)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "token": tok})
	return nil
}

type keyJSON struct {
	ID          int64     `json:"id"`
	Title       string    `json:"title"`
	Key         string    `json:"key"`
	Fingerprint string    `json:"fingerprint"`
	CreatedAt   time.Time `json:"created_at"`
}

func keyView(k store.SSHKey) keyJSON {
	return keyJSON{ID: k.ID, Title: k.Title, Key: k.Key, Fingerprint: k.Fingerprint, CreatedAt: k.CreatedAt}
}

// listKeys: GET /me/keys.
func (a *API) listKeys(w http.ResponseWriter, r *http.Request, s *session) error {
	keys := a.st.Keys(s.user.ID)
	out := make([]keyJSON, 0, len(keys))
	for _, k := range keys {
		out = append(out, keyView(k))
	}
	page, err := paginate(w, r, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

// addKey: POST /me/keys {title, key}.
func (a *API) addKey(w http.ResponseWriter, r *http.Request, s *session) error {
	var in struct {
		Title *string `json:"title"`
		Key   *string `json:"key"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if err := required("title", in.Title, "key", in.Key); err != nil {
		return err
	}
	if len(*in.Title) > 255 {
		return errInvalid("title must be at most 255 characters")
	}
	line := strings.TrimSpace(*in.Key)
	if strings.Contains(line, "PRIVATE KEY") {
		return errInvalid("key is a private key: send the public key (the .pub file) instead, and keep the private key secret")
	}
	pub, comment, _, rest, err := ssh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		return errInvalid("key is not an SSH public key line (\"ssh-ed25519 AAAA... comment\"): %v", err)
	}
	if len(strings.TrimSpace(string(rest))) > 0 {
		return errInvalid("key must be a single public key line")
	}
	norm := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
	if comment != "" {
		norm += " " + comment
	}
	k, err := a.st.AddKey(s.user.ID, strings.TrimSpace(*in.Title), norm, ssh.FingerprintSHA256(pub))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, keyView(k))
	return nil
}

// deleteKey: DELETE /me/keys/{id}.
func (a *API) deleteKey(w http.ResponseWriter, r *http.Request, s *session) error {
	id, err := pathInt(r, "id")
	if err != nil {
		return err
	}
	if err := a.st.DeleteKey(s.user.ID, id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, okBody)
	return nil
}
