package regclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"sync"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
	"golang.org/x/sync/errgroup"

	"github.com/forgehq/forge/internal/origin"
)

// Login checks credentials against the registry the way a client will use
// them: it asks the token service for a token (which checks them with the
// service's login) and reads /v2/ with it. Nothing is stored.
func (c *Client) Login(ctx context.Context, user, password string) error {
	reg, err := name.NewRegistry(c.host, c.nameOpts(c.host)...)
	if err != nil {
		return err
	}

	auth := &authn.Basic{Username: user, Password: password}
	rt := c.transport.pinned(user, password)
	tr, err := transport.NewWithContext(ctx, reg, auth, rt, []string{"registry:catalog:*"})
	if err == nil {
		err = ping(ctx, tr, reg)
	}
	if err != nil {
		login := &Client{host: c.host, scheme: c.scheme, service: c.service, user: user, password: password, transport: rt}
		return login.wrap(err, c.host)
	}
	return nil
}

// Probe is what a registry says to a request without credentials.
type Probe struct {
	// NeedsLogin is false for a registry that answers GET /v2/ without
	// credentials (open to anyone).
	NeedsLogin bool
	// TokenHost is the host[:port] of the token service its challenge
	// names (the realm), "" when it names none; TokenOrigin is its origin
	// (scheme://host:port).
	TokenHost, TokenOrigin string
}

// Probe asks the registry's GET /v2/ without credentials.
func (c *Client) Probe(ctx context.Context) (Probe, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.scheme+"://"+c.host+"/v2/", nil)
	if err != nil {
		return Probe{}, err
	}
	resp, err := (&http.Client{Transport: c.transport}).Do(req)
	if err != nil {
		return Probe{}, c.wrap(err, c.host)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return Probe{}, nil
	case http.StatusUnauthorized:
		p := Probe{NeedsLogin: true}
		for _, h := range resp.Header.Values("WWW-Authenticate") {
			if realm := challengeParam(h, "realm"); realm != "" {
				if u, err := url.Parse(realm); err == nil {
					p.TokenHost, p.TokenOrigin = u.Host, origin.Of(u)
				}
			}
		}
		return p, nil
	}
	return Probe{}, c.wrap(transport.CheckError(resp, http.StatusOK), c.host)
}

// Trusts reports whether the password may go to the origin o (a URL or
// origin): the registry's, or one of Options.TokenOrigins.
func (c *Client) Trusts(o string) bool {
	o = origin.OfHost(o)
	return o != "" && slices.Contains(c.transport.allowed, o)
}

// Trust lets the password go to the origin o too, for this client (a
// token service the user trusts at login).
func (c *Client) Trust(o string) {
	if o = origin.OfHost(o); o != "" && !c.Trusts(o) {
		c.transport.allowed = append(c.transport.allowed, o)
	}
}

// DeleteTag deletes one tag, leaving its manifest and the manifest's
// other tags (OCI distribution 1.1: DELETE /v2/NAME/manifests/TAG).
// deleted is false, with no error, when the registry cannot delete a tag
// alone: the spec lets it answer 400 or 405 (docker-registry 2.8 answers
// 400 DIGEST_INVALID). A missing tag is an error (404).
func (c *Client) DeleteTag(ctx context.Context, tag name.Tag) (deleted bool, err error) {
	err = remote.Delete(tag, c.options(ctx)...)
	var te *transport.Error
	if errors.As(err, &te) && (te.StatusCode == http.StatusMethodNotAllowed || te.StatusCode == http.StatusBadRequest && tagDeleteRefused(te)) {
		return false, nil
	}
	if err != nil {
		return false, c.wrapOp(err, tag.String(), "delete")
	}
	return true, nil
}

// tagDeleteRefused reports whether a 400 answer to a tag DELETE says the
// registry wants a digest, rather than something else being wrong.
func tagDeleteRefused(te *transport.Error) bool {
	for _, d := range te.Errors {
		switch d.Code {
		case transport.DigestInvalidErrorCode, transport.UnsupportedErrorCode:
			return true
		}
	}
	return len(te.Errors) == 0
}

// DeletePlan is what deleting a reference removes.
type DeletePlan struct {
	Digest name.Digest // the manifest deleted
	Tags   []string    // every tag pointing at it, all removed with it
}

