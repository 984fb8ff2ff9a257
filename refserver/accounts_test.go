package refserver_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"golang.org/x/crypto/ssh"
)

func TestLogin(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	tests := []struct {
		name   string
		body   any
		status int
		errHas string
	}{
		{"ok", map[string]string{"username": "admin", "password": refservertest.AdminPassword}, 200, ""},
		{"login ignores case", map[string]string{"username": "ADMIN", "password": refservertest.AdminPassword}, 200, ""},
		{"wrong password", map[string]string{"username": "admin", "password": "nope"}, 401, "incorrect username or password"},
		{"unknown user", map[string]string{"username": "nobody", "password": "nope"}, 401, "incorrect username or password"},
		{"missing password", map[string]string{"username": "admin"}, 400, "password is required"},
		{"empty body", "", 400, "username is required"},
		{"malformed", `{"username":`, 400, "malformed JSON"},
		{"wrong type", `{"username": 5, "password": "x"}`, 400, "field username must be a string"},
		{"array body", `[1]`, 400, "must be a JSON object"},
		{"trailing data", `{"username":"a","password":"b"} x`, 400, "unexpected data"},
	}
	for _, tt := range tests {
		r := want(t, call(t, s, "POST", "/auth/login", "", tt.body), tt.status)
		if tt.status == 200 {
			if !strings.HasPrefix(r.str("token"), "fgt_") || r.obj["twofa_required"] != false {
				t.Errorf("%s: login response %s", tt.name, r.raw)
			}
			u := r.obj["user"].(map[string]any)
			if u["login"] != "admin" || u["is_admin"] != true || u["email"] == "" {
				t.Errorf("%s: user %v", tt.name, u)
			}
		} else if !strings.Contains(r.str("error"), tt.errHas) {
			t.Errorf("%s: error %q, want it to contain %q", tt.name, r.str("error"), tt.errHas)
		}
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	want(t, call(t, s, "GET", "/me", "", nil), 401)
	want(t, call(t, s, "GET", "/me", "fgt_unknown", nil), 401)
	r := call(t, s, "GET", "/me", "", nil)
	if !strings.Contains(r.str("error"), "Authorization: token") {
		t.Errorf("missing token error %q does not say what to send", r.str("error"))
	}
	tok := login(t, s, "admin", refservertest.AdminPassword)
	me := want(t, call(t, s, "GET", "/me", tok, nil), 200)
	for _, k := range []string{"id", "login", "email", "full_name", "is_admin", "avatar_url"} {
		if _, ok := me.obj[k]; !ok {
			t.Errorf("GET /me lacks %s: %s", k, me.raw)
		}
	}
	// Bearer is accepted too.
	req, _ := http.NewRequest("GET", s.BaseURL()+"/me", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("Bearer token: %d", res.StatusCode)
	}
	// Logout revokes the token.
	want(t, call(t, s, "POST", "/auth/logout", tok, nil), 200)
	want(t, call(t, s, "GET", "/me", tok, nil), 401)
}

func TestLockout(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	s := refservertest.Start(t, refservertest.Clock(c.Now))
	bad := map[string]string{"username": "admin", "password": "wrong-password"}
	good := map[string]string{"username": "admin", "password": refservertest.AdminPassword}
	for i := 0; i < 5; i++ {
		want(t, call(t, s, "POST", "/auth/login", "", bad), 401)
	}
	r := want(t, call(t, s, "POST", "/auth/login", "", good), 429)
	if r.header.Get("Retry-After") == "" || !strings.Contains(r.str("error"), "try again in 15 minute") {
		t.Errorf("lockout answer %s, Retry-After %q", r.raw, r.header.Get("Retry-After"))
	}
	c.Add(14 * time.Minute)
	want(t, call(t, s, "POST", "/auth/login", "", good), 429)
	c.Add(2 * time.Minute)
	want(t, call(t, s, "POST", "/auth/login", "", good), 200)
	// Success resets the count: four more failures do not lock.
	for i := 0; i < 4; i++ {
		want(t, call(t, s, "POST", "/auth/login", "", bad), 401)
	}
	want(t, call(t, s, "POST", "/auth/login", "", good), 200)
}

func TestProfileAndState(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	tok := mustUser(t, s, "alice", "alice-password-123", "")
	st := want(t, call(t, s, "GET", "/me/state", tok, nil), 200)
	if st.str("role") != "user" || st.obj["twofa_enabled"] != false || st.obj["ssh_key_added"] != false || st.str("activated_at") == "" {
		t.Errorf("state %s", st.raw)
	}
	want(t, call(t, s, "PATCH", "/me/profile", tok, map[string]string{"full_name": "Alice A.", "location": "Lyon"}), 200)
	me := want(t, call(t, s, "GET", "/me", tok, nil), 200)
	if me.str("full_name") != "Alice A." || me.str("location") != "Lyon" {
		t.Errorf("profile not updated: %s", me.raw)
	}
	want(t, call(t, s, "PATCH", "/me/profile", tok, map[string]string{"email": "not an email"}), 400)
	want(t, call(t, s, "PATCH", "/me/profile", tok, `{"full_name": true}`), 400)
}

func TestPassword(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	mustUser(t, s, "alice", "alice-password-123", "")
	tok := login(t, s, "alice", "alice-password-123")
	other := login(t, s, "alice", "alice-password-123")
	r := want(t, call(t, s, "POST", "/me/password", tok, map[string]string{"old_password": "alice-password-123", "new_password": "short"}), 400)
	if !strings.Contains(r.str("error"), "at least 12") {
		t.Errorf("short password error %q", r.str("error"))
	}
	want(t, call(t, s, "POST", "/me/password", tok, map[string]string{"old_password": "wrong-old-password", "new_password": "a-long-new-password"}), 403)
	want(t, call(t, s, "POST", "/me/password", tok, map[string]string{"new_password": "a-long-new-password"}), 400)
	r = want(t, call(t, s, "POST", "/me/password", tok, map[string]string{"old_password": "alice-password-123", "new_password": "a-long-new-password"}), 200)
	if r.obj["ok"] != true || r.str("token") == "" {
		t.Fatalf("password change answer %s", r.raw)
	}
	// Every old token is revoked; the fresh one works; the new password logs in.
	want(t, call(t, s, "GET", "/me", tok, nil), 401)
	want(t, call(t, s, "GET", "/me", other, nil), 401)
	want(t, call(t, s, "GET", "/me", r.str("token"), nil), 200)
	want(t, call(t, s, "POST", "/auth/login", "", map[string]string{"username": "alice", "password": "alice-password-123"}), 401)
	login(t, s, "alice", "a-long-new-password")
}

func newKey(t *testing.T, comment string) (line string, fp string) {
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sp))) + " " + comment, ssh.FingerprintSHA256(sp)
}

