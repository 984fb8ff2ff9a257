package registry

import (
	"encoding/json"
	"net/http"
)

// errCode is an error code of the registry protocol. Each code has one
// HTTP status, in codeStatus: a handler names the code, never the status.
type errCode string

// The codes the registry answers with: the OCI distribution
// specification's, and the ones CNCF distribution adds (UNKNOWN,
// UNAVAILABLE, TAG_INVALID, PAGINATION_NUMBER_INVALID, RANGE_INVALID).
// NOT_FOUND is a path outside the protocol, which distribution answers
// with a bare 404.
const (
	codeBlobUnknown             errCode = "BLOB_UNKNOWN"
	codeBlobUploadInvalid       errCode = "BLOB_UPLOAD_INVALID"
	codeBlobUploadUnknown       errCode = "BLOB_UPLOAD_UNKNOWN"
	codeDigestInvalid           errCode = "DIGEST_INVALID"
	codeManifestBlobUnknown     errCode = "MANIFEST_BLOB_UNKNOWN"
	codeManifestInvalid         errCode = "MANIFEST_INVALID"
	codeManifestUnknown         errCode = "MANIFEST_UNKNOWN"
	codeNameInvalid             errCode = "NAME_INVALID"
	codeNameUnknown             errCode = "NAME_UNKNOWN"
	codeSizeInvalid             errCode = "SIZE_INVALID"
	codeTagInvalid              errCode = "TAG_INVALID"
	codeUnauthorized            errCode = "UNAUTHORIZED"
	codeDenied                  errCode = "DENIED"
	codeUnsupported             errCode = "UNSUPPORTED"
	codeTooManyRequests         errCode = "TOOMANYREQUESTS"
	codePaginationNumberInvalid errCode = "PAGINATION_NUMBER_INVALID"
	codeRangeInvalid            errCode = "RANGE_INVALID"
	codeNotFound                errCode = "NOT_FOUND"
	codeUnknown                 errCode = "UNKNOWN"
	codeUnavailable             errCode = "UNAVAILABLE"
)

// codeStatus is the status of every code, as distribution's errcode
// registry gives it (SIZE_INVALID is 400 there too: a manifest over the
// limit is an invalid request, not a body the server could not read).
var codeStatus = map[errCode]int{
	codeBlobUnknown:             http.StatusNotFound,
	codeBlobUploadInvalid:       http.StatusBadRequest,
	codeBlobUploadUnknown:       http.StatusNotFound,
	codeDigestInvalid:           http.StatusBadRequest,
	codeManifestBlobUnknown:     http.StatusBadRequest,
	codeManifestInvalid:         http.StatusBadRequest,
	codeManifestUnknown:         http.StatusNotFound,
	codeNameInvalid:             http.StatusBadRequest,
	codeNameUnknown:             http.StatusNotFound,
	codeSizeInvalid:             http.StatusBadRequest,
	codeTagInvalid:              http.StatusBadRequest,
	codeUnauthorized:            http.StatusUnauthorized,
	codeDenied:                  http.StatusForbidden,
	codeUnsupported:             http.StatusMethodNotAllowed,
	codeTooManyRequests:         http.StatusTooManyRequests,
	codePaginationNumberInvalid: http.StatusBadRequest,
	codeRangeInvalid:            http.StatusRequestedRangeNotSatisfiable,
	codeNotFound:                http.StatusNotFound,
	codeUnknown:                 http.StatusInternalServerError,
	codeUnavailable:             http.StatusServiceUnavailable,
}

// regError writes an error of the registry protocol with its code's status.
func regError(w http.ResponseWriter, code errCode, msg string) {
	status, ok := codeStatus[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{
		"errors": []map[string]string{{"code": string(code), "message": msg}},
	})
}

// storageError answers a failed read or write of the registry's files:
// 500, the cause without the path; the whole error goes to the log.
func (r *Registry) storageError(w http.ResponseWriter, what string, err error) {
	r.logf("%s: %v", what, err)
	regError(w, codeUnknown, what+": "+storageFailure(err))
}
