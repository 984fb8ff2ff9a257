package regclient

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/forgehq/forge/internal/atomicfile"
)

// digestCache remembers the layer digests of tarballs forge has read, so
// pushing the same file again hashes nothing: for an image the registry
// already has, hashing is nearly all the work (192 MiB of layers cost
// about 0.2 s of CPU). An entry is used only while the file's identity —
// device, inode, size, modification and change times — is unchanged; the
// change time moves on every write and cannot be set back, so a modified
// file is always hashed again (git's index trusts the same fields). The
// registry checks the digest of every blob it receives anyway.
type digestCache struct{ dir string }

type cacheEntry struct {
	Path   string            `json:"path"`
	FileID string            `json:"file_id"`
	Layers map[string]string `json:"layers"` // "offset:size" -> digest
}

func (c digestCache) file(abs string) string {
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:16])+".json")
}

// lookup returns the remembered digests of the tarball at path, or nil.
func (c digestCache) lookup(path string, fi os.FileInfo) map[string]string {
	if c.dir == "" {
		return nil
	}
	id, ok := fileID(fi)
	abs, err := filepath.Abs(path)
	if !ok || err != nil {
		return nil
	}
	data, err := os.ReadFile(c.file(abs))
	if err != nil {
		return nil
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil || e.Path != abs || e.FileID != id {
		return nil
	}
	return e.Layers
}

// store remembers the digests; failing to is harmless.
func (c digestCache) store(path string, fi os.FileInfo, layers map[string]string) {
	if c.dir == "" {
		return
	}
	id, ok := fileID(fi)
	abs, err := filepath.Abs(path)
	if !ok || err != nil {
		return
	}
	data, err := json.Marshal(cacheEntry{Path: abs, FileID: id, Layers: layers})
	if err != nil || os.MkdirAll(c.dir, 0o700) != nil {
		return
	}
	atomicfile.Write(c.file(abs), data) // a cache: a failed write costs a hash next time
}
