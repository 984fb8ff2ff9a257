package refserver_test

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver/refservertest"
)

func TestInvitesAndActivation(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	carol := mustUser(t, s, "carol", "carol-password-12", "customer_admin")
	alice := mustUser(t, s, "alice", "alice-password-123", "user")
	admin := login(t, s, "admin", refservertest.AdminPassword)

	// A user may not administer; a customer_admin may not create site_admins.
	want(t, call(t, s, "GET", "/admin/invites", alice, nil), 403)
	want(t, call(t, s, "POST", "/admin/invites", alice, map[string]string{"username": "x", "email": "x@example.com"}), 403)
	want(t, call(t, s, "POST", "/admin/invites", carol, map[string]string{"username": "boss", "email": "b@example.com", "role": "site_admin"}), 403)
	want(t, call(t, s, "POST", "/admin/invites", carol, map[string]string{"username": "x"}), 400)
	want(t, call(t, s, "POST", "/admin/invites", carol, map[string]string{"username": "Bad Name", "email": "x@example.com"}), 400)
	want(t, call(t, s, "POST", "/admin/invites", carol, map[string]string{"username": "x", "email": "x@example.com", "role": "emperor"}), 400)
	want(t, call(t, s, "POST", "/admin/invites", carol, map[string]string{"username": "alice", "email": "a@example.com"}), 409)

	inv := want(t, call(t, s, "POST", "/admin/invites", carol, map[string]string{
		"username": "dave", "email": "dave@example.com", "fullName": "Dave D.", "role": "user"}), 201)
	temp := inv.str("temporary_password")
	if len(temp) < 12 || inv.str("invited_by") != "carol" || inv.obj["activated_at"] != nil || inv.str("full_name") != "Dave D." {
		t.Fatalf("invite %s", inv.raw)
	}
	want(t, call(t, s, "POST", "/admin/invites", admin, map[string]string{"username": "erin", "email": "erin@example.com", "role": "site_admin"}), 201)

	// Listing: carol sees her invite only; the site admin sees both; the
	// temporary password is never listed.
	l := want(t, call(t, s, "GET", "/admin/invites", carol, nil), 200)
	if len(l.arr) != 1 || strings.Contains(string(l.raw), temp) || strings.Contains(string(l.raw), "temporary_password") {
		t.Errorf("carol's invites %s", l.raw)
	}
	if l := want(t, call(t, s, "GET", "/admin/invites", admin, nil), 200); len(l.arr) != 2 {
		t.Errorf("admin's invites %s", l.raw)
	}

	// First login activates.
	dave := login(t, s, "dave", temp)
	st := want(t, call(t, s, "GET", "/me/state", dave, nil), 200)
	if st.str("invited_by") != "carol" || st.str("activated_at") == "" || st.str("role") != "user" {
		t.Errorf("dave's state %s", st.raw)
	}
	l = want(t, call(t, s, "GET", "/admin/invites", carol, nil), 200)
	if inv := l.arr[0].(map[string]any); inv["activated_at"] == nil || inv["state"] != "accepted" {
		t.Errorf("invite after activation %v", inv)
	}
}

