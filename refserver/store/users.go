package store

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"sort"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// Roles, from least to most privileged.
const (
	RoleUser          = "user"
	RoleCustomerAdmin = "customer_admin"
	RoleSiteAdmin     = "site_admin"
)

// ValidRole reports whether r names a role.
func ValidRole(r string) bool {
	return r == RoleUser || r == RoleCustomerAdmin || r == RoleSiteAdmin
}

// User is an account.
type User struct {
	ID           int64      `json:"id"`
	Login        string     `json:"login"`
	Email        string     `json:"email"`
	FullName     string     `json:"full_name"`
	Location     string     `json:"location"`
	Website      string     `json:"website"`
	Description  string     `json:"description"`
	Role         string     `json:"role"`
	Disabled     bool       `json:"disabled"`
	PasswordHash []byte     `json:"password_hash"`
	CreatedAt    time.Time  `json:"created_at"`
	ActivatedAt  *time.Time `json:"activated_at"`
	InvitedBy    string     `json:"invited_by"`
	InvitedByID  int64      `json:"invited_by_id"`
	// Two-factor state: PendingSecret between setup and confirm, Secret
	// once enabled, and the last TOTP time step accepted (replay guard).
	TwoFA         bool   `json:"twofa"`
	Secret        string `json:"totp_secret"`
	PendingSecret string `json:"totp_pending_secret"`
	LastStep      int64  `json:"totp_last_step"`
	// Sessions counts the changes of the account's password or
	// two-factor state: each one ends every session begun before it (see
	// EndSessions), and what was granted under an earlier count (the
	// registry's tokens) stops working.
	Sessions int64 `json:"sessions"`
	// Temporary says the password is an invite's temporary one:
	// TempUnused until the first login with it, TempSpent after it, when
	// it no longer logs in (see SpendTemporary); "" for a password the
	// user chose.
	Temporary string `json:"temporary_password,omitempty"`
}

// The states of a temporary password (User.Temporary).
const (
	TempUnused = "unused"
	TempSpent  = "spent"
)

// IsAdmin reports whether the user holds an administrative role.
func (u *User) IsAdmin() bool { return u.Role == RoleCustomerAdmin || u.Role == RoleSiteAdmin }

// Token is an API token. Only the SHA-256 of the token is kept.
type Token struct {
	ID        int64     `json:"id"`
	UserID    int64     `json:"user_id"`
	Hash      string    `json:"hash"`
	CreatedAt time.Time `json:"created_at"`
	// Pending marks a login token of a 2FA account that has not passed
	// /me/2fa/verify yet; BadCodes counts wrong codes sent with it.
	Pending  bool `json:"pending"`
	BadCodes int  `json:"bad_codes"`
}

// HashPassword hashes pw with bcrypt at the given cost. The password is
// first reduced with SHA-256, so passwords longer than bcrypt's 72 bytes
// keep all their characters.
func HashPassword(pw string, cost int) ([]byte, error) {
	return bcrypt.GenerateFromPassword(prehash(pw), cost)
}

// PasswordMatches reports whether pw is the password hashed in hash.
func PasswordMatches(hash []byte, pw string) bool {
	return bcrypt.CompareHashAndPassword(hash, prehash(pw)) == nil
}

func prehash(pw string) []byte {
	sum := sha256.Sum256([]byte(pw))
	return []byte(base64.StdEncoding.EncodeToString(sum[:]))
}

