package registry

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"
)

func (r *Registry) serveBlob(w http.ResponseWriter, req *http.Request, rt route) {
	if !validDigest(rt.ref) {
		regError(w, codeDigestInvalid, fmt.Sprintf("%q is not a digest: want sha256:<64 hex digits> or sha512:<128 hex digits>", rt.ref))
		return
	}
	switch req.Method {
	case http.MethodGet, http.MethodHead:
		r.getBlob(w, req, rt)
	case http.MethodDelete:
		r.storeMu.Lock()
		ok, err := r.state.unlinkBlob(rt.repo, rt.ref)
		if ok && err == nil {
			r.removeUnused("blobs", []string{rt.ref})
		}
		r.storeMu.Unlock()
		switch {
		case err != nil:
			r.storageError(w, "deleting the blob", err)
		case !ok:
			regError(w, codeBlobUnknown, fmt.Sprintf("blob %s not found in %s", rt.ref, rt.repo))
		default:
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(http.StatusAccepted)
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, DELETE")
		regError(w, codeUnsupported, "blobs are read with GET and HEAD and removed with DELETE")
	}
}

// getBlob serves a blob from its file, with Range requests (a single
// range: "bytes=500-1499", "bytes=500-", "bytes=-500"; an end past the
// blob is clamped; a range starting past it, or ending before it starts,
// is 416). The file's name is its digest, verified when it was uploaded,
// so it is not hashed again.
func (r *Registry) getBlob(w http.ResponseWriter, req *http.Request, rt route) {
	if !r.state.hasBlob(rt.repo, rt.ref) {
		regError(w, codeBlobUnknown, fmt.Sprintf("blob %s not found in %s", rt.ref, rt.repo))
		return
	}
	f, err := os.Open(r.blobPath(rt.ref))
	if errors.Is(err, os.ErrNotExist) {
		regError(w, codeBlobUnknown, fmt.Sprintf("blob %s not found in %s", rt.ref, rt.repo))
		return
	}
	if err != nil {
		r.storageError(w, "reading the blob", err)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("Docker-Content-Digest", rt.ref)
	h.Set("Content-Type", "application/octet-stream")
	h.Set("ETag", `"`+rt.ref+`"`)
	http.ServeContent(w, req, "", time.Time{}, f)
}
