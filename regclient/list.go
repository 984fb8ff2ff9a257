package regclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Tag is one tag of a repository. The service's /api/tags gives all
// fields; the registry protocol only the name.
type Tag struct {
	Name      string    `json:"name"`
	Digest    string    `json:"digest,omitempty"`
	MediaType string    `json:"media_type,omitempty"`
	Size      int64     `json:"size,omitempty"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}

// Tags lists a repository's tags, sorted. On the service's registry it
// asks GET /api/tags/<repo> (one request, with digests); elsewhere, or if
// that endpoint answers something forge does not understand, the protocol's
// tags/list. raw holds each tag as the server sent it, for --json.
func (c *Client) Tags(ctx context.Context, repo name.Repository) (tags []Tag, raw []json.RawMessage, err error) {
	if c.IsService(repo) && c.HasCredentials() {
		tags, raw, ok, err := c.apiTags(ctx, repo)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			return tags, raw, nil
		}
	}
	names, err := remote.List(repo, c.options(ctx)...)
	if err != nil {
		return nil, nil, c.wrap(err, repo.String())
	}
	sort.Strings(names)
	for _, n := range names {
		tags = append(tags, Tag{Name: n})
		b, _ := json.Marshal(map[string]string{"name": n})
		raw = append(raw, b)
	}
	return tags, raw, nil
}

// apiTags reads /api/tags; ok is false when the answer is not one forge
// understands, so the caller falls back to the protocol.
func (c *Client) apiTags(ctx context.Context, repo name.Repository) ([]Tag, []json.RawMessage, bool, error) {
	body, status, err := c.apiGet(ctx, "/api/tags/"+repo.RepositoryStr())
	if err != nil {
		return nil, nil, false, err
	}
	switch status {
	case http.StatusOK:
	case http.StatusUnauthorized:
		return nil, nil, false, &Error{Status: status, Msg: fmt.Sprintf("the registry refused the credentials of %s: wrong username or password; run `forge image login`", c.user)}
	case http.StatusForbidden:
		return nil, nil, false, &Error{Status: status, Msg: fmt.Sprintf("%s: denied: %s", repo, apiMessage(body))}
	default:
		return nil, nil, false, nil
	}
	items, ok := decodeList(body, "tags")
	if !ok {
		return nil, nil, false, nil
	}
	var tags []Tag
	for _, it := range items {
		var t Tag
		if s, isString := jsonString(it); isString {
			t.Name = s
		} else if json.Unmarshal(it, &t) != nil || t.Name == "" {
			var alt struct{ Tag string }
			if json.Unmarshal(it, &alt) != nil || alt.Tag == "" {
				return nil, nil, false, nil
			}
			t.Name = alt.Tag
		}
		tags = append(tags, t)
	}
	sort.SliceStable(tags, func(i, j int) bool { return tags[i].Name < tags[j].Name })
	return tags, items, true, nil
}

// Catalog lists the repositories the user may pull (GET /v2/_catalog).
func (c *Client) Catalog(ctx context.Context) ([]string, error) {
	reg, err := name.NewRegistry(c.host, c.nameOpts(c.host)...)
	if err != nil {
		return nil, err
	}
	repos, err := remote.Catalog(ctx, reg, c.options(ctx)...)
	if err != nil {
		return nil, c.wrap(err, c.host)
	}
	sort.Strings(repos)
	return repos, nil
}

// Repository is an entry of the admin catalog.
type Repository struct {
	Name      string    `json:"name"`
	Tags      []string  `json:"tags,omitempty"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}

// AdminCatalog lists every repository of the service's registry (GET
// /api/catalog, for admins). raw holds each entry as the server sent it.
func (c *Client) AdminCatalog(ctx context.Context) ([]Repository, []json.RawMessage, error) {
	if !c.HasCredentials() {
		return nil, nil, &Error{Status: http.StatusUnauthorized, Msg: fmt.Sprintf("not logged in to the registry %s: run `forge image login` (or set FORGE_USERNAME and FORGE_PASSWORD)", c.host)}
	}
	body, status, err := c.apiGet(ctx, "/api/catalog")
	if err != nil {
		return nil, nil, err
	}
	switch status {
	case http.StatusOK:
	case http.StatusUnauthorized:
		return nil, nil, &Error{Status: status, Msg: fmt.Sprintf("the registry refused the credentials of %s: wrong username or password; run `forge image login`", c.user)}
	case http.StatusForbidden:
		return nil, nil, &Error{Status: status, Msg: "the full catalog is for admins: " + apiMessage(body) + "; `forge image list` shows what you may pull"}
	default:
		return nil, nil, &Error{Status: status, Msg: fmt.Sprintf("GET /api/catalog: the registry answered %d: %s", status, apiMessage(body))}
	}
	items, ok := decodeList(body, "repositories")
	if !ok {
		return nil, nil, &Error{Msg: "GET /api/catalog answered something forge does not understand"}
	}
	var repos []Repository
	for _, it := range items {
		var r Repository
		if s, isString := jsonString(it); isString {
			r.Name = s
		} else if err := json.Unmarshal(it, &r); err != nil || r.Name == "" {
			return nil, nil, &Error{Msg: "GET /api/catalog answered an entry without a name"}
		}
		repos = append(repos, r)
	}
	return repos, items, nil
}

// apiGet sends an authenticated GET to one of the registry's /api/
// endpoints and returns the body (at most 16 MiB) and status.
func (c *Client) apiGet(ctx context.Context, path string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.scheme+"://"+c.host+path, nil)
	if err != nil {
		return nil, 0, err
	}
	req.SetBasicAuth(c.user, c.password)
	req.Header.Set("Accept", "application/json")
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	resp, err := c.transport.RoundTrip(req)
	if err != nil {
		return nil, 0, c.wrap(err, c.host)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, 0, c.wrap(err, c.host)
	}
	return body, resp.StatusCode, nil
}

// decodeList accepts a JSON array, or an object holding one under key.
func decodeList(body []byte, key string) ([]json.RawMessage, bool) {
	var items []json.RawMessage
	if json.Unmarshal(body, &items) == nil {
		return items, true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil {
		return nil, false
	}
	if json.Unmarshal(obj[key], &items) != nil {
		return nil, false
	}
	return items, true
}

func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	return "", false
}

// apiMessage is the "error" of a {"error": "..."} body, or the body.
func apiMessage(body []byte) string {
	var e struct{ Error string }
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		return e.Error
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