func TestSSHKeys(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	tok := mustUser(t, s, "alice", "alice-password-123", "")
	bob := mustUser(t, s, "bob", "bob-password-1234", "")
	line, fp := newKey(t, "alice@laptop")
	k := want(t, call(t, s, "POST", "/me/keys", tok, map[string]string{"title": "laptop", "key": line}), 201)
	if k.str("fingerprint") != fp || !strings.HasPrefix(fp, "SHA256:") || k.str("key") != line || k.str("title") != "laptop" {
		t.Errorf("key %s, want fingerprint %s", k.raw, fp)
	}
	id := int(k.obj["id"].(float64))
	// The same key again, by anyone: 409.
	want(t, call(t, s, "POST", "/me/keys", bob, map[string]string{"title": "again", "key": line}), 409)
	want(t, call(t, s, "POST", "/me/keys", tok, map[string]string{"title": "x", "key": "ssh-ed25519 AAAAnotbase64!"}), 400)
	want(t, call(t, s, "POST", "/me/keys", tok, map[string]string{"title": "x", "key": "hello"}), 400)
	priv := string(pem.EncodeToMemory(&pem.Block{Type: "OPENSSH PRIVATE KEY", Bytes: []byte("x")}))
	r := want(t, call(t, s, "POST", "/me/keys", tok, map[string]string{"title": "x", "key": priv}), 400)
	if !strings.Contains(r.str("error"), "private key") {
		t.Errorf("private key error %q", r.str("error"))
	}
	want(t, call(t, s, "POST", "/me/keys", tok, map[string]string{"key": line}), 400)
	l := want(t, call(t, s, "GET", "/me/keys", tok, nil), 200)
	if len(l.arr) != 1 {
		t.Fatalf("keys %s", l.raw)
	}
	if st := want(t, call(t, s, "GET", "/me/state", tok, nil), 200); st.obj["ssh_key_added"] != true {
		t.Errorf("ssh_key_added false after adding a key")
	}
	// Bob cannot delete Alice's key.
	want(t, call(t, s, "DELETE", "/me/keys/"+itoa(id), bob, nil), 404)
	want(t, call(t, s, "DELETE", "/me/keys/"+itoa(id), tok, nil), 200)
	want(t, call(t, s, "DELETE", "/me/keys/"+itoa(id), tok, nil), 404)
	want(t, call(t, s, "DELETE", "/me/keys/abc", tok, nil), 404)
	if l := want(t, call(t, s, "GET", "/me/keys", tok, nil), 200); len(l.arr) != 0 || string(bytes.TrimSpace(l.raw)) != "[]" {
		t.Errorf("keys after delete %s", l.raw)
	}
}

