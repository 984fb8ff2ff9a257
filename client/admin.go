package client

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strings"
)

// Invite is an invitation to the service. The spec does not show its
// fields; these follow the request's names (username, email, fullName,
// role) plus GitHub-style ones, and RawJSON holds whatever the server sent.
type Invite struct {
	Raw
	ID         int64  `json:"id"`
	Username   string `json:"username"`
	Email      string `json:"email"`
	FullName   string `json:"fullName"`
	Role       string `json:"role"`
	State      string `json:"state"` // pending, accepted, ...
	InvitedBy  string `json:"invited_by"`
	InviteURL  string `json:"invite_url"`
	CreatedAt  Time   `json:"created_at"`
	ExpiresAt  Time   `json:"expires_at"`
	AcceptedAt Time   `json:"accepted_at"`
}

// fix fills the names a server may spell differently: full_name for
// fullName, login for username, status for state, inviter (or an
// invited_by object) for invited_by.
func (i *Invite) fix() {
	var alt struct {
		FullName  string `json:"full_name"`
		Login     string `json:"login"`
		Status    string `json:"status"`
		Inviter   person `json:"inviter"`
		InvitedBy person `json:"invited_by"`
	}
	if decode(i.raw, &alt) == nil {
		fill(&i.FullName, alt.FullName)
		fill(&i.Username, alt.Login)
		fill(&i.State, alt.Status)
		fill(&i.InvitedBy, alt.Inviter.Login, alt.InvitedBy.Login)
	}
}

// Label names the invite in a row: its username, else its email, else
// its ID, so no row is empty.
func (i *Invite) Label() string { return first(i.Username, i.Email, fmt.Sprintf("invite %d", i.ID)) }

// InviteCreate is the body of POST /admin/invites.
type InviteCreate struct {
	Username string `json:"username"`
	Email    string `json:"email"`
	FullName string `json:"fullName,omitempty"`
	Role     string `json:"role,omitempty"` // user, customer_admin or site_admin
}

// AdminService covers the administration endpoints (admin roles only).
type AdminService struct{ c *Client }

// ListInvites iterates over the invitations.
func (s *AdminService) ListInvites(ctx context.Context, opts ListOptions) iter.Seq2[*Invite, error] {
	return list[Invite](s.c, ctx, "/admin/invites", opts.values(nil), opts.Pages)
}

// CreateInvite invites someone. The answer's fields are not shown in the
// spec: the returned Invite holds what the server sent, and the request's
// values where it sent nothing.
func (s *AdminService) CreateInvite(ctx context.Context, in InviteCreate) (*Invite, error) {
	inv, err := sendOne[Invite](s.c, ctx, http.MethodPost, "/admin/invites", in)
	if err != nil {
		return nil, err
	}
	fill(&inv.Username, in.Username)
	fill(&inv.Email, in.Email)
	fill(&inv.FullName, in.FullName)
	fill(&inv.Role, in.Role)
	return inv, nil
}

// ListUsers iterates over the accounts the caller administers.
func (s *AdminService) ListUsers(ctx context.Context, opts ListOptions) iter.Seq2[*User, error] {
	return list[User](s.c, ctx, "/admin/users", opts.values(nil), opts.Pages)
}

func userPath(login string, more ...string) string {
	p := "/admin/users/" + url.PathEscape(login)
	for _, m := range more {
		p += "/" + m
	}
	return p
}

// DisableUser disables an account. already is true when the service said
// the account was disabled before: its answer's "changed": false, or a
// 409 Conflict after which the account, read back from the admin listing
// (the spec has no read of one account), is disabled. A 409 whose
// account is not in that state, or whose state cannot be read back, is
// another conflict: the service's error. A service that does not say is
// taken to have changed it.
func (s *AdminService) DisableUser(ctx context.Context, login string) (already bool, err error) {
	return s.setState(ctx, login, "disable")
}

// EnableUser enables a disabled account; already as for DisableUser.
func (s *AdminService) EnableUser(ctx context.Context, login string) (already bool, err error) {
	return s.setState(ctx, login, "enable")
}

func (s *AdminService) setState(ctx context.Context, login, verb string) (bool, error) {
	var body json.RawMessage
	_, err := s.c.Post(ctx, userPath(login, verb), nil, &body)
	if HasStatus(err, http.StatusConflict) {
		if disabled, known := s.disabled(ctx, login); known && disabled == (verb == "disable") {
			return true, nil // the account is in that state already
		}
		return false, err
	}
	if err != nil {
		return false, err
	}
	var out struct {
		Changed *bool `json:"changed"`
	}
	_ = json.Unmarshal(body, &out) // the body is not shown: any answer will do
	return out.Changed != nil && !*out.Changed, nil
}

// disabled reads login's state back from the admin listing; known is
// false when the listing cannot be read, does not hold the account, or
// does not say its state.
func (s *AdminService) disabled(ctx context.Context, login string) (disabled, known bool) {
	for u, err := range s.ListUsers(ctx, ListOptions{PerPage: 100}) {
		if err != nil {
			return false, false
		}
		if strings.EqualFold(u.Login, login) {
			return u.Disabled()
		}
	}
	return false, false
}

// DeleteUser removes an account.
func (s *AdminService) DeleteUser(ctx context.Context, login string) error {
	_, err := s.c.Delete(ctx, userPath(login), nil)
	return err
}
