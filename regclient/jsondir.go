package regclient

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/forgehq/forge/internal/atomicfile"
)

// jsonDir is a directory of the small JSON files forge's registry caches
// keep between runs (digestCache, uploadCache, sizeCache). A cache is
// only a shortcut: a missing or unreadable file finds nothing, and
// failing to write one costs the work again next time. The empty jsonDir
// keeps nothing.
type jsonDir string

// cacheSubdir is the jsonDir name in forge's cache directory ("" when
// forge has none).
func cacheSubdir(cacheDir, name string) jsonDir {
	if cacheDir == "" {
		return ""
	}
	return jsonDir(filepath.Join(cacheDir, name))
}

// read decodes the file name into v, and says whether it could.
func (d jsonDir) read(name string, v any) bool {
	if d == "" {
		return false
	}
	data, err := os.ReadFile(filepath.Join(string(d), name))
	return err == nil && json.Unmarshal(data, v) == nil
}

// write stores v as the file name, whole or not at all.
func (d jsonDir) write(name string, v any) {
	if d == "" || os.MkdirAll(string(d), 0o700) != nil {
		return
	}
	if data, err := json.Marshal(v); err == nil {
		atomicfile.Write(filepath.Join(string(d), name), data)
	}
}

func (d jsonDir) remove(name string) {
	if d != "" {
		os.Remove(filepath.Join(string(d), name))
	}
}

// hashedName is the file name of a key of any length and characters (a
// path, a blob's registry, repository and digest): 128 bits of its
// SHA-256. The entry repeats its key, to tell a collision from a hit.
func hashedName(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16]) + ".json"
}