func code(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTwoFactor(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)}
	s := refservertest.Start(t, refservertest.Clock(c.Now))
	tok := mustUser(t, s, "alice", "alice-password-123", "")

	want(t, call(t, s, "POST", "/me/2fa/confirm", tok, map[string]string{"code": "123456"}), 409)
	setup := want(t, call(t, s, "POST", "/me/2fa/setup", tok, nil), 200)
	secret := setup.str("secret")
	if !strings.HasPrefix(setup.str("otpauth_url"), "otpauth://totp/") || !strings.Contains(setup.str("otpauth_url"), "secret="+secret) {
		t.Errorf("otpauth_url %q", setup.str("otpauth_url"))
	}
	if setup.str("qr_png_base64") == "" || setup.str("qr_png_base64") != setup.str("qr_base64") {
		t.Errorf("QR fields differ or are empty")
	}
	pngBytes, err := base64.StdEncoding.DecodeString(setup.str("qr_png_base64"))
	if err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(bytes.NewReader(pngBytes)); err != nil || img.Bounds().Dx() < 100 {
		t.Fatalf("QR is not a PNG image: %v", err)
	}
	want(t, call(t, s, "POST", "/me/2fa/confirm", tok, map[string]string{"code": "000000"}), 400)
	want(t, call(t, s, "POST", "/me/2fa/confirm", tok, map[string]any{"code": 123456}), 400)
	cur := code(t, secret, c.Now())
	want(t, call(t, s, "POST", "/me/2fa/confirm", tok, map[string]string{"code": cur}), 200)
	if st := want(t, call(t, s, "GET", "/me/state", tok, nil), 200); st.obj["twofa_enabled"] != true {
		t.Fatal("twofa_enabled false after confirm")
	}
	want(t, call(t, s, "POST", "/me/2fa/setup", tok, nil), 409)

	// Login: a pending token, refused everywhere but verify.
	lr := want(t, call(t, s, "POST", "/auth/login", "", map[string]string{"username": "alice", "password": "alice-password-123"}), 200)
	if lr.obj["twofa_required"] != true {
		t.Fatalf("login of a 2FA account: %s", lr.raw)
	}
	pending := lr.str("token")
	for _, p := range []string{"/me", "/me/state", "/me/keys"} {
		r := want(t, call(t, s, "GET", p, pending, nil), 401)
		if r.str("error") != "two-factor verification required" {
			t.Errorf("GET %s with a pending token: %q", p, r.str("error"))
		}
	}
	// The code already used at confirm is a replay, within its step.
	r := want(t, call(t, s, "POST", "/me/2fa/verify", pending, map[string]string{"code": cur}), 401)
	if !strings.Contains(r.str("error"), "already used") {
		t.Errorf("replay error %q", r.str("error"))
	}
	want(t, call(t, s, "POST", "/me/2fa/verify", pending, map[string]string{"code": "999999"}), 401)
	c.Add(30 * time.Second)
	want(t, call(t, s, "POST", "/me/2fa/verify", pending, map[string]string{"code": code(t, secret, c.Now())}), 200)
	want(t, call(t, s, "GET", "/me", pending, nil), 200)

	// Disable needs a valid, unused code.
	want(t, call(t, s, "POST", "/me/2fa/disable", tok, map[string]string{"code": code(t, secret, c.Now())}), 400)
	want(t, call(t, s, "POST", "/me/2fa/disable", tok, map[string]string{}), 400)
	c.Add(30 * time.Second)
	want(t, call(t, s, "POST", "/me/2fa/disable", tok, map[string]string{"code": code(t, secret, c.Now())}), 200)
	lr = want(t, call(t, s, "POST", "/auth/login", "", map[string]string{"username": "alice", "password": "alice-password-123"}), 200)
	if lr.obj["twofa_required"] != false {
		t.Errorf("twofa_required after disable")
	}
	want(t, call(t, s, "GET", "/me", lr.str("token"), nil), 200)
}

func TestTwoFactorBadCodesRevokeLogin(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	mustUser(t, s, "alice", "alice-password-123", "")
	if _, err := s.EnableTwoFA("alice"); err != nil {
		t.Fatal(err)
	}
	pending := login(t, s, "alice", "alice-password-123")
	for i := 0; i < 4; i++ {
		want(t, call(t, s, "POST", "/me/2fa/verify", pending, map[string]string{"code": "000000"}), 401)
	}
	r := want(t, call(t, s, "POST", "/me/2fa/verify", pending, map[string]string{"code": "000000"}), 401)
	if !strings.Contains(r.str("error"), "log in again") {
		t.Errorf("fifth bad code: %q", r.str("error"))
	}
	r = want(t, call(t, s, "POST", "/me/2fa/verify", pending, map[string]string{"code": "000000"}), 401)
	if !strings.Contains(r.str("error"), "bad credentials") {
		t.Errorf("after revocation: %q", r.str("error"))
	}
}

