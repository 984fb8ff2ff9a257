package registry

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
)

// maxManifest is the largest manifest accepted, as in the CNCF registry.
const maxManifest = 4 << 20

const mediaTypeOCIIndex = "application/vnd.oci.image.index.v1+json"

// manifestFields are the parts of a manifest (image or index, OCI or
// Docker) the registry reads: enough for the referrers API.
type manifestFields struct {
	MediaType    string            `json:"mediaType"`
	ArtifactType string            `json:"artifactType"`
	Config       *reference        `json:"config"`
	Layers       []reference       `json:"layers"`
	Subject      *reference        `json:"subject"`
	Annotations  map[string]string `json:"annotations"`
}

// reference is a descriptor inside a manifest, as far as the registry
// reads it.
type reference struct {
	MediaType string   `json:"mediaType"`
	Digest    string   `json:"digest"`
	URLs      []string `json:"urls"`
}

// missingContent names the first blob (config or layer) m refers to that
// repo does not hold, "" when it holds them all, as distribution checks
// them: content with urls lives elsewhere (foreign and non-distributable
// layers). An index's manifests are not checked: OCI 1.1 allows sparse
// indexes (a platform pushed later, or never), and so does the
// conformance suite's optional sparse test.
func (r *Registry) missingContent(repo string, m manifestFields) string {
	blobs := m.Layers
	if m.Config != nil {
		blobs = append([]reference{*m.Config}, blobs...)
	}
	for _, b := range blobs {
		if len(b.URLs) == 0 && !r.state.hasBlob(repo, b.Digest) {
			return "blob " + b.Digest
		}
	}
	return ""
}

func (r *Registry) serveManifest(w http.ResponseWriter, req *http.Request, rt route) error {
	isDigest := looksLikeDigest(rt.ref)
	switch {
	case isDigest && !validDigest(rt.ref):
		return errorf(codeDigestInvalid, "%q is not a digest: want sha256:<64 hex digits> or sha512:<128 hex digits>", rt.ref)
	case !isDigest && !validTag(rt.ref):
		return errorf(codeTagInvalid, "%q is not a tag: want [A-Za-z0-9_][A-Za-z0-9._-]{0,127}", rt.ref)
	}
	switch req.Method {
	case http.MethodGet, http.MethodHead:
		return r.getManifest(w, req, rt)
	case http.MethodPut:
		return r.putManifest(w, req, rt, isDigest)
	case http.MethodDelete:
		return r.deleteManifest(w, rt, isDigest)
	}
	return unsupported("GET, HEAD, PUT, DELETE", "manifests are read with GET and HEAD, pushed with PUT and removed with DELETE")
}

func manifestUnknown(rt route) *regError {
	return errorf(codeManifestUnknown, "manifest %s not found in %s", rt.ref, rt.repo)
}

func (r *Registry) getManifest(w http.ResponseWriter, req *http.Request, rt route) error {
	digest, info, ok := r.state.resolve(rt.repo, rt.ref)
	if !ok {
		return manifestUnknown(rt)
	}
	data, err := os.ReadFile(r.manifestPath(digest))
	if err != nil {
		return storageFailed("reading the manifest", err)
	}
	h := w.Header()
	h.Set("Content-Type", info.MediaType)
	h.Set("Content-Length", strconv.Itoa(len(data)))
	h.Set("Docker-Content-Digest", digest)
	h.Set("ETag", `"`+digest+`"`)
	w.WriteHeader(http.StatusOK)
	if req.Method != http.MethodHead {
		w.Write(data)
	}
	return nil
}

// putManifest stores a manifest pushed by tag or by digest; ?tag= adds
// tags to a push by digest (OCI 1.1), which is how a manifest with a
// sha512 digest gets a tag.
func (r *Registry) putManifest(w http.ResponseWriter, req *http.Request, rt route, isDigest bool) error {
	var tags []string
	if !isDigest {
		tags = append(tags, rt.ref)
	}
	paramTags := req.URL.Query()["tag"]
	for _, t := range paramTags {
		if !validTag(t) {
			return errorf(codeTagInvalid, "?tag=%q is not a tag", t)
		}
	}
	tags = append(tags, paramTags...)
	body, err := io.ReadAll(io.LimitReader(req.Body, maxManifest+1))
	if err != nil {
		return errorf(codeManifestInvalid, "reading the manifest: %v", err)
	}
	if len(body) > maxManifest {
		return errorf(codeSizeInvalid, "the manifest is larger than 4 MiB, the most this registry accepts")
	}
	var m manifestFields
	if err := json.Unmarshal(body, &m); err != nil {
		return errorf(codeManifestInvalid, "the manifest is not JSON: %v", err)
	}
	alg := "sha256"
	if isDigest {
		alg, _, _ = parseDigest(rt.ref)
	}
	digest := digestOf(alg, body)
	if isDigest && rt.ref != digest {
		return errorf(codeDigestInvalid, "the manifest's digest is %s, not %s", digest, rt.ref)
	}
	info, msg := describeManifest(m, trimMediaType(req.Header.Get("Content-Type")), int64(len(body)))
	if msg != "" {
		return errorf(codeManifestInvalid, "%s", msg)
	}
	info.PushedAt = r.now().UTC()
	r.storeMu.Lock()
	if missing := r.missingContent(rt.repo, m); missing != "" {
		r.storeMu.Unlock()
		return errorf(codeManifestBlobUnknown, "the manifest refers to %s, which %s does not hold: push it first", missing, rt.repo)
	}
	err = r.writeObject("manifests", digest, body)
	if err == nil {
		if err = r.state.putManifest(rt.repo, digest, info, tags); err != nil {
			r.removeUnused("manifests", []string{digest})
		}
	}
	r.storeMu.Unlock()
	if err != nil {
		return storageFailed("storing the manifest", err)
	}
	h := w.Header()
	if info.Subject != "" {
		h.Set("OCI-Subject", info.Subject)
	}
	for _, t := range paramTags {
		h.Add("OCI-Tag", t)
	}
	created(w, "/v2/"+rt.repo+"/manifests/"+digest, digest)
	return nil
}

