package regclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/internal/linkheader"
	"github.com/forgehq/forge/internal/origin"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"golang.org/x/sync/errgroup"
)

// Tag is one tag of a repository. The service's /api/tags gives the
// first five fields (Size is its manifest's size, as the registry
// counts it); the registry protocol only the name. Sizes fills in the
// digest, the media type, ImageSize and Platforms from the manifests.
type Tag struct {
	Name      string    `json:"name"`
	Digest    string    `json:"digest,omitempty"`
	MediaType string    `json:"media_type,omitempty"`
	Size      int64     `json:"size,omitempty"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
	// ImageSize is what the tag's image takes in the registry: its config
	// and layers, compressed, as their descriptors give them; for an
	// index, the sum over its images (a blob two images share counted
	// for each). 0 until Sizes.
	ImageSize int64 `json:"image_size,omitempty"`
	// Platforms is how many images an index holds; 0 for an image.
	Platforms int `json:"platforms,omitempty"`
}

// Sizes fills in each tag's digest, media type, ImageSize and Platforms
// from its manifest (and an index's images' manifests), 16 requests at a
// time. A manifest by digest never changes: each distinct digest is read
// once, however many tags name it, and remembered on disk (Options.CacheDir)
// for the next listing, which then asks nothing for tags whose digests it
// knows. A tag deleted meanwhile keeps its zero size.
func (c *Client) Sizes(ctx context.Context, repo name.Repository, tags []Tag) error {
	puller, err := c.lister()
	if err != nil {
		return err
	}
	opts := slices.Clip(c.options(ctx, remote.Reuse(puller)))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(16)
	var once onceByKey[*manifestSize]
	for i := range tags {
		t := &tags[i]
		if ms, ok := c.sizes.get(t.Digest); ok {
			t.MediaType, t.ImageSize, t.Platforms = ms.mediaType, ms.size, ms.platforms
			continue
		}
		g.Go(func() error {
			opts := append(opts, remote.WithContext(gctx))
			var ref name.Reference = repo.Tag(t.Name)
			key := "tag " + t.Name
			if t.Digest != "" {
				ref, key = repo.Digest(t.Digest), t.Digest
			} else if desc, err := remote.Head(ref, opts...); err == nil {
				// tags/list names no digests: a HEAD finds the tag's,
				// and a digest already known costs nothing more.
				if ms, ok := c.sizes.get(desc.Digest.String()); ok {
					t.Digest, t.MediaType, t.ImageSize, t.Platforms = ms.digest, ms.mediaType, ms.size, ms.platforms
					return nil
				}
				ref, key = repo.Digest(desc.Digest.String()), desc.Digest.String()
			}
			ms, err := once.do(key, func() (*manifestSize, error) {
				return c.sizeOf(gctx, ref, opts)
			})
			if isStatus(err, http.StatusNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			t.Digest, t.MediaType, t.ImageSize, t.Platforms = ms.digest, ms.mediaType, ms.size, ms.platforms
			return nil
		})
	}
	return g.Wait()
}

// onceByKey runs a function once per key, however many goroutines ask at
// once: the others wait for its result.
type onceByKey[T any] struct {
	mu    sync.Mutex
	calls map[string]*onceCall[T]
}

type onceCall[T any] struct {
	done chan struct{}
	v    T
	err  error
}

func (o *onceByKey[T]) do(key string, f func() (T, error)) (T, error) {
	o.mu.Lock()
	if o.calls == nil {
		o.calls = map[string]*onceCall[T]{}
	}
	c, ok := o.calls[key]
	if !ok {
		c = &onceCall[T]{done: make(chan struct{})}
		o.calls[key] = c
	}
	o.mu.Unlock()
	if ok {
		<-c.done
		return c.v, c.err
	}
	c.v, c.err = f()
	close(c.done)
	return c.v, c.err
}

type manifestSize struct {
	digest, mediaType string
	size              int64
	platforms         int
}

// sizeOf reads one manifest: an image's size from its descriptors, an
// index's as the sum over its images (read one after another: indexes
// hold few).
func (c *Client) sizeOf(ctx context.Context, ref name.Reference, opts []remote.Option) (*manifestSize, error) {
	desc, err := remote.Get(ref, opts...)
	if err != nil {
		if isStatus(err, http.StatusNotFound) {
			return nil, err
		}
		return nil, c.wrap(err, ref.String())
	}
	if ms, ok := c.sizes.get(desc.Digest.String()); ok {
		return ms, nil // an index whose images need not be read again
	}
	ms, err := c.manifestSize(ref, desc, opts)
	if err == nil {
		c.sizes.put(ms)
	}
	return ms, err
}

// manifestSize is sizeOf for a manifest read.
func (c *Client) manifestSize(ref name.Reference, desc *remote.Descriptor, opts []remote.Option) (*manifestSize, error) {
	ms := &manifestSize{digest: desc.Digest.String(), mediaType: string(desc.MediaType)}
	if !desc.MediaType.IsIndex() {
		m, err := v1.ParseManifest(bytes.NewReader(desc.Manifest))
		if err != nil {
			return nil, fmt.Errorf("%s: the manifest is not valid: %w", ref, err)
		}
		ms.size = manifestImageSize(m)
		return ms, nil
	}
	im, err := v1.ParseIndexManifest(bytes.NewReader(desc.Manifest))
	if err != nil {
		return nil, fmt.Errorf("%s: the index is not valid: %w", ref, err)
	}
	for _, d := range im.Manifests {
		if !d.MediaType.IsImage() {
			continue // an attestation or a nested index: not an image
		}
		child, err := remote.Get(ref.Context().Digest(d.Digest.String()), opts...)
		if err != nil {
			return nil, c.wrap(err, ref.String())
		}
		m, err := v1.ParseManifest(bytes.NewReader(child.Manifest))
		if err != nil {
			return nil, fmt.Errorf("%s: the manifest of %s is not valid: %w", ref, d.Digest, err)
		}
		ms.size += manifestImageSize(m)
		ms.platforms++
	}
	return ms, nil
}

// manifestImageSize is an image's config and layers, as its manifest
// gives them.
func manifestImageSize(m *v1.Manifest) int64 {
	n := m.Config.Size
	for _, l := range m.Layers {
		n += l.Size
	}
	return n
}

// Tags lists a repository's tags, sorted. On the hosting service's
// registry (Options.Service) it asks GET /api/tags/<repo> (one request,
// with digests); elsewhere, or if
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
	puller, err := c.lister()
	if err != nil {
		return nil, nil, err
	}
	names, err := puller.List(ctx, repo)
	if err != nil {
		return nil, nil, c.wrap(err, repo.String())
	}
	sort.Strings(names)
	for _, n := range names {
		tags = append(tags, Tag{Name: n})
		raw = append(raw, named(n))
	}
	return tags, raw, nil
}

// apiTags reads /api/tags; ok is false when the answer is not one forge
// understands, so the caller falls back to the protocol.
func (c *Client) apiTags(ctx context.Context, repo name.Repository) ([]Tag, []json.RawMessage, bool, error) {
	items, status, body, err := c.apiList(ctx, "/api/tags/"+repo.RepositoryStr(), "tags")
	if errors.Is(err, errNotList) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	switch status {
	case http.StatusOK:
	case http.StatusUnauthorized:
		return nil, nil, false, &Error{Status: status, Msg: c.refusedCredentials()}
	case http.StatusForbidden:
		return nil, nil, false, &Error{Status: status, Msg: fmt.Sprintf("%s: denied: %s", repo, apiMessage(body))}
	default:
		return nil, nil, false, nil
	}
	var tags []Tag
	for i, it := range items {
		var t Tag
		if s, isString := jsonString(it); isString {
			t.Name = s
			items[i] = named(s)
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
	items, status, body, err := c.apiList(ctx, "/api/catalog", "repositories")
	if errors.Is(err, errNotList) {
		return nil, nil, &Error{Msg: "GET /api/catalog answered something forge does not understand"}
	}
	if err != nil {
		return nil, nil, err
	}
	switch status {
	case http.StatusOK:
	case http.StatusUnauthorized:
		return nil, nil, &Error{Status: status, Msg: c.refusedCredentials()}
	case http.StatusForbidden:
		return nil, nil, &Error{Status: status, Msg: "the full catalog is for admins: " + apiMessage(body) + "; `forge image list` shows what you may pull"}
	default:
		return nil, nil, &Error{Status: status, Msg: fmt.Sprintf("GET /api/catalog: the registry answered %d: %s", status, apiMessage(body))}
	}
	var repos []Repository
	for i, it := range items {
		var r Repository
		if s, isString := jsonString(it); isString {
			r.Name = s
			items[i] = named(s)
		} else if err := json.Unmarshal(it, &r); err != nil || r.Name == "" {
			return nil, nil, &Error{Msg: "GET /api/catalog answered an entry without a name"}
		}
		repos = append(repos, r)
	}
	return repos, items, nil
}

// maxAPIPages bounds the pages of one /api/ listing: a service whose
// every page links to a new one must not keep forge reading.
var maxAPIPages = 1000

// errNotList is an /api/ answer that is not a list forge understands (a
// constant: no start-up work).
const errNotList = sentinel("not a list")

// sentinel is an error that is its text.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// apiList reads a list from one of the registry's /api/ endpoints: on each
// page a JSON array, or an object holding one under key. A service may page
// it as its REST API pages (Link rel="next"): the next page is followed on
// the registry's own origin, at most maxAPIPages, and a link elsewhere is
// an error (forge sends its password to no other origin, and a list cut
// there must not pass for whole). A first answer other than 200 comes back
// as its status and body for the caller to judge; a later page's is an
// error, as is one that is not a list (errNotList for the first).
func (c *Client) apiList(ctx context.Context, path, key string) (items []json.RawMessage, status int, body []byte, err error) {
	self := c.scheme + "://" + c.host
	next, seen := self+path, map[string]bool{}
	for page := 1; next != ""; page++ {
		if seen[next] {
			break // a page linking to one read: the list is read
		}
		if page > maxAPIPages {
			return nil, 0, nil, &Error{Msg: fmt.Sprintf("GET %s: the registry's list goes on past %d pages; forge stopped reading it", path, maxAPIPages)}
		}
		seen[next] = true
		body, status, h, err := c.apiGet(ctx, next)
		if err != nil {
			return nil, 0, nil, err
		}
		if status != http.StatusOK && page == 1 {
			return nil, status, body, nil
		}
		if status != http.StatusOK {
			return nil, 0, nil, &Error{Status: status, Msg: fmt.Sprintf("GET %s: the registry answered %d for page %d of the list: %s", path, status, page, apiMessage(body))}
		}
		more, ok := decodeList(body, key)
		if !ok && page == 1 {
			return nil, status, body, errNotList
		}
		if !ok {
			return nil, 0, nil, &Error{Msg: fmt.Sprintf("GET %s: page %d of the list is not a list", path, page)}
		}
		items = append(items, more...)
		base, _ := url.Parse(next)
		next = linkheader.Rel(h, base, "next")
		if next != "" && origin.OfString(next) != origin.OfString(self) {
			return nil, 0, nil, &Error{Msg: fmt.Sprintf("GET %s: the registry's next page is on another origin (%s): forge does not follow it", path, origin.OfString(next))}
		}
	}
	return items, http.StatusOK, nil, nil
}

// apiGet sends an authenticated GET to one of the registry's /api/
// endpoints (u, a full URL on the registry's origin) and returns the body
// (at most 16 MiB), status and headers.
func (c *Client) apiGet(ctx context.Context, u string) ([]byte, int, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, 0, nil, err
	}
	req.SetBasicAuth(c.user, c.password)
	req.Header.Set("Accept", "application/json")
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	resp, err := c.transport.RoundTrip(req)
	if err != nil {
		return nil, 0, nil, c.wrap(err, c.host)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, 0, nil, c.wrap(err, c.host)
	}
	return body, resp.StatusCode, resp.Header, nil
}

// named is the JSON record of an entry a listing gave as a plain string,
// its name: --json's fields ("name") find it as in an object.
func named(s string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"name": s})
	return b
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
