package refserver_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// TestAgentKeyKept: a generated agent key is kept in the data directory,
// so a restarted server accepts the same key; a key given in Options wins.
func TestAgentKeyKept(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s1 := refservertest.New(t, refservertest.DataDir(dir))
	key := s1.AgentKey()
	s1.Close()
	s2 := refservertest.New(t, refservertest.DataDir(dir), func(o *refserver.Options) { o.AgentDelay = time.Millisecond })
	if s2.AgentKey() != key {
		t.Errorf("key %q after restart, want %q", s2.AgentKey(), key)
	}
	if _, ok := s2.Agent().Usage(key); !ok {
		t.Error("restarted server refuses the kept key")
	}
	s2.Close()
	s3 := refservertest.New(t, refservertest.DataDir(dir), func(o *refserver.Options) { o.AgentKey = "agk_given_in_options" })
	if _, ok := s3.Agent().Usage(key); ok || s3.AgentKey() != "agk_given_in_options" {
		t.Errorf("with Options.AgentKey: key %q, old key accepted %v", s3.AgentKey(), ok)
	}
	if _, err := refserver.New(refserver.Options{AgentKey: "nope"}); err == nil {
		t.Error("a key without the prefix was accepted")
	}
}

// TestAgentUsageKept: with a data directory, the usage a chat used is
// still counted after a restart.
func TestAgentUsageKept(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s1 := refservertest.Start(t, func(o *refserver.Options) { o.DataDir = dir; o.AgentDelay = time.Millisecond })
	key := s1.AgentKey()
	req, _ := http.NewRequest("POST", s1.AgentURL()+"/api/v1/chat", strings.NewReader(`{"message":"hi","model":"ref-1-mini"}`))
	req.Header.Set("X-API-Key", key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	used, _ := s1.Agent().Usage(key)
	if res.StatusCode != 200 || used.UsedTokens == 0 {
		t.Fatalf("chat: %d, used %d", res.StatusCode, used.UsedTokens)
	}
	s1.Close()
	s2 := refservertest.Start(t, func(o *refserver.Options) { o.DataDir = dir })
	after, ok := s2.Agent().Usage(key)
	if !ok || after.UsedTokens != used.UsedTokens || after.QuotaTokens != used.QuotaTokens {
		t.Errorf("usage after restart %+v, want %+v", after, used)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "agent-usage.json")); strings.Contains(string(b), key) {
		t.Error("agent-usage.json holds the key itself")
	}
}
