package registry

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/forgehq/forge/refserver/store"
)

// Digests: sha256 (the canonical algorithm) and sha512, the two the OCI
// image specification registers. Blobs and manifests are files named by
// digest under the registry's directory:
//
//	blobs/<algorithm>/<hex>
//	manifests/<algorithm>/<hex>
//	uploads/<id>              uploads in progress
//
// The directory is --data's registry/ folder, or a temporary directory
// removed at Close.

// parseDigest splits "sha256:<64 hex>" or "sha512:<128 hex>" (lower case).
func parseDigest(d string) (alg, hexPart string, ok bool) {
	alg, hexPart, found := strings.Cut(d, ":")
	if !found {
		return "", "", false
	}
	switch {
	case alg == "sha256" && len(hexPart) == 64:
	case alg == "sha512" && len(hexPart) == 128:
	default:
		return "", "", false
	}
	for i := 0; i < len(hexPart); i++ {
		b := hexPart[i]
		if !(b >= '0' && b <= '9' || b >= 'a' && b <= 'f') {
			return "", "", false
		}
	}
	return alg, hexPart, true
}

// validDigest reports whether d is a digest this registry stores.
func validDigest(d string) bool {
	_, _, ok := parseDigest(d)
	return ok
}

// looksLikeDigest tells a digest (valid or not) from a tag: tags hold no
// colon.
func looksLikeDigest(ref string) bool { return strings.Contains(ref, ":") }

func newHash(alg string) hash.Hash {
	if alg == "sha512" {
		return sha512.New()
	}
	return sha256.New()
}

func digestOf(alg string, b []byte) string {
	h := newHash(alg)
	h.Write(b)
	return alg + ":" + hex.EncodeToString(h.Sum(nil))
}

// fileDigest hashes a file with alg, for digests not computed while
// streaming (sha512 is rare; sha256 is hashed as the bytes arrive).
func fileDigest(path, alg string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := newHash(alg)
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return alg + ":" + hex.EncodeToString(h.Sum(nil)), nil
}

func (r *Registry) objectPath(kind, digest string) string {
	alg, hexPart, _ := parseDigest(digest)
	return filepath.Join(r.dir, kind, alg, hexPart)
}

func (r *Registry) blobPath(digest string) string     { return r.objectPath("blobs", digest) }
func (r *Registry) manifestPath(digest string) string { return r.objectPath("manifests", digest) }

// install moves a finished file to its place under kind, synced first under
// --data so an acknowledged upload survives a crash. A file already there
// has the same content (the name is its digest), so the new one is dropped.
func (r *Registry) install(tmp, kind, digest string) error {
	dst := r.objectPath(kind, digest)
	if _, err := os.Stat(dst); err == nil {
		return os.Remove(tmp)
	}
	if err := r.disk.fault("install", dst); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	if r.durable {
		f, err := os.Open(tmp)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return os.Rename(tmp, dst)
}

// writeObject stores small content (a manifest) under kind by digest.
func (r *Registry) writeObject(kind, digest string, data []byte) error {
	dst := r.objectPath(kind, digest)
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	return r.disk.writeAtomic(dst, data, 0o600)
}

// removeUnused deletes the files of digests no repository refers to any
// more: nothing else reclaims their space. The caller holds storeMu, so no
// upload links the digest again in between.
func (r *Registry) removeUnused(kind string, digests []string) {
	for _, d := range digests {
		if r.state.refersTo(kind, d) {
			continue
		}
		if err := os.Remove(r.objectPath(kind, d)); err != nil && !errors.Is(err, os.ErrNotExist) {
			r.logf("removing %s %s: %v", kind, d, err)
		}
	}
}

// disk is the file layer the registry's writes go through. Its fail hook,
// nil outside tests, plays a storage failure (a full disk) for the writes
// it chooses, so tests can show that a failed write changes nothing.
type disk struct {
	fail atomic.Pointer[func(op, path string) error]
}

// fault is the hook's error for a write, nil when there is none.
func (d *disk) fault(op, path string) error {
	if d == nil {
		return nil
	}
	fail := d.fail.Load()
	if fail == nil {
		return nil
	}
	if err := (*fail)(op, path); err != nil {
		return &os.PathError{Op: op, Path: path, Err: err}
	}
	return nil
}

// writeAtomic is store.WriteFileAtomic (temporary file, synced, renamed)
// behind the fail hook.
func (d *disk) writeAtomic(path string, data []byte, mode os.FileMode) error {
	if err := d.fault("write", path); err != nil {
		return err
	}
	return store.WriteFileAtomic(path, data, mode)
}

// storageFailure is what a client is told of a failed read or write of
// the registry's files: the cause without the path, which is the
// server's business (the full error goes to the log).
func storageFailure(err error) string {
	var pe *os.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err.Error()
	case errors.As(err, &le):
		return le.Err.Error()
	}
	return "storage error"
}
