package refserver

import (
	"fmt"

	"github.com/forgehq/forge/refserver/store"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// Seeding: Go methods that create data directly in the store, bypassing
// HTTP and permission checks, for tests and the demo. Each returns the
// record as stored.

// Store is the server's state, for tests that need more than the seeding
// methods.
func (s *Server) Store() *store.Store { return s.st }

// CreateUser creates an activated account with a password and a role
// ("" is user). Passwords are not checked against the API's minimum
// length, so tests may use short ones.
func (s *Server) CreateUser(login, password, role string) (store.User, error) {
	if role == "" {
		role = store.RoleUser
	}
	if why := store.ValidLogin(login); why != "" {
		return store.User{}, fmt.Errorf("user %q: %s", login, why)
	}
	hash, err := store.HashPassword(password, s.opts.PasswordCost)
	if err != nil {
		return store.User{}, err
	}
	return s.st.CreateUser(store.NewUser{Login: login, Email: login + "@example.com", FullName: login,
		Role: role, PasswordHash: hash, Activated: true})
}

func (s *Server) user(login string) (store.User, error) {
	u, ok := s.st.UserByLogin(login)
	if !ok {
		return store.User{}, fmt.Errorf("no user %q", login)
	}
	return u, nil
}

// Token issues an API token for login, as a completed login would.
func (s *Server) Token(login string) (string, error) {
	u, err := s.user(login)
	if err != nil {
		return "", err
	}
	return s.st.IssueToken(u.ID, false)
}

// EnableTwoFA turns on two-factor authentication for login and returns
// the TOTP secret (base32), from which tests compute codes with
// github.com/pquerna/otp/totp.
func (s *Server) EnableTwoFA(login string) (string, error) {
	u, err := s.user(login)
	if err != nil {
		return "", err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: "forge", AccountName: u.Login, Digits: otp.DigitsSix})
	if err != nil {
		return "", err
	}
	return key.Secret(), s.st.SetTwoFA(u.ID, key.Secret())
}
