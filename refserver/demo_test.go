package refserver_test

import (
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

func TestDemo(t *testing.T) {
	t.Parallel()
	begin := time.Now()
	s := refservertest.Start(t, refservertest.Demo())
	if d := time.Since(begin); d > 2*time.Second {
		t.Logf("demo took %v to start (forge serve promises under a second on an idle machine)", d)
	}
	alice := login(t, s, "alice", refserver.DemoPassword)
	erin := login(t, s, "erin", refserver.DemoPassword)
	carol := login(t, s, "carol", refserver.DemoPassword)
	dave := login(t, s, "dave", refserver.DemoPassword)
	if l := want(t, call(t, s, "GET", "/repos", alice, nil), 200); len(l.arr) != 2 {
		t.Errorf("alice's repos %s", l.raw)
	}
	want(t, call(t, s, "GET", "/repos/alice/infra", dave, nil), 404)
	want(t, call(t, s, "GET", "/repos/alice/infra", erin, nil), 200)
	open := want(t, call(t, s, "GET", "/repos/alice/webapp/issues", dave, nil), 200)
	closed := want(t, call(t, s, "GET", "/repos/alice/webapp/issues?state=closed", dave, nil), 200)
	if len(open.arr) != 4 || len(closed.arr) != 2 {
		t.Errorf("issues: %d open, %d closed", len(open.arr), len(closed.arr))
	}
	if c := want(t, call(t, s, "GET", "/repos/alice/webapp/commits", dave, nil), 200); len(c.arr) < 3 {
		t.Errorf("commits %s", c.raw)
	}
	pulls := want(t, call(t, s, "GET", "/repos/alice/webapp/pulls?state=all", dave, nil), 200)
	if len(pulls.arr) != 4 {
		t.Errorf("pulls %s", pulls.raw)
	}
	runs := want(t, call(t, s, "GET", "/repos/alice/webapp/actions/runs", dave, nil), 200)
	states := map[string]bool{}
	for _, r := range runs.arr {
		m := r.(map[string]any)
		c, _ := m["conclusion"].(string)
		states[m["status"].(string)+"/"+c] = true
	}
	for _, st := range []string{"queued/", "in_progress/", "completed/success", "completed/failure", "completed/cancelled"} {
		if !states[st] {
			t.Errorf("no demo run %s among %v", st, states)
		}
	}
	if r := want(t, call(t, s, "GET", "/repos/alice/webapp/releases", dave, nil), 200); len(r.arr) != 3 {
		t.Errorf("releases visible to a reader %s", r.raw)
	}
	inv := want(t, call(t, s, "GET", "/admin/invites", carol, nil), 200)
	if len(inv.arr) != 2 {
		t.Errorf("carol's invites %s", inv.raw)
	}
	// Dates are spread over the past weeks, not all "now".
	first := open.arr[len(open.arr)-1].(map[string]any)["created_at"].(string)
	if ts, _ := time.Parse(time.RFC3339, first); time.Since(ts) < 24*time.Hour {
		t.Errorf("oldest open issue created %s", first)
	}
}