func hashToken(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

// RandomString returns n random characters from alphabet.
func RandomString(n int, alphabet string) string {
	b := make([]byte, n)
	rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// NewUser describes an account to create. PasswordHash comes from
// HashPassword, computed before taking the store's lock.
type NewUser struct {
	Login, Email, FullName, Role string
	PasswordHash                 []byte
	InvitedBy                    *User
	// Activated accounts have activated_at set now; invited ones get it
	// at their first login.
	Activated bool
	// Temporary marks the password as an invite's temporary one, which
	// logs in once (User.Temporary).
	Temporary bool
}

// CreateUser adds an account; a taken login is a conflict.
func (s *Store) CreateUser(n NewUser) (User, error) {
	var out User
	err := s.update(func(t *tx) error {
		u, err := s.createUser(t, n)
		if err == nil {
			out = *u
		}
		return err
	})
	return out, err
}

func (s *Store) createUser(t *tx, n NewUser) (*User, error) {
	if _, taken := s.userByLogin[strings.ToLower(n.Login)]; taken {
		return nil, Conflict("login %q is already taken", n.Login)
	}
	if !ValidRole(n.Role) {
		return nil, Invalid("role must be user, customer_admin or site_admin, not %q", n.Role)
	}
	now := s.Now()
	u := &User{ID: s.id(), Login: n.Login, Email: n.Email, FullName: n.FullName, Role: n.Role,
		PasswordHash: n.PasswordHash, CreatedAt: now}
	if n.InvitedBy != nil {
		u.InvitedBy, u.InvitedByID = n.InvitedBy.Login, n.InvitedBy.ID
	}
	if n.Activated {
		u.ActivatedAt = &now
	}
	if n.Temporary {
		u.Temporary = TempUnused
	}
	s.d.Users[u.ID] = u
	s.userByLogin[strings.ToLower(u.Login)] = u
	t.put("user", u.ID, u)
	return u, nil
}

// UserByLogin finds an account by login, ignoring case.
func (s *Store) UserByLogin(login string) (User, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.userByLogin[strings.ToLower(login)]
	if !ok {
		return User{}, false
	}
	return *u, true
}

// UserByID finds an account by ID.
func (s *Store) UserByID(id int64) (User, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.d.Users[id]
	if !ok {
		return User{}, false
	}
	return *u, true
}

// Users lists accounts by ID; keep filters the list (nil keeps all).
func (s *Store) Users(keep func(*User) bool) []User {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]User, 0, len(s.d.Users))
	for _, u := range s.d.Users {
		if keep == nil || keep(u) {
			out = append(out, *u)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// IssueToken creates a token for the user and returns it in clear, the
// only time it exists in clear. pending marks a 2FA login awaiting its code.
func (s *Store) IssueToken(userID int64, pending bool) (string, error) {
	raw := "fgt_" + RandomString(40, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
	err := s.update(func(t *tx) error {
		if _, ok := s.d.Users[userID]; !ok {
			return NotFound("no such user")
		}
		tok := &Token{ID: s.id(), UserID: userID, Hash: hashToken(raw), CreatedAt: s.Now(), Pending: pending}
		s.d.Tokens[tok.ID] = tok
		s.tokenByHash[tok.Hash] = tok
		t.put("token", tok.ID, tok)
		return nil
	})
	return raw, err
}

// Authenticate finds the token and its user; ok is false for an unknown
// or revoked token or a disabled user.
func (s *Store) Authenticate(raw string) (u User, tok Token, ok bool) {
	h := hashToken(raw)
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, found := s.tokenByHash[h]
	if !found || subtle.ConstantTimeCompare([]byte(t.Hash), []byte(h)) != 1 {
		return User{}, Token{}, false
	}
	usr, found := s.d.Users[t.UserID]
	if !found || usr.Disabled {
		return User{}, Token{}, false
	}
	return *usr, *t, true
}

// VerifyToken clears a token's pending 2FA mark.
func (s *Store) VerifyToken(id int64) error {
	return s.update(func(t *tx) error {
		tok, ok := s.d.Tokens[id]
		if !ok {
			return errf(Revoked, "token revoked")
		}
		tok.Pending = false
		tok.BadCodes = 0
		t.put("token", id, tok)
		return nil
	})
}

// CountBadCode records a wrong 2FA code sent with a pending token and
// revokes the token after max of them; revoked reports that.
func (s *Store) CountBadCode(id int64, max int) (revoked bool, err error) {
	err = s.update(func(t *tx) error {
		tok, ok := s.d.Tokens[id]
		if !ok {
			revoked = true
			return nil
		}
		tok.BadCodes++
		if tok.BadCodes >= max {
			s.revoke(t, tok)
			revoked = true
			return nil
		}
		t.put("token", id, tok)
		return nil
	})
	return revoked, err
}

// RevokeToken deletes one token.
func (s *Store) RevokeToken(id int64) error {
	return s.update(func(t *tx) error {
		if tok, ok := s.d.Tokens[id]; ok {
			s.revoke(t, tok)
		}
		return nil
	})
}

func (s *Store) revoke(t *tx, tok *Token) {
	delete(s.d.Tokens, tok.ID)
	delete(s.tokenByHash, tok.Hash)
	t.del("token", tok.ID)
}

func (s *Store) revokeAll(t *tx, userID int64) {
	for _, tok := range s.d.Tokens {
		if tok.UserID == userID {
			s.revoke(t, tok)
		}
	}
}

// endSessions is the rule of a change of password or of two-factor
// state: every token of the account is revoked but keep (the session
// that made the change; 0 for none), and Sessions moves on, so that
// whatever was granted before (the registry's tokens carry it) stops
// working too. The caller puts u.
func (s *Store) endSessions(t *tx, u *User, keep int64) {
	for _, tok := range s.d.Tokens {
		if tok.UserID == u.ID && tok.ID != keep {
			s.revoke(t, tok)
		}
	}
	u.Sessions++
}

// SpendTemporary is the first login with an unused temporary password:
// it marks the password spent, so that it logs in no more (whoever else
// saw it, the inviter among them), and reports whether it was unused —
// of two logins at once, one wins.
func (s *Store) SpendTemporary(userID int64) (bool, error) {
	spent := false
	err := s.update(func(t *tx) error {
		u, ok := s.d.Users[userID]
		if !ok || u.Temporary != TempUnused {
			return nil
		}
		u.Temporary = TempSpent
		t.put("user", u.ID, u)
		spent = true
		return nil
	})
	return spent, err
}

// MarkActivated sets activated_at at an invited user's first login.
func (s *Store) MarkActivated(userID int64) error {
	return s.update(func(t *tx) error {
		u, ok := s.d.Users[userID]
		if !ok || u.ActivatedAt != nil {
			return nil
		}
		now := s.Now()
		u.ActivatedAt = &now
		t.put("user", u.ID, u)
		for _, inv := range s.d.Invites {
			if inv.UserID == u.ID {
				inv.ActivatedAt = &now
				t.put("invite", inv.ID, inv)
			}
		}
		return nil
	})
}

// Profile holds the editable profile fields; nil leaves a field as is.
type Profile struct {
	FullName, Email, Location, Website, Description *string
}

// UpdateProfile changes the given fields.
func (s *Store) UpdateProfile(userID int64, p Profile) (User, error) {
	var out User
	err := s.update(func(t *tx) error {
		u, ok := s.d.Users[userID]
		if !ok {
			return NotFound("no such user")
		}
		for dst, src := range map[*string]*string{&u.FullName: p.FullName, &u.Email: p.Email,
			&u.Location: p.Location, &u.Website: p.Website, &u.Description: p.Description} {
			if src != nil {
				*dst = *src
			}
		}
		t.put("user", u.ID, u)
		out = *u
		return nil
	})
	return out, err
}

// SetPassword stores a new password hash and ends every session of the
// user (endSessions); it returns a fresh token for the session that
// asked, if keep.
func (s *Store) SetPassword(userID int64, hash []byte, keep bool) (string, error) {
	err := s.update(func(t *tx) error {
		u, ok := s.d.Users[userID]
		if !ok {
			return NotFound("no such user")
		}
		u.PasswordHash, u.Temporary = hash, ""
		s.endSessions(t, u, 0)
		t.put("user", u.ID, u)
		return nil
	})
	if err != nil || !keep {
		return "", err
	}
	return s.IssueToken(userID, false)
}

// SetDisabled disables or enables an account; disabling revokes its
// tokens.
func (s *Store) SetDisabled(userID int64, disabled bool) (User, error) {
	var out User
	err := s.update(func(t *tx) error {
		u, ok := s.d.Users[userID]
		if !ok {
			return NotFound("no such user")
		}
		u.Disabled = disabled
		t.put("user", u.ID, u)
		if disabled {
			s.revokeAll(t, u.ID)
		}
		out = *u
		return nil
	})
	return out, err
}

// DeleteUser removes an account with its tokens, keys, invite,
// collaborations and repositories. It returns the IDs of the deleted
// repositories, whose git data the caller removes.
func (s *Store) DeleteUser(userID int64) ([]int64, error) {
	var repos []int64
	err := s.update(func(t *tx) error {
		u, ok := s.d.Users[userID]
		if !ok {
			return NotFound("no such user")
		}
		s.revokeAll(t, u.ID)
		for _, k := range s.d.Keys {
			if k.UserID == u.ID {
				delete(s.d.Keys, k.ID)
				t.del("key", k.ID)
			}
		}
		for _, inv := range s.d.Invites {
			if inv.UserID == u.ID {
				delete(s.d.Invites, inv.ID)
				t.del("invite", inv.ID)
			}
		}
		for _, c := range s.d.Collabs {
			if c.UserID == u.ID {
				s.removeCollab(t, c)
			}
		}
		for _, r := range s.d.Repos {
			if r.OwnerID == u.ID {
				repos = append(repos, r.ID)
				s.deleteRepo(t, r)
			}
		}
		delete(s.d.Users, u.ID)
		delete(s.userByLogin, strings.ToLower(u.Login))
		t.del("user", u.ID)
		return nil
	})
	return repos, err
}

// BeginTwoFA stores a new enrolment secret, replacing an unconfirmed one.
func (s *Store) BeginTwoFA(userID int64, secret string) error {
	return s.update(func(t *tx) error {
		u, ok := s.d.Users[userID]
		if !ok {
			return NotFound("no such user")
		}
		if u.TwoFA {
			return Conflict("two-factor authentication is already enabled; disable it first")
		}
		u.PendingSecret = secret
		t.put("user", u.ID, u)
		return nil
	})
}

// ErrReplay refuses a TOTP code whose time step was already used.
var ErrReplay = &Error{Kind: InvalidInput, Msg: "this code was already used; wait for the next one"}

// UseStep records that the user's TOTP code for time step was accepted;
// a step at or before the last accepted one is a replay and refused, so
// each code works once.
func (s *Store) UseStep(userID, step int64) error {
	return s.useStep(userID, step, nil)
}

// ChangeTwoFA accepts the TOTP code of step (as UseStep) and in the same
// update turns two-factor authentication on with secret, or off when
// secret is "", ending every session of the user but the token keep
// (endSessions).
func (s *Store) ChangeTwoFA(userID, step int64, secret string, keep int64) error {
	return s.useStep(userID, step, func(t *tx, u *User) {
		u.TwoFA, u.Secret, u.PendingSecret = secret != "", secret, ""
		s.endSessions(t, u, keep)
	})
}

// useStep accepts the code of step, then makes change in the same update.
func (s *Store) useStep(userID, step int64, change func(t *tx, u *User)) error {
	return s.update(func(t *tx) error {
		u, ok := s.d.Users[userID]
		if !ok {
			return NotFound("no such user")
		}
		if step <= u.LastStep {
			return ErrReplay
		}
		u.LastStep = step
		if change != nil {
			change(t, u)
		}
		t.put("user", u.ID, u)
		return nil
	})
}

// SetTwoFA enables two-factor authentication with secret, or disables it
// when secret is "" (seeding: no session ends).
func (s *Store) SetTwoFA(userID int64, secret string) error {
	return s.update(func(t *tx) error {
		u, ok := s.d.Users[userID]
		if !ok {
			return NotFound("no such user")
		}
		u.TwoFA, u.Secret, u.PendingSecret = secret != "", secret, ""
		t.put("user", u.ID, u)
		return nil
	})
}