// describeManifest is what the registry keeps about a manifest; msg says
// what is wrong with it.
func describeManifest(m manifestFields, contentType string, size int64) (info manifestInfo, msg string) {
	mediaType := contentType
	if mediaType == "" {
		mediaType = m.MediaType
	}
	switch {
	case mediaType == "":
		return info, "send the manifest's media type as Content-Type or in its mediaType field"
	case m.MediaType != "" && m.MediaType != mediaType:
		return info, fmt.Sprintf("the manifest's mediaType %q differs from its Content-Type %q", m.MediaType, mediaType)
	}
	info = manifestInfo{MediaType: mediaType, Size: size}
	if m.Subject != nil {
		if !validDigest(m.Subject.Digest) {
			return info, fmt.Sprintf("the subject's digest %q is not a digest", m.Subject.Digest)
		}
		// Only what the referrers API lists is kept; a manifest without a
		// subject may carry megabytes of annotations.
		info.Subject = m.Subject.Digest
		info.ArtifactType = m.ArtifactType
		if info.ArtifactType == "" && m.Config != nil {
			info.ArtifactType = m.Config.MediaType
		}
		info.Annotations = m.Annotations
	}
	return info, ""
}

// deleteManifest deletes a digest together with every tag pointing at it,
// or one tag alone.
func (r *Registry) deleteManifest(w http.ResponseWriter, rt route, isDigest bool) error {
	var found bool
	var err error
	if isDigest {
		r.storeMu.Lock()
		found, err = r.state.deleteManifest(rt.repo, rt.ref)
		if found && err == nil {
			r.removeUnused("manifests", []string{rt.ref})
		}
		r.storeMu.Unlock()
	} else {
		found, err = r.state.deleteTag(rt.repo, rt.ref)
	}
	switch {
	case err != nil && isDigest:
		return storageFailed("deleting the manifest", err)
	case err != nil:
		return storageFailed("deleting the tag", err)
	case !found:
		return manifestUnknown(rt)
	}
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusAccepted)
	return nil
}

// descriptor is an entry of a referrers list.
type descriptor struct {
	MediaType    string            `json:"mediaType"`
	Digest       string            `json:"digest"`
	Size         int64             `json:"size"`
	ArtifactType string            `json:"artifactType,omitempty"`
	Annotations  map[string]string `json:"annotations,omitempty"`
}

// serveReferrers lists the manifests of the repository whose subject is
// the digest, as an OCI index: always 200, empty when there are none.
// ?artifactType= filters, which OCI-Filters-Applied says.
func (r *Registry) serveReferrers(w http.ResponseWriter, req *http.Request, rt route) error {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		return unsupported("GET, HEAD", "referrers are listed with GET")
	}
	if !validDigest(rt.ref) {
		return errorf(codeDigestInvalid, "%q is not a digest", rt.ref)
	}
	at := req.URL.Query().Get("artifactType")
	list := r.state.referrers(rt.repo, rt.ref, at)
	if at != "" {
		w.Header().Set("OCI-Filters-Applied", "artifactType")
	}
	data, _ := json.Marshal(map[string]any{"schemaVersion": 2, "mediaType": mediaTypeOCIIndex, "manifests": list})
	w.Header().Set("Content-Type", mediaTypeOCIIndex)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(http.StatusOK)
	if req.Method == http.MethodGet {
		w.Write(data)
	}
	return nil
}

// trimMediaType drops parameters from a Content-Type.
func trimMediaType(ct string) string {
	t, _, _ := strings.Cut(ct, ";")
	return strings.TrimSpace(t)
}
