package common

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/forgehq/forge/internal/atomicfile"
	"github.com/forgehq/forge/internal/text"
)

// Keep holds what the user typed and has not sent — drafts of comments
// and issues, the chat's conversation and input — so that a quit or a
// crash loses none of it: each is a file of its own, mode 0600, in
// CACHE/forge/tui/HASH/ (one directory per account and service: another
// account on the same profile starts clean),
// replaced atomically (a temporary file renamed over it) every time it
// changes, and read back when the view that holds it opens again.
//
// Two programs on one account (two terminals) may hold the same draft:
// each remembers the bytes it last read or wrote under a name, and one
// that finds the file changed by the other since keeps its own beside it
// (a file of its own, said "another forge tui's copy") rather than over
// it; it never deletes what the other wrote. Both drafts stay, and the
// next launch lists both.
type Keep struct {
	dir string // "" keeps nothing (no home directory)

	mu     sync.Mutex
	warned bool
	// seen is, per name, the file as this keep last read or wrote it
	// (nil: there was none); moved the file a name is written to since
	// another program wrote the first.
	seen  map[string][]byte
	moved map[string]string
	self  string // this keep's mark in the names of its own copies
}

// OpenKeep returns the keep of an account (its login) on a service (its
// origin) under cacheDir; without an account it keeps nothing.
func OpenKeep(cacheDir, account, origin string) *Keep {
	if cacheDir == "" || account == "" {
		return &Keep{}
	}
	return &Keep{dir: keepDir(cacheDir, "account\n"+account+"\n"+origin)}
}

// keepDir is the directory under cacheDir of the keep whose owner is
// named by who; the name is hashed, as it holds logins and addresses.
func keepDir(cacheDir, who string) string {
	sum := sha256.Sum256([]byte(who))
	return filepath.Join(cacheDir, "tui", hex.EncodeToString(sum[:8]))
}

// AdoptProfileKeep moves the keep an earlier forge kept per profile
// (CACHE/forge/tui/HASH of the profile's name and base URL) to k, the
// keep of the account the profile names, when k has none yet: drafts
// kept before an upgrade come back to that account. Another account
// never gets them (the profile names whose they are).
func AdoptProfileKeep(cacheDir, profile, baseURL string, k *Keep) {
	if cacheDir == "" || k == nil || k.dir == "" {
		return
	}
	old := keepDir(cacheDir, profile+"\n"+baseURL)
	if _, err := os.Stat(k.dir); !errors.Is(err, os.ErrNotExist) {
		return
	}
	_ = os.Rename(old, k.dir) // nothing to adopt, or it stays where it was
}

// path is the file of the thing named; names are hashed, as they hold
// repository names.
func (k *Keep) path(name string) string { return k.hashed(name) + ".json" }

// hashed is the path of name's file without its extension; another
// program's copy of the same thing is hashed + "-" + its mark + ".json".
func (k *Keep) hashed(name string) string {
	sum := sha256.Sum256([]byte(name))
	return filepath.Join(k.dir, hex.EncodeToString(sum[:12]))
}

// fileOf is the file this keep reads and writes name in: its own copy
// once another program took the first.
func (k *Keep) fileOf(name string) string {
	if p, ok := k.moved[name]; ok {
		return p
	}
	return k.path(name)
}

// copyOf is the file of this keep's own copy of name.
func (k *Keep) copyOf(name string) string {
	if k.self == "" {
		var b [6]byte
		_, _ = rand.Read(b[:])
		k.self = hex.EncodeToString(b[:])
	}
	return k.hashed(name) + "-" + k.self + ".json"
}

// kept is a file of the keep: what it holds, said for people ("the
// comment draft on alice/webapp#6"), and the value.
type kept struct {
	What  string          `json:"what"`
	Value json.RawMessage `json:"value"`
}

// Load reads what was kept under name into v; false when nothing was
// (or it cannot be read, as a file of an older forge).
func (k *Keep) Load(name string, v any) bool {
	if k == nil || k.dir == "" {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	p := k.fileOf(name)
	b, err := os.ReadFile(p)
	if err != nil && p == k.path(name) {
		// The first is gone (sent by the program that wrote it): a copy
		// another program kept beside it is the draft now.
		if copies, _ := filepath.Glob(k.hashed(name) + "-*.json"); len(copies) > 0 {
			if cb, cerr := os.ReadFile(copies[0]); cerr == nil {
				k.setMoved(name, copies[0])
				b, err = cb, nil
			}
		}
	}
	k.setSeen(name, b)
	var f kept
	return err == nil && json.Unmarshal(b, &f) == nil && json.Unmarshal(f.Value, v) == nil
}

func (k *Keep) setSeen(name string, b []byte) {
	if k.seen == nil {
		k.seen = map[string][]byte{}
	}
	k.seen[name] = b
}

func (k *Keep) setMoved(name, p string) {
	if k.moved == nil {
		k.moved = map[string]string{}
	}
	k.moved[name] = p
}

// Holds reports whether the keep's file of name still holds what this
// keep last wrote there: false once another program sent or dropped it
// (then Save keeps it again, in a copy of this keep's own). Without a
// keep (no home) nothing is to be checked.
func (k *Keep) Holds(name string) bool {
	if k == nil || k.dir == "" {
		return true
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	b, err := os.ReadFile(k.fileOf(name))
	return err == nil && bytes.Equal(b, k.seen[name])
}

// Kept says what the keep holds, as Save was told, oldest first: what a
// new launch has to come back to.
func (k *Keep) Kept() []string {
	if k == nil || k.dir == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(k.dir, "*.json"))
	type item struct {
		what string
		when int64
	}
	var items []item
	for _, p := range files {
		b, err := os.ReadFile(p)
		fi, serr := os.Stat(p)
		var f kept
		if err == nil && serr == nil && json.Unmarshal(b, &f) == nil && f.What != "" {
			items = append(items, item{text.OneLine(f.What), fi.ModTime().UnixNano()})
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].when < items[j].when })
	out := make([]string, 0, len(items))
	for _, it := range items {
		if !slices.Contains(out, it.what) {
			out = append(out, it.what)
		}
	}
	return out
}

// Save keeps v under name, said for people as what, or forgets name when
// v is nil. The error is returned once, the first time saving fails, so a
// read-only cache is reported without repeating it on every key.
func (k *Keep) Save(name, what string, v any) error {
	if k == nil || k.dir == "" {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	err := k.save(name, what, v)
	if err == nil || k.warned {
		return nil
	}
	k.warned = true
	return fmt.Errorf("what you type cannot be kept for the next launch: %w", err)
}

// save writes v to name's file unless another program changed that file
// since this keep read or wrote it: then v goes to a copy of this keep's
// own, and the other's draft stays (and is never removed by this keep).
func (k *Keep) save(name, what string, v any) error {
	path := k.fileOf(name)
	now, _ := os.ReadFile(path)
	theirs := !bytes.Equal(now, k.seen[name])
	if v == nil {
		if theirs {
			return nil // another program's draft: not this one's to forget
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		delete(k.moved, name)
		k.setSeen(name, nil)
		return nil
	}
	if theirs {
		path = k.copyOf(name)
		k.setMoved(name, path)
	}
	if _, err := os.Stat(k.path(name)); err == nil && path != k.path(name) {
		what += " (kept beside another forge tui's)"
	}
	value, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b, err := json.Marshal(kept{What: what, Value: value})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(k.dir, 0o700); err != nil {
		return err
	}
	if err := atomicfile.Write(path, b); err != nil {
		return err
	}
	k.setSeen(name, b)
	return nil
}
