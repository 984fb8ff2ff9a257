package refserver_test

import (
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