// wrongCode is a six-digit code valid at none of the steps around at.
func wrongCode(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	valid := map[string]bool{}
	for _, d := range []time.Duration{-30 * time.Second, 0, 30 * time.Second} {
		valid[code(t, secret, at.Add(d))] = true
	}
	for n := 0; ; n++ {
		if c := fmt.Sprintf("%06d", n); !valid[c] {
			return c
		}
	}
}

// A script that logs in again after each revoked token, and spreads its
// guesses over verify and disable, still gets five guesses per account
// in fifteen minutes; then even the right code is refused with 429.
func TestTwoFactorGuessingLocksTheAccount(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)}
	s := refservertest.Start(t, refservertest.Clock(c.Now))
	full := mustUser(t, s, "alice", "alice-password-123", "")
	secret, err := s.EnableTwoFA("alice")
	if err != nil {
		t.Fatal(err)
	}
	guessed, pending := 0, ""
	var last resp
	for i := 0; i < 100; i++ {
		path, tok := "/me/2fa/verify", pending
		if i%3 == 2 {
			path, tok = "/me/2fa/disable", full
		} else if i%2 == 0 || pending == "" {
			pending = login(t, s, "alice", "alice-password-123")
			tok = pending
		}
		last = call(t, s, "POST", path, tok, map[string]string{"code": wrongCode(t, secret, c.Now())})
		if last.status == http.StatusTooManyRequests {
			break
		}
		guessed++
		c.Add(time.Second)
	}
	if guessed != 5 {
		t.Fatalf("%d wrong codes checked before the lockout, want 5 (last answer %d %s)", guessed, last.status, last.raw)
	}
	if ra, _ := strconv.Atoi(last.header.Get("Retry-After")); ra < 890 || ra > 900 || !strings.Contains(last.str("error"), "try again in 15 minute") {
		t.Errorf("lockout answer %s, Retry-After %d", last.raw, ra)
	}
	pending = login(t, s, "alice", "alice-password-123")
	want(t, call(t, s, "POST", "/me/2fa/verify", pending, map[string]string{"code": code(t, secret, c.Now())}), 429)
	want(t, call(t, s, "POST", "/me/2fa/disable", full, map[string]string{"code": code(t, secret, c.Now())}), 429)
	// Another account is not locked by alice's.
	mustUser(t, s, "bob", "bob-password-1234", "")
	bobSecret, err := s.EnableTwoFA("bob")
	if err != nil {
		t.Fatal(err)
	}
	want(t, call(t, s, "POST", "/me/2fa/verify", login(t, s, "bob", "bob-password-1234"),
		map[string]string{"code": code(t, bobSecret, c.Now())}), 200)
	c.Add(15 * time.Minute)
	want(t, call(t, s, "POST", "/me/2fa/verify", pending, map[string]string{"code": code(t, secret, c.Now())}), 200)
}

// Enrolment counts too: five wrong codes at confirm lock it.
func TestTwoFactorConfirmGuessingLocks(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)}
	s := refservertest.Start(t, refservertest.Clock(c.Now))
	tok := mustUser(t, s, "alice", "alice-password-123", "")
	secret := want(t, call(t, s, "POST", "/me/2fa/setup", tok, nil), 200).str("secret")
	for i := 0; i < 5; i++ {
		want(t, call(t, s, "POST", "/me/2fa/confirm", tok, map[string]string{"code": wrongCode(t, secret, c.Now())}), 400)
	}
	r := want(t, call(t, s, "POST", "/me/2fa/confirm", tok, map[string]string{"code": code(t, secret, c.Now())}), 429)
	if r.header.Get("Retry-After") == "" {
		t.Errorf("429 without Retry-After: %v", r.header)
	}
}

func TestUnknownRoutes(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	tok := login(t, s, "admin", refservertest.AdminPassword)
	r := want(t, call(t, s, "GET", "/no/such/thing", tok, nil), 404)
	if !strings.Contains(r.str("error"), "not found") {
		t.Errorf("404 %s", r.raw)
	}
	r = want(t, call(t, s, "DELETE", "/me", tok, nil), 405)
	if !strings.Contains(r.header.Get("Allow"), "GET") {
		t.Errorf("405 without Allow: %v", r.header)
	}
	want(t, call(t, s, "GET", s.URL()+"/nothing-here", "", nil), 404)
}
