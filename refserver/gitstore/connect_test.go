package gitstore

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// TestConnectivityWalkIsBounded: the walk from a pushed commit visits the
// commits down to those known to be connected and, in their trees, what
// their parents' trees do not hold, and refuses past its bound; the commits it checked are known from then on, so the next
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
	// c and b, then c's tree and its blob c (a and b are b's), b's tree
	// and its blob b (a is a's): 6 objects.
	if err := r.checkConnected(tip, 5); err == nil || !strings.Contains(err.Error(), "the push brings more than 5 objects to check under "+tip.String()+": push its history in parts") {
		t.Errorf("a walk of 6 objects bounded at 5: %v", err)
	}
	if err := r.checkConnected(tip, 6); err != nil {
		t.Errorf("a walk of 6 objects bounded at 6: %v", err)
	}
	if err := r.checkConnected(tip, 0); err != nil {
		t.Errorf("a walk from a commit checked before: %v", err)
	}
}

// BenchmarkConnectivityCheck: the check of one pushed commit changing one
// file of 10,000 (100 directories of 100): its root tree, one directory
// and one blob are read.
// go test ./refserver/gitstore -run - -bench Connectivity
func BenchmarkConnectivityCheck(b *testing.B) {
	for _, where := range []string{"memory", "disk"} {
		b.Run(where, func(b *testing.B) {
			dir := ""
			if where == "disk" {
				dir = b.TempDir()
			}
			s := New(dir)
			if err := s.Init(1, "main"); err != nil {
				b.Fatal(err)
			}
			r, _ := s.Open(1)
			at := Signature{Name: "A", Email: "a@example.com", When: time.Unix(0, 0)}
			files := map[string][]byte{}
			for i := 0; i < 10000; i++ {
				files[fmt.Sprintf("d%d/f%d.txt", i/100, i)] = []byte(fmt.Sprint(i))
			}
			if _, err := r.Commit("main", files, "many", at); err != nil {
				b.Fatal(err)
			}
			r.Lock()
			r.knownCommits()
			r.Unlock()
			sha, err := r.Commit("main", map[string][]byte{"d7/f777.txt": []byte("changed")}, "one", at)
			if err != nil {
				b.Fatal(err)
			}
			tip := plumbing.NewHash(sha)
			r.Lock()
			defer r.Unlock()
			b.ResetTimer()
			for range b.N {
				delete(r.known, tip)
				if err := r.checkConnected(tip, maxConnectivityWalk); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestParentsFirst: each commit comes after those of its parents among
// the commits, also a merge's second parent that is the first's parent
// (the order of a depth-first walk from the merge is M, A, B).
func TestParentsFirst(t *testing.T) {
	t.Parallel()
	h := func(s string) plumbing.Hash { return plumbing.NewHash(strings.Repeat(s, 40)) }
	a := &object.Commit{Hash: h("a"), ParentHashes: []plumbing.Hash{h("0")}}
	b := &object.Commit{Hash: h("b"), ParentHashes: []plumbing.Hash{h("a")}}
	m := &object.Commit{Hash: h("c"), ParentHashes: []plumbing.Hash{h("b"), h("a")}}
	var got []string
	for _, c := range parentsFirst([]*object.Commit{m, a, b}) {
		got = append(got, c.Hash.String()[:1])
	}
	if strings.Join(got, "") != "abc" {
		t.Errorf("order %v, want a b c", got)
	}
}
