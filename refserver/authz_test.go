package refserver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// TestAuthorizationMatrix checks every role and a stranger against each
// kind of repository endpoint, on a private and a public repository.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	tokens := map[string]string{
		"owner":    mustUser(t, s, "owner", "owner-password-12", "user"),
		"admin":    mustUser(t, s, "collab-admin", "collab-password-1", "user"),
		"writer":   mustUser(t, s, "writer", "writer-password-1", "user"),
		"reader":   mustUser(t, s, "reader", "reader-password-1", "user"),
		"stranger": mustUser(t, s, "stranger", "stranger-password", "user"),
		"custadm":  mustUser(t, s, "custadm", "custadm-password1", "customer_admin"),
		"site":     mustUser(t, s, "siteadm", "siteadm-password1", "site_admin"),
	}
	mustUser(t, s, "target", "target-password-1", "user")
	for _, name := range []string{"priv", "pub"} {
		if _, err := s.CreateRepo("owner", name, refserver.RepoOptions{Private: name == "priv", AutoInit: true}); err != nil {
			t.Fatal(err)
		}
		for login, perm := range map[string]string{"collab-admin": "admin", "writer": "write", "reader": "read"} {
			if err := s.AddCollaborator("owner/"+name, login, perm); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.CreateIssue("owner/"+name, "owner", "Owner's issue", ""); err != nil {
			t.Fatal(err)
		}
	}
	roles := []string{"owner", "admin", "writer", "reader", "stranger", "custadm", "site"}
	// Expected outcome per role, in the order of roles: "ok" (2xx), 403 or
	// 404. see: visible to all on public, members on private; write and
	// admin as documented in rest/policy.go.
	see := map[string][]string{
		"priv": {"ok", "ok", "ok", "ok", "404", "404", "ok"},
		"pub":  {"ok", "ok", "ok", "ok", "ok", "ok", "ok"},
	}
	write := map[string][]string{
		"priv": {"ok", "ok", "ok", "403", "404", "404", "ok"},
		"pub":  {"ok", "ok", "ok", "403", "403", "403", "ok"},
	}
	admin := map[string][]string{
		"priv": {"ok", "ok", "403", "403", "404", "404", "ok"},
		"pub":  {"ok", "ok", "403", "403", "403", "403", "ok"},
	}
	endpoints := []struct {
		method, path string
		body         any
		rule         map[string][]string
	}{
		{"GET", "", nil, see},
		{"GET", "/contents/README.md", nil, see},
		{"GET", "/commits", nil, see},
		{"GET", "/issues", nil, see},
		{"GET", "/issues/1", nil, see},
		{"POST", "/issues", map[string]string{"title": "hi"}, see},
		{"POST", "/issues/1/comments", map[string]string{"body": "hi"}, see},
		{"GET", "/collaborators", nil, see},
		{"GET", "/pulls", nil, see},
		{"GET", "/releases", nil, see},
		{"GET", "/actions/runs", nil, see},
		{"POST", "/issues/1/state", map[string]string{"state": "closed"}, write},
		{"PATCH", "/issues/1", map[string]string{"body": "edited"}, write},
		{"POST", "/actions/runs", map[string]string{}, write},
		{"PATCH", "", map[string]string{"description": "d"}, admin},
		{"POST", "/collaborators", map[string]string{"username": "target", "permission": "read"}, admin},
	}
	for _, repo := range []string{"priv", "pub"} {
		for _, ep := range endpoints {
			for i, role := range roles {
				r := call(t, s, ep.method, "/repos/owner/"+repo+ep.path, tokens[role], ep.body)
				got := fmt.Sprint(r.status)
				if r.status >= 200 && r.status < 300 {
					got = "ok"
				}
				if wantS := ep.rule[repo][i]; got != wantS {
					t.Errorf("%s %s on %s as %s: %s, want %s (%s)", ep.method, ep.path, repo, role, got, wantS, r.raw)
				}
			}
		}
	}
	// The author of an issue may close it without write permission.
	is, err := s.CreateIssue("owner/pub", "stranger", "Stranger's issue", "")
	if err != nil {
		t.Fatal(err)
	}
	statePath := fmt.Sprintf("/repos/owner/pub/issues/%d/state", is.Number)
	want(t, call(t, s, "POST", statePath, tokens["stranger"], map[string]string{"state": "closed"}), 200)
	want(t, call(t, s, "POST", statePath, tokens["reader"], map[string]string{"state": "open"}), 403)

	// Administration: users none, customer and site admins yes.
	for i, role := range roles {
		r := call(t, s, "GET", "/admin/users", tokens[role], nil)
		wantS := 403
		if role == "custadm" || role == "site" {
			wantS = 200
		}
		if r.status != wantS {
			t.Errorf("GET /admin/users as %s (%d): %d", role, i, r.status)
		}
	}
	// Nothing works without a token.
	for _, ep := range endpoints {
		want(t, call(t, s, ep.method, "/repos/owner/pub"+ep.path, "", ep.body), 401)
	}
}

// TestEveryRouteNeedsToken: every REST endpoint but login answers 401 in
// the Error shape without a token, and with a pending 2FA token.
func TestEveryRouteNeedsToken(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	mustUser(t, s, "alice", "alice-password-123", "")
	if _, err := s.EnableTwoFA("alice"); err != nil {
		t.Fatal(err)
	}
	pending := login(t, s, "alice", "alice-password-123")
	routes := []string{
		"GET /me", "GET /me/state", "PATCH /me/profile", "POST /me/password", "POST /me/2fa/setup",
		"POST /me/2fa/confirm", "POST /me/2fa/disable", "GET /me/keys", "POST /me/keys", "DELETE /me/keys/1",
		"GET /admin/invites", "POST /admin/invites", "GET /admin/users", "POST /admin/users/x/disable",
		"POST /admin/users/x/enable", "DELETE /admin/users/x",
		"GET /repos", "POST /repos", "GET /repos/a/b", "PATCH /repos/a/b", "DELETE /repos/a/b",
		"GET /repos/a/b/contents", "GET /repos/a/b/contents/x/y", "GET /repos/a/b/commits", "GET /repos/a/b/commits/x",
		"GET /repos/a/b/branches", "GET /repos/a/b/collaborators", "POST /repos/a/b/collaborators",
		"DELETE /repos/a/b/collaborators/x", "GET /repos/a/b/issues", "POST /repos/a/b/issues", "GET /repos/a/b/issues/1",
		"PATCH /repos/a/b/issues/1", "GET /repos/a/b/issues/1/comments", "POST /repos/a/b/issues/1/comments",
		"POST /repos/a/b/issues/1/state", "GET /repos/a/b/pulls", "POST /repos/a/b/pulls", "GET /repos/a/b/pulls/1",
		"GET /repos/a/b/releases", "POST /repos/a/b/releases", "GET /repos/a/b/releases/1",
		"GET /repos/a/b/actions/runs", "POST /repos/a/b/actions/runs", "GET /repos/a/b/actions/runs/1",
		"GET /repos/a/b/actions/runs/1/jobs", "POST /repos/a/b/actions/runs/1/cancel", "POST /repos/a/b/actions/runs/1/rerun",
		"GET /repos/a/b/actions/jobs/1", "GET /repos/a/b/actions/jobs/1/logs",
	}
	for _, rt := range routes {
		method, path, _ := strings.Cut(rt, " ")
		want(t, call(t, s, method, path, "", nil), 401)
		if r := want(t, call(t, s, method, path, pending, nil), 401); r.str("error") != "two-factor verification required" {
			t.Errorf("%s with a pending token: %s", rt, r.raw)
		}
	}
}
