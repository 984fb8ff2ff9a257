package registry

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// access is one entry of a token's "access" claim, as in the Docker
// registry token specification: {type, name, actions}.
type access struct {
	Type    string   `json:"type"`
	Name    string   `json:"name"`
	Actions []string `json:"actions"`
}

// claims are a registry token's claims. The audience is a single string,
// not an array: the CNCF distribution registry 2.8 rejects an array.
type claims struct {
	Issuer    string           `json:"iss"`
	Subject   string           `json:"sub"`
	Audience  string           `json:"aud"`
	ExpiresAt *jwt.NumericDate `json:"exp"`
	NotBefore *jwt.NumericDate `json:"nbf"`
	IssuedAt  *jwt.NumericDate `json:"iat"`
	ID        string           `json:"jti"`
	Access    []access         `json:"access"`
	// AccountID is the id of the account the token was issued to: the
	// subject's login may pass to another account.
	AccountID string `json:"uid,omitempty"`
}

func (c *claims) GetExpirationTime() (*jwt.NumericDate, error) { return c.ExpiresAt, nil }
func (c *claims) GetIssuedAt() (*jwt.NumericDate, error)       { return c.IssuedAt, nil }
func (c *claims) GetNotBefore() (*jwt.NumericDate, error)      { return c.NotBefore, nil }
func (c *claims) GetIssuer() (string, error)                   { return c.Issuer, nil }
func (c *claims) GetSubject() (string, error)                  { return c.Subject, nil }
func (c *claims) GetAudience() (jwt.ClaimStrings, error)       { return jwt.ClaimStrings{c.Audience}, nil }

// allows reports whether the token grants action on the resource.
func (c *claims) allows(typ, name, action string) bool {
	for _, a := range c.Access {
		if a.Type == typ && a.Name == name && (slices.Contains(a.Actions, action) || slices.Contains(a.Actions, "*")) {
			return true
		}
	}
	return false
}

// scope is a requested scope, "repository:alice/app:pull,push".
type scope struct {
	Type    string
	Name    string
	Actions []string
}

// parseScope splits a scope at its first and last colon: the type comes
// first, the actions last, and the name between may not hold a colon, but
// it need not be a valid repository name to be parsed (the policy refuses
// what it does not know).
func parseScope(s string) (scope, error) {
	first, last := strings.IndexByte(s, ':'), strings.LastIndexByte(s, ':')
	if first < 0 || first == last {
		return scope{}, fmt.Errorf("malformed scope %q: want type:name:actions", s)
	}
	typ := s[:first]
	// "repository(plugin)" is a repository with a class; the class does
	// not change what may be done with it.
	if i := strings.IndexByte(typ, '('); i > 0 && strings.HasSuffix(typ, ")") {
		typ = typ[:i]
	}
	sc := scope{Type: typ, Name: s[first+1 : last]}
	for _, a := range strings.Split(s[last+1:], ",") {
		if a = strings.TrimSpace(a); a != "" && !slices.Contains(sc.Actions, a) {
			sc.Actions = append(sc.Actions, a)
		}
	}
	if sc.Type == "" || sc.Name == "" {
		return scope{}, fmt.Errorf("malformed scope %q: want type:name:actions", s)
	}
	return sc, nil
}

func (sc scope) String() string {
	return sc.Type + ":" + sc.Name + ":" + strings.Join(sc.Actions, ",")
}

// issue signs a token for the account with the granted access.
func (s *signer) issue(issuer, audience string, acct account, granted []access, ttl time.Duration, now time.Time) (string, error) {
	jti := make([]byte, 16)
	if _, err := rand.Read(jti); err != nil {
		return "", err
	}
	if granted == nil {
		granted = []access{}
	}
	c := &claims{
		Issuer:    issuer,
		Subject:   acct.Login,
		AccountID: acct.ID,
		Audience:  audience,
		ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
		// A little before now, so a registry whose clock is a second
		// behind still accepts a fresh token.
		NotBefore: jwt.NewNumericDate(now.Add(-10 * time.Second)),
		IssuedAt:  jwt.NewNumericDate(now),
		ID:        hex.EncodeToString(jti),
		Access:    granted,
	}
	t := jwt.NewWithClaims(jwt.SigningMethodES256, c)
	t.Header["kid"] = s.kid
	return t.SignedString(s.key)
}

var errBadToken = errors.New("invalid token")

// verify checks a token's signature, issuer, audience and times and
// returns its claims.
func (s *signer) verify(raw, issuer, audience string) (*claims, error) {
	c := &claims{}
	p := jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodES256.Alg()}),
		jwt.WithIssuer(issuer),
		jwt.WithAudience(audience),
		jwt.WithExpirationRequired(),
		jwt.WithLeeway(30*time.Second),
	)
	_, err := p.ParseWithClaims(raw, c, func(*jwt.Token) (any, error) { return &s.key.PublicKey, nil })
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errBadToken, err)
	}
	return c, nil
}

// verifiedTokens remembers the claims of tokens whose signature checked
// out, until they expire: a client sends the same token with every request
// of a push or a listing, and checking an ES256 signature each time was
// most of a small request's cost. The key is a hash of the whole token, so
// a remembered entry is only ever the answer for those exact bytes. What
// changes under a token (the account, the policy) is still checked on
// every request.
type verifiedTokens struct {
	mu     sync.Mutex
	m      map[[32]byte]*claims
	checks atomic.Int64 // signatures checked, for tests
}

// maxVerified bounds the remembered tokens: past it, expired ones go, and
// when none has expired a new token is checked but not remembered.
const maxVerified = 4096

// get returns the claims of raw, checking it with verify unless it was
// checked before and has not expired at now.
func (v *verifiedTokens) get(raw string, now time.Time, verify func(string) (*claims, error)) (*claims, error) {
	key := sha256.Sum256([]byte(raw))
	v.mu.Lock()
	c, ok := v.m[key]
	v.mu.Unlock()
	if ok && now.Before(c.ExpiresAt.Time) {
		return c, nil
	}
	v.checks.Add(1)
	c, err := verify(raw)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m = map[[32]byte]*claims{}
	}
	if len(v.m) >= maxVerified {
		for k, e := range v.m {
			if !now.Before(e.ExpiresAt.Time) {
				delete(v.m, k)
			}
		}
	}
	if len(v.m) < maxVerified {
		v.m[key] = c
	}
	return c, nil
}
