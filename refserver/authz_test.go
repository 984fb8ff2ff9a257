package refserver_test

import (
	"fmt"
	"testing"

	"github.com/forgehq/forge/refserver"
)

// TestAuthorizationMatrix checks every role and a stranger against each
// kind of repository endpoint, on a private and a public repository.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	s := start(t, refserver.Options{})
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
