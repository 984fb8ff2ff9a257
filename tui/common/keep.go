package common

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
type Keep struct {
	dir string // "" keeps nothing (no home directory)

	mu     sync.Mutex
	warned bool
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
func (k *Keep) path(name string) string {
	sum := sha256.Sum256([]byte(name))
	return filepath.Join(k.dir, hex.EncodeToString(sum[:12])+".json")
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
	b, err := os.ReadFile(k.path(name))
	var f kept
	return err == nil && json.Unmarshal(b, &f) == nil && json.Unmarshal(f.Value, v) == nil
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
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.what
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
	err := k.save(name, what, v)
	k.mu.Lock()
	defer k.mu.Unlock()
	if err == nil || k.warned {
		return nil
	}
	k.warned = true
	return fmt.Errorf("what you type cannot be kept for the next launch: %w", err)
}

func (k *Keep) save(name, what string, v any) error {
	path := k.path(name)
	if v == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
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
	return atomicfile.Write(path, b)
}
