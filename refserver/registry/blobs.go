package registry

import (
	"errors"
	"net/http"
	"os"
	"time"
)

func (r *Registry) serveBlob(w http.ResponseWriter, req *http.Request, rt route) error {
	if !validDigest(rt.ref) {
		return errorf(codeDigestInvalid, "%q is not a digest: want sha256:<64 hex digits> or sha512:<128 hex digits>", rt.ref)
	}
	switch req.Method {
	case http.MethodGet, http.MethodHead:
		return r.getBlob(w, req, rt)
	case http.MethodDelete:
		r.storeMu.Lock()
		ok, err := r.state.unlinkBlob(rt.repo, rt.ref)
		if ok && err == nil {
			r.removeUnused("blobs", []string{rt.ref})
		}
		r.storeMu.Unlock()
		switch {
		case err != nil:
			return storageFailed("deleting the blob", err)
		case !ok:
			return blobUnknown(rt)
		}
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusAccepted)
		return nil
	}
	return unsupported("GET, HEAD, DELETE", "blobs are read with GET and HEAD and removed with DELETE")
}

func blobUnknown(rt route) *regError {
	return errorf(codeBlobUnknown, "blob %s not found in %s", rt.ref, rt.repo)
}

// getBlob serves a blob from its file, with Range requests (a single
// range: "bytes=500-1499", "bytes=500-", "bytes=-500"; an end past the
// blob is clamped; a range starting past it, or ending before it starts,
// is 416). The file's name is its digest, verified when it was uploaded,
// so it is not hashed again.
func (r *Registry) getBlob(w http.ResponseWriter, req *http.Request, rt route) error {
	if !r.state.hasBlob(rt.repo, rt.ref) {
		return blobUnknown(rt)
	}
	f, err := os.Open(r.blobPath(rt.ref))
	if errors.Is(err, os.ErrNotExist) {
		return blobUnknown(rt)
	}
	if err != nil {
		return storageFailed("reading the blob", err)
	}
	defer f.Close()
	h := w.Header()
	h.Set("Docker-Content-Digest", rt.ref)
	h.Set("Content-Type", "application/octet-stream")
	h.Set("ETag", `"`+rt.ref+`"`)
	http.ServeContent(w, req, "", time.Time{}, f)
	return nil
}