func TestAdminUsers(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	carol := mustUser(t, s, "carol", "carol-password-12", "customer_admin")
	mustUser(t, s, "alice", "alice-password-123", "user")
	admin := login(t, s, "admin", refservertest.AdminPassword)
	inv := want(t, call(t, s, "POST", "/admin/invites", carol, map[string]string{"username": "dave", "email": "dave@example.com"}), 201)
	dave := login(t, s, "dave", inv.str("temporary_password"))
	const davePW = "dave-password-1234"
	dave = want(t, call(t, s, "POST", "/me/password", dave, map[string]string{"old_password": inv.str("temporary_password"), "new_password": davePW}), 200).str("token")

	// carol manages dave only; alice is not even visible to her.
	l := want(t, call(t, s, "GET", "/admin/users", carol, nil), 200)
	if len(l.arr) != 1 || l.arr[0].(map[string]any)["login"] != "dave" {
		t.Errorf("carol's users %s", l.raw)
	}
	if l := want(t, call(t, s, "GET", "/admin/users", admin, nil), 200); len(l.arr) != 4 {
		t.Errorf("admin's users %s", l.raw)
	}
	want(t, call(t, s, "POST", "/admin/users/alice/disable", carol, nil), 404)
	want(t, call(t, s, "POST", "/admin/users/carol/disable", carol, nil), 403)
	want(t, call(t, s, "POST", "/admin/users/admin/disable", admin, nil), 403)
	want(t, call(t, s, "DELETE", "/admin/users/nobody", admin, nil), 404)
	want(t, call(t, s, "POST", "/admin/users/dave/disable", dave, nil), 403)

	// Disable: tokens stop working, login is refused; enable restores login.
	r := want(t, call(t, s, "POST", "/admin/users/dave/disable", carol, nil), 200)
	if r.str("state") != "disabled" {
		t.Errorf("disable answer %s", r.raw)
	}
	want(t, call(t, s, "GET", "/me", dave, nil), 401)
	r = want(t, call(t, s, "POST", "/auth/login", "", map[string]string{"username": "dave", "password": davePW}), 403)
	if !strings.Contains(r.str("error"), "disabled") {
		t.Errorf("disabled login %q", r.str("error"))
	}
	want(t, call(t, s, "POST", "/admin/users/dave/disable", carol, nil), 200) // already disabled: still 200
	want(t, call(t, s, "POST", "/admin/users/dave/enable", carol, nil), 200)
	dave = login(t, s, "dave", davePW)

	// Delete: gone, tokens too; the login is free again.
	want(t, call(t, s, "DELETE", "/admin/users/dave", carol, nil), 200)
	want(t, call(t, s, "GET", "/me", dave, nil), 401)
	want(t, call(t, s, "POST", "/auth/login", "", map[string]string{"username": "dave", "password": davePW}), 401)
	want(t, call(t, s, "POST", "/admin/users/dave/enable", carol, nil), 404)
	want(t, call(t, s, "DELETE", "/admin/users/alice", admin, nil), 200)
}

// TestTemporaryPasswordLogsInOnce: an invite's temporary password, which
// the inviter saw, logs in once — the invitee's first login — and never
// again, across a restart; the invitee's session keeps working and sets
// its own password with it.
func TestTemporaryPasswordLogsInOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := refservertest.Start(t, refservertest.DataDir(dir))
	admin := login(t, s, "admin", refservertest.AdminPassword)
	temp := want(t, call(t, s, "POST", "/admin/invites", admin, map[string]string{"username": "zoe", "email": "zoe@example.com"}), 201).str("temporary_password")
	zoe := login(t, s, "zoe", temp)
	s.Close()
	s = refservertest.Start(t, refservertest.DataDir(dir))
	r := want(t, call(t, s, "POST", "/auth/login", "", map[string]string{"username": "zoe", "password": temp}), 401)
	if !strings.Contains(r.str("error"), "temporary password of zoe logged in once already") {
		t.Errorf("a second login with the temporary password: %s", r.raw)
	}
	want(t, call(t, s, "GET", "/me", zoe, nil), 200)
	want(t, call(t, s, "POST", "/me/password", zoe, map[string]string{"old_password": temp, "new_password": "zoe-password-1234"}), 200)
	login(t, s, "zoe", "zoe-password-1234")
	login(t, s, "zoe", "zoe-password-1234")
	want(t, call(t, s, "POST", "/auth/login", "", map[string]string{"username": "zoe", "password": temp}), 401)
	if st := want(t, call(t, s, "GET", "/admin/invites", admin, nil), 200); st.arr[0].(map[string]any)["state"] != "accepted" {
		t.Errorf("the invite after its first login: %s", st.raw)
	}
}
