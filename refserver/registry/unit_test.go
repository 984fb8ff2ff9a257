package registry

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestForgedTokens(t *testing.T) {
	t.Parallel()
	s, err := newSigner()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := newSigner()
	tok, _ := other.issue("forge-token-service", "forge-registry", account{Login: "alice"}, nil, time.Minute, time.Now())
	if _, err := s.verify(tok, "forge-token-service", "forge-registry"); err == nil {
		t.Error("a token signed by another key verified")
	}
	none := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{"iss": "forge-token-service", "aud": "forge-registry", "sub": "alice", "exp": time.Now().Add(time.Hour).Unix()})
	raw, _ := none.SignedString(jwt.UnsafeAllowNoneSignatureType)
	if _, err := s.verify(raw, "forge-token-service", "forge-registry"); err == nil {
		t.Error("an unsigned token verified")
	}
	good, _ := s.issue("forge-token-service", "forge-registry", account{Login: "alice"}, nil, time.Minute, time.Now())
	if _, err := s.verify(good, "forge-token-service", "forge-registry"); err != nil {
		t.Errorf("a good token: %v", err)
	}
	if _, err := s.verify(good, "other-issuer", "forge-registry"); err == nil {
		t.Error("a token of another issuer verified")
	}
}

func TestParseScope(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"repository:alice/app:pull,push":     "repository:alice/app:pull,push",
		"repository:alice/app:pull,pull":     "repository:alice/app:pull",
		"repository(plugin):alice/app:pull":  "repository:alice/app:pull",
		"registry:catalog:*":                 "registry:catalog:*",
		"repository:localhost:5000/a/b:pull": "repository:localhost:5000/a/b:pull",
	} {
		sc, err := parseScope(in)
		if err != nil || sc.String() != want {
			t.Errorf("parseScope(%q) = %q, %v; want %q", in, sc.String(), err, want)
		}
	}
	for _, bad := range []string{"", "repository", "repository:alice", ":x:pull", "repository::pull"} {
		if _, err := parseScope(bad); err == nil {
			t.Errorf("parseScope(%q) succeeded", bad)
		}
	}
}

func TestParseRoute(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]route{
		"/v2/":                        {kind: routeBase},
		"/v2/_catalog":                {kind: routeCatalog},
		"/v2/a/b/tags/list":           {kind: routeTags, repo: "a/b"},
		"/v2/a/b/c/manifests/1.0":     {kind: routeManifest, repo: "a/b/c", ref: "1.0"},
		"/v2/a/b/blobs/sha256:00":     {kind: routeBlob, repo: "a/b", ref: "sha256:00"},
		"/v2/a/b/blobs/uploads/":      {kind: routeUpload, repo: "a/b"},
		"/v2/a/b/blobs/uploads/123":   {kind: routeUpload, repo: "a/b", ref: "123"},
		"/v2/a/blobs/b/manifests/x":   {kind: routeManifest, repo: "a/blobs/b", ref: "x"},
		"/v2/a/b/referrers/sha256:00": {kind: routeReferrers, repo: "a/b", ref: "sha256:00"},
		"/v2/justone":                 {kind: routeUnknown},
		"/v2/a/manifests":             {kind: routeUnknown},
	} {
		if got := parseRoute(path); got != want {
			t.Errorf("parseRoute(%q) = %+v, want %+v", path, got, want)
		}
	}
}

func TestNames(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"alice/app": true, "a/b/c": true, "a.b/c-d": true, "a__b/c": true, "a--b/c": true,
		"Alice/app": false, "a/": false, "/a": false, "a//b": false, "a/-b": false, "a/b.": false, "a/b___c": false, "": false,
	} {
		if got := validRepo(s); got != want {
			t.Errorf("validRepo(%q) = %v", s, got)
		}
	}
	for s, want := range map[string]bool{"1.0": true, "latest": true, "_x": true, ".x": false, "-x": false, "a:b": false, "": false} {
		if got := validTag(s); got != want {
			t.Errorf("validTag(%q) = %v", s, got)
		}
	}
}

func TestLibtrustKeyID(t *testing.T) {
	t.Parallel()
	s, err := newSigner()
	if err != nil {
		t.Fatal(err)
	}
	groups := strings.Split(s.kid, ":")
	if len(groups) != 12 {
		t.Fatalf("kid %q has %d groups, want 12", s.kid, len(groups))
	}
	for _, g := range groups {
		if len(g) != 4 || strings.ToUpper(g) != g {
			t.Fatalf("kid %q: group %q", s.kid, g)
		}
	}
}

// One status per code, distribution's; a new code needs a row here.
func TestCodeStatusTable(t *testing.T) {
	want := map[errCode]int{
		"BLOB_UNKNOWN": 404, "BLOB_UPLOAD_INVALID": 400, "BLOB_UPLOAD_UNKNOWN": 404,
		"DIGEST_INVALID": 400, "MANIFEST_BLOB_UNKNOWN": 400, "MANIFEST_INVALID": 400,
		"MANIFEST_UNKNOWN": 404, "NAME_INVALID": 400, "NAME_UNKNOWN": 404,
		"SIZE_INVALID": 400, "TAG_INVALID": 400, "UNAUTHORIZED": 401, "DENIED": 403,
		"UNSUPPORTED": 405, "TOOMANYREQUESTS": 429, "PAGINATION_NUMBER_INVALID": 400,
		"RANGE_INVALID": 416, "NOT_FOUND": 404, "UNKNOWN": 500, "UNAVAILABLE": 503,
		// forge's own: the token service's OAuth2 errors, /api/'s bodies.
		"invalid_request": 400, "unsupported_grant_type": 400, "UNPROCESSABLE": 422,
	}
	if !maps.Equal(codeStatus, want) {
		t.Errorf("codeStatus = %v\nwant %v", codeStatus, want)
	}
}
