package store

import (
	"sort"
	"time"
)

// Invite records that an administrator created an account for someone.
type Invite struct {
	ID          int64      `json:"id"`
	UserID      int64      `json:"user_id"`
	Login       string     `json:"login"`
	Email       string     `json:"email"`
	FullName    string     `json:"full_name"`
	Role        string     `json:"role"`
	InvitedBy   string     `json:"invited_by"`
	InvitedByID int64      `json:"invited_by_id"`
	CreatedAt   time.Time  `json:"created_at"`
	ActivatedAt *time.Time `json:"activated_at"`
}

// CreateInvite creates the invited account (not yet activated) and its
// invite in one update.
func (s *Store) CreateInvite(n NewUser) (Invite, error) {
	var out Invite
	err := s.update(func(t *tx) error {
		n.Activated = false
		u, err := s.createUser(t, n)
		if err != nil {
			return err
		}
		inv := &Invite{ID: s.id(), UserID: u.ID, Login: u.Login, Email: u.Email, FullName: u.FullName,
			Role: u.Role, InvitedBy: u.InvitedBy, InvitedByID: u.InvitedByID, CreatedAt: u.CreatedAt}
		s.d.Invites[inv.ID] = inv
		t.put("invite", inv.ID, inv)
		out = *inv
		return nil
	})
	return out, err
}

// Invites lists invites, oldest first; keep filters (nil keeps all).
func (s *Store) Invites(keep func(*Invite) bool) []Invite {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []Invite
	for _, inv := range s.d.Invites {
		if keep == nil || keep(inv) {
			out = append(out, *inv)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
