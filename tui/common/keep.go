package common

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Keep holds what the user typed and has not sent — drafts of comments
// and issues, the chat's conversation and input — so that a quit or a
// crash loses none of it: each is a file of its own, mode 0600, in
// CACHE/forge/tui/PROFILE-HASH/ (one directory per profile and service),
// replaced atomically (a temporary file renamed over it) every time it
// changes, and read back when the view that holds it opens again.
type Keep struct {
	dir string // "" keeps nothing (no home directory)

	mu     sync.Mutex
	warned bool
}

// OpenKeep returns the keep of a profile on a service under cacheDir.
func OpenKeep(cacheDir, profile, baseURL string) *Keep {
	if cacheDir == "" {
		return &Keep{}
	}
	sum := sha256.Sum256([]byte(profile + "\n" + baseURL))
	return &Keep{dir: filepath.Join(cacheDir, "tui", hex.EncodeToString(sum[:8]))}
}

// path is the file of the thing named; names are hashed, as they hold
// repository names.
func (k *Keep) path(name string) string {
	sum := sha256.Sum256([]byte(name))
	return filepath.Join(k.dir, hex.EncodeToString(sum[:12])+".json")
}

// Load reads what was kept under name into v; false when nothing was
// (or it cannot be read, as a file of an older forge).
func (k *Keep) Load(name string, v any) bool {
	if k == nil || k.dir == "" {
		return false
	}
	b, err := os.ReadFile(k.path(name))
	return err == nil && json.Unmarshal(b, v) == nil
}

// Save keeps v under name, or forgets name when v is nil. The error is
// returned once, the first time saving fails, so a read-only cache is
// reported without repeating it on every key.
func (k *Keep) Save(name string, v any) error {
	if k == nil || k.dir == "" {
		return nil
	}
	err := k.save(name, v)
	k.mu.Lock()
	defer k.mu.Unlock()
	if err == nil || k.warned {
		return nil
	}
	k.warned = true
	return fmt.Errorf("what you type cannot be kept for the next launch: %w", err)
}

func (k *Keep) save(name string, v any) error {
	path := k.path(name)
	if v == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(k.dir, 0o700); err != nil {
		return err
	}
	// CreateTemp makes the file 0600: nobody else reads a draft, even
	// for the moment before the rename.
	tmp, err := os.CreateTemp(k.dir, ".keep-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
