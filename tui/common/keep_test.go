package common

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestKeep: what is saved is read back, from a 0600 file whose name does
// not hold the (repository) name; nil forgets it; no temporary file stays.
func TestKeep(t *testing.T) {
	dir := t.TempDir()
	k := OpenKeep(dir, "default", "http://127.0.0.1:1/api/v2")
	name := "comment\nalice/../webapp#6"
	if err := k.Save(name, "the comment draft on alice/webapp#6", "half a thought"); err != nil {
		t.Fatal(err)
	}
	var got string
	if !k.Load(name, &got) || got != "half a thought" {
		t.Fatalf("loaded %q", got)
	}
	if what := k.Kept(); len(what) != 1 || what[0] != "the comment draft on alice/webapp#6" {
		t.Fatalf("Kept() = %q", what)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "tui", "*", "*"))
	if len(files) != 1 || strings.Contains(files[0], "webapp") {
		t.Fatalf("files %v", files)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v (%v)", fi.Mode(), err)
	}
	if err := k.Save(name, "", nil); err != nil || k.Load(name, &got) {
		t.Fatalf("not forgotten (%v)", err)
	}
	// Another profile does not see it; no home keeps nothing.
	if OpenKeep(dir, "dev", "http://127.0.0.1:1/api/v2").Load(name, &got) {
		t.Error("another profile read the draft")
	}
	if err := OpenKeep("", "default", "x").Save(name, "x", "x"); err != nil {
		t.Error(err)
	}
}

// TestKeepUnwritable: a keep that cannot be written says so once.
func TestKeepUnwritable(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tui"), nil, 0o600) // a file where the directory goes
	k := OpenKeep(dir, "default", "x")
	if err := k.Save("a", "a", "x"); err == nil || !strings.Contains(err.Error(), "cannot be kept") {
		t.Fatalf("first failure: %v", err)
	}
	if err := k.Save("a", "a", "xy"); err != nil {
		t.Fatalf("said twice: %v", err)
	}
}

// BenchmarkKeepSave is what a key that changes a draft costs: the
// draft's file written (temporary file, rename).
func BenchmarkKeepSave(b *testing.B) {
	k := OpenKeep(b.TempDir(), "default", "x")
	draft := strings.Repeat("a draft of a comment ", 20)
	for i := 0; i < b.N; i++ {
		k.Save("comment\nalice/webapp#6", "the comment draft on alice/webapp#6", draft)
	}
}

// TestAdoptProfileKeep: the keep an earlier forge kept per profile comes
// to the account the profile names, once; a keep the account already has
// is left alone.
func TestAdoptProfileKeep(t *testing.T) {
	dir := t.TempDir()
	base := "http://127.0.0.1:1/api/v2"
	sum := sha256.Sum256([]byte("default\n" + base))
	old := &Keep{dir: filepath.Join(dir, "tui", hex.EncodeToString(sum[:8]))}
	if err := old.Save("chat", "the chat conversation", "hello"); err != nil {
		t.Fatal(err)
	}
	alice := OpenKeep(dir, "alice", "http://127.0.0.1:1")
	AdoptProfileKeep(dir, "default", base, alice)
	var got string
	if !alice.Load("chat", &got) || got != "hello" {
		t.Fatalf("the profile's keep was not adopted: %q", got)
	}
	carol := OpenKeep(dir, "carol", "http://127.0.0.1:1")
	AdoptProfileKeep(dir, "default", base, carol)
	if carol.Load("chat", &got) {
		t.Error("a second account got the profile's keep")
	}
}

// TestKeepTwoPrograms: two programs on one account edit the same draft;
// neither overwrites nor forgets the other's, both are listed, and the
// copy left once the first is sent is read back by the next launch.
func TestKeepTwoPrograms(t *testing.T) {
	dir := t.TempDir()
	open := func() *Keep { return OpenKeep(dir, "alice", "http://127.0.0.1:1") }
	one, two := open(), open()
	name, what := "comment\nalice/webapp#6", "the comment draft on alice/webapp#6"
	var got string
	one.Load(name, &got)
	if err := one.Save(name, what, "from one"); err != nil {
		t.Fatal(err)
	}
	// The second opens the page after the first typed: it reads the
	// first's draft and goes on with it.
	if !two.Load(name, &got) || got != "from one" {
		t.Fatalf("two read %q", got)
	}
	if err := two.Save(name, what, "from one, and two"); err != nil {
		t.Fatal(err)
	}
	// The first types on: the file is the second's now, so the first's
	// goes beside it.
	if err := one.Save(name, what, "from one, more"); err != nil {
		t.Fatal(err)
	}
	if err := two.Save(name, what, "from one, and two!"); err != nil {
		t.Fatal(err)
	}
	kept := open().Kept()
	slices.Sort(kept)
	if len(kept) != 2 || kept[0] != what || kept[1] != what+" (kept beside another forge tui's)" {
		t.Fatalf("Kept() = %q", kept)
	}
	// The first sends its comment: the second's draft stays.
	if err := one.Save(name, what, nil); err != nil {
		t.Fatal(err)
	}
	if !open().Load(name, &got) || got != "from one, and two!" {
		t.Fatalf("after the first sent, the keep holds %q", got)
	}
	// The other way round: the second's is sent, the first's copy is
	// what the next launch reads.
	if err := one.Save(name, what, "from one, again"); err != nil {
		t.Fatal(err)
	}
	if err := two.Save(name, what, nil); err != nil {
		t.Fatal(err)
	}
	if !open().Load(name, &got) || got != "from one, again" {
		t.Fatalf("after the second sent, the keep holds %q", got)
	}
	if kept := open().Kept(); len(kept) != 1 {
		t.Fatalf("Kept() = %q", kept)
	}
}

// TestKeptSaysEachOnce: two things kept that are said alike are listed
// once.
func TestKeptSaysEachOnce(t *testing.T) {
	k := OpenKeep(t.TempDir(), "alice", "http://127.0.0.1:1")
	for _, name := range []string{"chat\nhttp://a", "chat\nhttp://b"} {
		if err := k.Save(name, "the chat conversation", "hello"); err != nil {
			t.Fatal(err)
		}
	}
	if kept := k.Kept(); len(kept) != 1 {
		t.Fatalf("Kept() = %q", kept)
	}
}

// TestKeepHolds: once another program removed a draft this keep wrote
// (it sent the same draft), Holds says so, and saving it again keeps it.
func TestKeepHolds(t *testing.T) {
	dir := t.TempDir()
	one, two := OpenKeep(dir, "alice", "o"), OpenKeep(dir, "alice", "o")
	name := "comment\nalice/webapp#6"
	var got string
	one.Load(name, &got)
	if err := one.Save(name, "the draft", "mine"); err != nil || !one.Holds(name) {
		t.Fatalf("saved: %v, holds %v", err, one.Holds(name))
	}
	if !two.Load(name, &got) || two.Save(name, "", nil) != nil {
		t.Fatal("the second did not read and drop it")
	}
	if one.Holds(name) {
		t.Fatal("a draft another program removed is still said held")
	}
	if err := one.Save(name, "the draft", "mine"); err != nil || !one.Holds(name) || !OpenKeep(dir, "alice", "o").Load(name, &got) || got != "mine" {
		t.Fatalf("kept again: %v, %q", err, got)
	}
}