// PlanDelete resolves ref to its digest and finds the other tags that
// point at the same manifest: deleting by digest removes them all.
func (c *Client) PlanDelete(ctx context.Context, ref name.Reference) (*DeletePlan, error) {
	opts := c.options(ctx)
	puller, err := remote.NewPuller(opts...)
	if err != nil {
		return nil, err
	}
	// Clipped, so the appends below copy instead of sharing a backing
	// array between goroutines.
	opts = slices.Clip(append(opts, remote.Reuse(puller)))
	desc, err := remote.Head(ref, opts...)
	if err != nil {
		return nil, c.wrap(err, ref.String())
	}
	plan := &DeletePlan{Digest: ref.Context().Digest(desc.Digest.String())}
	tags, err := remote.List(ref.Context(), opts...)
	if err != nil {
		return nil, c.wrap(err, ref.Context().String())
	}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, t := range tags {
		g.Go(func() error {
			d, err := remote.Head(ref.Context().Tag(t), append(opts, remote.WithContext(gctx))...)
			if err != nil {
				if isStatus(err, http.StatusNotFound) {
					return nil // deleted meanwhile
				}
				return c.wrap(err, ref.Context().Tag(t).String())
			}
			if d.Digest == desc.Digest {
				mu.Lock()
				plan.Tags = append(plan.Tags, t)
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	sort.Strings(plan.Tags)
	return plan, nil
}

// Delete deletes a manifest by digest.
func (c *Client) Delete(ctx context.Context, d name.Digest) error {
	return c.wrapOp(remote.Delete(d, c.options(ctx)...), d.String(), "delete")
}

// CopyOptions tune Copy.
type CopyOptions struct {
	Jobs int
	// Progress receives the bytes written so far and the total, one call
	// at a time, from a goroutine of Copy's own (Copy returns after its
	// last call).
	Progress func(done, total int64)
}

// Copy copies an image or a whole index from src to dst, between
// registries or within one (blobs the destination has are skipped, and
// mounted within a registry where it allows). It returns the digest.
func (c *Client) Copy(ctx context.Context, src, dst name.Reference, o CopyOptions) (v1.Hash, error) {
	if o.Jobs <= 0 {
		o.Jobs = 4
	}
	desc, err := remote.Get(src, c.options(ctx)...)
	if err != nil {
		return v1.Hash{}, c.wrap(err, src.String())
	}
	var updates chan v1.Update
	var wg sync.WaitGroup
	opts := c.options(ctx, remote.WithJobs(o.Jobs))
	if o.Progress != nil {
		updates = make(chan v1.Update, 16)
		opts = append(opts, remote.WithProgress(updates))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range updates {
				o.Progress(u.Complete, u.Total)
			}
		}()
	}
	if desc.MediaType.IsIndex() {
		var idx v1.ImageIndex
		if idx, err = desc.ImageIndex(); err == nil {
			err = remote.WriteIndex(dst, idx, opts...)
		}
	} else {
		var img v1.Image
		if img, err = desc.Image(); err == nil {
			err = remote.Write(dst, img, opts...)
		}
	}
	wg.Wait()
	if err != nil {
		return v1.Hash{}, c.wrapOp(err, dst.String(), "push")
	}
	return desc.Digest, nil
}

// Descriptor fetches what ref names: its manifest or index, digest and
// media type.
func (c *Client) Descriptor(ctx context.Context, ref name.Reference) (*remote.Descriptor, error) {
	desc, err := remote.Get(ref, c.options(ctx)...)
	if err != nil {
		return nil, c.wrap(err, ref.String())
	}
	return desc, nil
}

// ImageSummary describes one image for inspect.
type ImageSummary struct {
	Digest    string        `json:"digest"`
	MediaType string        `json:"media_type"`
	Platform  string        `json:"platform,omitempty"`
	Created   string        `json:"created,omitempty"`
	Config    string        `json:"config"`
	Size      int64         `json:"size"` // config and layers, compressed
	Layers    []LayerDetail `json:"layers"`
}

// LayerDetail is one layer of an image.
type LayerDetail struct {
	Digest    string `json:"digest"`
	MediaType string `json:"media_type"`
	Size      int64  `json:"size"`
}

// Summarize reads an image's manifest and config.
func Summarize(img v1.Image) (*ImageSummary, error) {
	m, err := img.Manifest()
	if err != nil {
		return nil, err
	}
	d, err := img.Digest()
	if err != nil {
		return nil, err
	}
	mt, _ := img.MediaType()
	s := &ImageSummary{Digest: d.String(), MediaType: string(mt), Config: m.Config.Digest.String(), Size: m.Config.Size, Layers: []LayerDetail{}}
	if cfg, err := img.ConfigFile(); err == nil {
		if p := cfg.Platform(); p != nil && p.OS != "" {
			s.Platform = p.String()
		}
		if !cfg.Created.IsZero() {
			s.Created = cfg.Created.UTC().Format("2006-01-02T15:04:05Z")
		}
	}
	for _, l := range m.Layers {
		s.Size += l.Size
		s.Layers = append(s.Layers, LayerDetail{Digest: l.Digest.String(), MediaType: string(l.MediaType), Size: l.Size})
	}
	return s, nil
}

// Images reads every image of an index, several at once, in the index's
// order.
func Images(ctx context.Context, idx v1.ImageIndex) ([]*ImageSummary, error) {
	im, err := idx.IndexManifest()
	if err != nil {
		return nil, err
	}
	out := make([]*ImageSummary, len(im.Manifests))
	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for i, d := range im.Manifests {
		if !d.MediaType.IsImage() {
			out[i] = &ImageSummary{Digest: d.Digest.String(), MediaType: string(d.MediaType), Size: d.Size, Layers: []LayerDetail{}}
			continue
		}
		g.Go(func() error {
			img, err := idx.Image(d.Digest)
			if err != nil {
				return err
			}
			s, err := Summarize(img)
			if err != nil {
				return fmt.Errorf("%s: %w", d.Digest, err)
			}
			if d.Platform != nil {
				s.Platform = d.Platform.String()
			}
			out[i] = s
			return nil
		})
	}
	return out, g.Wait()
}

// ping reads /v2/ through tr: 200 means the credentials work.
func ping(ctx context.Context, tr http.RoundTripper, reg name.Registry) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, reg.Scheme()+"://"+reg.RegistryStr()+"/v2/", nil)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return transport.CheckError(resp, http.StatusOK)
}
