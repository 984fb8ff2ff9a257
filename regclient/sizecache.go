package regclient

import (
	"strings"
	"sync"
)

// sizeCache remembers what Sizes computed from a manifest, by the
// manifest's digest: the content a digest names never changes, so the
// entry holds for ever and for every registry. Files are
// DIR/<algorithm>-<hex>.json; an empty dir keeps none. What a run
// read or wrote is also kept in memory: a listing's tags mostly name a
// few digests (301 tags of one image read one file, not 301).
type sizeCache struct {
	files jsonDir
	mu    sync.Mutex
	held  map[string]*manifestSize // by digest; nil: no file
}

func newSizeCache(cacheDir string) *sizeCache {
	return &sizeCache{files: cacheSubdir(cacheDir, "manifest-sizes"), held: map[string]*manifestSize{}}
}

type sizeEntry struct {
	MediaType string `json:"media_type"`
	Size      int64  `json:"image_size"`
	Platforms int    `json:"platforms"`
}

// sizeFile is the file of the manifest with digest; ok false for a digest
// that is not sha256 or sha512 hex (it could be more than a file name).
func sizeFile(digest string) (string, bool) {
	alg, hex, ok := splitDigest(digest)
	return alg + "-" + hex + ".json", ok
}

// get returns the remembered size of the manifest with digest.
func (c *sizeCache) get(digest string) (*manifestSize, bool) {
	c.mu.Lock()
	ms, held := c.held[digest]
	c.mu.Unlock()
	if !held {
		ms = c.read(digest)
		c.mu.Lock()
		// A put while the file was read holds the newer answer.
		if put, ok := c.held[digest]; ok {
			ms = put
		} else {
			c.held[digest] = ms
		}
		c.mu.Unlock()
	}
	return ms, ms != nil
}

func (c *sizeCache) read(digest string) *manifestSize {
	name, ok := sizeFile(digest)
	var e sizeEntry
	if !ok || !c.files.read(name, &e) || e.MediaType == "" {
		return nil
	}
	return &manifestSize{digest: digest, mediaType: e.MediaType, size: e.Size, platforms: e.Platforms}
}

// put remembers a size; failing to is harmless (the next listing asks).
func (c *sizeCache) put(ms *manifestSize) {
	c.mu.Lock()
	c.held[ms.digest] = ms
	c.mu.Unlock()
	if name, ok := sizeFile(ms.digest); ok {
		c.files.write(name, sizeEntry{MediaType: ms.mediaType, Size: ms.size, Platforms: ms.platforms})
	}
}

// splitDigest splits "sha256:<hex>" (or sha512), refusing anything that
// could be more than a file name.
func splitDigest(d string) (alg, hex string, ok bool) {
	alg, hex, _ = strings.Cut(d, ":")
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
