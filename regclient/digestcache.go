package regclient

import (
	"os"
	"path/filepath"
)

// digestCache remembers the layer digests of tarballs forge has read, so
// pushing the same file again hashes nothing: for an image the registry
// already has, hashing is nearly all the work (192 MiB of layers cost
// about 0.2 s of CPU). An entry is used only while the file's identity —
// device, inode, size, modification and change times — is unchanged; the
// change time moves on every write and cannot be set back, so a modified
// file is always hashed again (git's index trusts the same fields). The
// registry checks the digest of every blob it receives anyway.
type digestCache struct{ files jsonDir }

type cacheEntry struct {
	Path   string            `json:"path"`
	FileID string            `json:"file_id"`
	Layers map[string]string `json:"layers"` // "offset:size" -> digest
}

// key is the tarball's absolute path and identity, or ok false.
func (c digestCache) key(path string, fi os.FileInfo) (abs, id string, ok bool) {
	if c.files == "" {
		return "", "", false
	}
	id, ok = fileID(fi)
	abs, err := filepath.Abs(path)
	return abs, id, ok && err == nil
}

// lookup returns the remembered digests of the tarball at path, or nil.
func (c digestCache) lookup(path string, fi os.FileInfo) map[string]string {
	abs, id, ok := c.key(path, fi)
	var e cacheEntry
	if !ok || !c.files.read(hashedName(abs), &e) || e.Path != abs || e.FileID != id {
		return nil
	}
	return e.Layers
}

// store remembers the digests; failing to costs a hash next time.
func (c digestCache) store(path string, fi os.FileInfo, layers map[string]string) {
	if abs, id, ok := c.key(path, fi); ok {
		c.files.write(hashedName(abs), cacheEntry{Path: abs, FileID: id, Layers: layers})
	}
}
