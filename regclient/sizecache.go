package regclient

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/forgehq/forge/internal/atomicfile"
)

// sizeCache remembers what Sizes computed from a manifest, by the
// manifest's digest: the content a digest names never changes, so the
// entry holds for ever and for every registry. Files are
// DIR/<algorithm>-<hex>.json. An empty dir remembers nothing.
type sizeCache struct{ dir string }

func newSizeCache(cacheDir string) sizeCache {
	if cacheDir == "" {
		return sizeCache{}
	}
	return sizeCache{filepath.Join(cacheDir, "manifest-sizes")}
}

type sizeEntry struct {
	MediaType string `json:"media_type"`
	Size      int64  `json:"image_size"`
	Platforms int    `json:"platforms"`
}

func (c sizeCache) file(digest string) (string, bool) {
	alg, hex, ok := splitDigest(digest)
	if c.dir == "" || !ok {
		return "", false
	}
	return filepath.Join(c.dir, alg+"-"+hex+".json"), true
}

// get returns the remembered size of the manifest with digest.
func (c sizeCache) get(digest string) (*manifestSize, bool) {
	path, ok := c.file(digest)
	if !ok {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var e sizeEntry
	if json.Unmarshal(data, &e) != nil || e.MediaType == "" {
		return nil, false
	}
	return &manifestSize{digest: digest, mediaType: e.MediaType, size: e.Size, platforms: e.Platforms}, true
}

// put remembers a size; failing to is harmless (the next listing asks).
func (c sizeCache) put(ms *manifestSize) {
	path, ok := c.file(ms.digest)
	if !ok {
		return
	}
	data, err := json.Marshal(sizeEntry{MediaType: ms.mediaType, Size: ms.size, Platforms: ms.platforms})
	if err != nil || os.MkdirAll(c.dir, 0o700) != nil {
		return
	}
	atomicfile.Write(path, data)
}

// splitDigest splits "sha256:<hex>" (or sha512), refusing anything that
// could be more than a file name.
func splitDigest(d string) (alg, hex string, ok bool) {
	for i := 0; i < len(d); i++ {
		if d[i] == ':' {
			alg, hex = d[:i], d[i+1:]
			break
		}
	}
	if (alg != "sha256" || len(hex) != 64) && (alg != "sha512" || len(hex) != 128) {
		return "", "", false
	}
	for i := 0; i < len(hex); i++ {
		if b := hex[i]; !(b >= '0' && b <= '9' || b >= 'a' && b <= 'f') {
			return "", "", false
		}
	}
	return alg, hex, true
}
