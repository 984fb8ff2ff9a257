package gitstore

import (
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestConnectivityWalkIsBounded: the walk from a pushed commit visits the
// objects down to the commits known to be connected, and refuses past
// its bound; the commits it checked are known from then on, so the next
// walk from them visits nothing.
func TestConnectivityWalkIsBounded(t *testing.T) {
	t.Parallel()
	s := New("")
	if err := s.Init(1, "main"); err != nil {
		t.Fatal(err)
	}
	r, _ := s.Open(1)
	at := Signature{Name: "A", Email: "a@example.com", When: time.Unix(0, 0)}
	commit := func(name string) plumbing.Hash {
		sha, err := r.Commit("main", map[string][]byte{name: []byte(name)}, name, at)
		if err != nil {
			t.Fatal(err)
		}
		return plumbing.NewHash(sha)
	}
	commit("a")
	r.Lock()
	r.knownCommits() // the first commit, the one the refs reach now
	r.Unlock()
	commit("b")
	tip := commit("c")
	r.Lock()
	defer r.Unlock()
	// c, its tree, its two blobs, then b, its tree and its blob b (its
	// blob a is c's): 7 objects.
	if err := r.checkConnected(tip, 6); err == nil || !strings.Contains(err.Error(), "the push brings more than 6 objects to check under "+tip.String()+": push its history in parts") {
		t.Errorf("a walk of 7 objects bounded at 6: %v", err)
	}
	if err := r.checkConnected(tip, 7); err != nil {
		t.Errorf("a walk of 7 objects bounded at 7: %v", err)
	}
	if err := r.checkConnected(tip, 0); err != nil {
		t.Errorf("a walk from a commit checked before: %v", err)
	}
}
