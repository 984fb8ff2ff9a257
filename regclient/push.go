package regclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
	"golang.org/x/sync/errgroup"
)

// LayerState is where a layer's upload stands.
type LayerState int

const (
	LayerWaiting   LayerState = iota // not started
	LayerChecking                    // asking whether the registry has it
	LayerUploading                   // bytes are being sent
	LayerExists                      // the registry had it (or mounted it): nothing sent
	LayerPushed                      // uploaded
)

func (s LayerState) String() string {
	return [...]string{"waiting", "checking", "uploading", "exists", "pushed"}[s]
}

// LayerEvent reports a layer's progress.
type LayerEvent struct {
	Digest v1.Hash
	Size   int64
	Sent   int64 // bytes sent so far in this attempt
	State  LayerState
}

// PushOptions tune Push.
type PushOptions struct {
	// Jobs is how many layers upload at once; default 4.
	Jobs int
	// Progress, when set, receives every layer's events, from several
	// goroutines at once (Jobs of them): it must be safe for concurrent
	// use, and one layer's events arrive in order.
	Progress func(LayerEvent)
}

// PushResult says what a push did.
type PushResult struct {
	Ref    name.Digest // the pushed manifest, by digest
	Layers int         // layers in the image(s)
	Sent   int         // layers uploaded; the others the registry had
	Bytes  int64       // layer bytes uploaded
	// Unchanged says that the tag already named this manifest, so nothing
	// was sent and no layer was checked one by one.
	Unchanged bool
}

// Push uploads an image or index to ref: the layers the registry lacks,
// Jobs at a time, then the config and manifest(s). When the tag already
// names the same manifest, nothing else is sent.
func (c *Client) Push(ctx context.Context, src *Source, ref name.Reference, o PushOptions) (*PushResult, error) {
	if o.Jobs <= 0 {
		o.Jobs = 4
	}
	if o.Progress == nil {
		o.Progress = func(LayerEvent) {}
	}
	layers, err := src.Layers()
	if err != nil {
		return nil, err
	}
	res := &PushResult{Layers: len(layers)}
	opts := c.options(ctx, remote.WithJobs(o.Jobs))
	pusher, err := remote.NewPusher(opts...)
	if err != nil {
		return nil, err
	}
	// A re-push of the same image is one HEAD: if the tag (or digest)
	// already names this manifest, its blobs are there too. Asked only
	// when the manifest's digest costs no hashing (a layout, a tarball
	// the digest cache knows); otherwise each layer is hashed just
	// before its upload and its own HEAD says whether to send it. A 403
	// here says nothing yet (a registry may refuse reads to those who
	// may write): the upload will tell.
	if src.digestsKnown() {
		digest, err := src.Digest()
		if err != nil {
			return nil, err
		}
		if desc, err := remote.Head(ref, opts...); err == nil && desc.Digest == digest {
			// No layer event: the layers were not checked, so none is
			// reported as present (a registry may hold a manifest whose
			// blobs are gone).
			res.Ref, res.Unchanged = ref.Context().Digest(digest.String()), true
			return res, nil
		} else if err != nil && !isStatus(err, http.StatusNotFound) && !isStatus(err, http.StatusForbidden) && !c.scopeRefused(err) {
			return nil, c.wrap(err, ref.String())
		}
		for _, l := range layers {
			d, _ := l.Digest()
			size, _ := l.Size()
			o.Progress(LayerEvent{Digest: d, Size: size, State: LayerWaiting})
		}
	}

	var sent, sentBytes atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(o.Jobs)
	for _, l := range layers {
		g.Go(func() error {
			d, err := l.Digest() // hashes a tarball's layer not hashed yet
			if err != nil {
				return err
			}
			size, _ := l.Size()
			repo := ref.Context()
			tl := &trackedLayer{Layer: l, digest: d, size: size, report: o.Progress,
				started: func(loc string) { c.uploads.remember(repo, d.String(), loc) }}
			o.Progress(LayerEvent{Digest: d, Size: size, State: LayerChecking})
			if loc := c.uploads.lookup(repo, d.String()); loc != "" {
				done, n, err := c.resume(gctx, repo, tl, loc)
				if err != nil {
					return err
				}
				if done {
					sent.Add(1)
					sentBytes.Add(n)
					o.Progress(LayerEvent{Digest: d, Size: size, Sent: size, State: LayerPushed})
					return nil
				}
			}
			if err := pusher.Upload(gctx, repo, tl); err != nil {
				return err
			}
			c.uploads.forget(repo, d.String())
			if tl.opened.Load() {
				sent.Add(1)
				sentBytes.Add(size)
				o.Progress(LayerEvent{Digest: d, Size: size, Sent: size, State: LayerPushed})
			} else {
				o.Progress(LayerEvent{Digest: d, Size: size, State: LayerExists})
			}
			return nil
		})
	}
	err = g.Wait()
	if err == nil {
		err = pusher.Push(ctx, ref, src.Taggable())
	}
	if isStatus(err, http.StatusForbidden) {
		// Blob checks are HEADs, whose answers carry no message.
		return nil, &Error{Status: http.StatusForbidden, Code: "DENIED", Err: err,
			Msg: fmt.Sprintf("%s: denied: the registry refuses pushes to %s (403 Forbidden)", ref, ref.Context().RepositoryStr())}
	}
	if err != nil {
		return nil, c.wrapOp(err, ref.String(), "push")
	}
	digest, err := src.Digest()
	if err != nil {
		return nil, err
	}
	res.Ref = ref.Context().Digest(digest.String())
	res.Sent, res.Bytes = int(sent.Load()), sentBytes.Load()
	return res, nil
}

// isStatus reports whether err is a registry answer with that status.
func isStatus(err error, status int) bool {
	var te *transport.Error
	return errors.As(err, &te) && te.StatusCode == status
}

// scopeRefused reports whether err is a registry's refusal for want of
// scope (see regTransport).
func (c *Client) scopeRefused(err error) bool {
	var te *transport.Error
	if !errors.As(err, &te) {
		return false
	}
	_, ok := c.transport.refusedScope(te.Request)
	return ok
}

// trackedLayer reports the bytes read from a layer while it uploads; if
// its content is never opened, the registry already had it.
type trackedLayer struct {
	v1.Layer
	digest v1.Hash
	size   int64
	report func(LayerEvent)
	opened atomic.Bool
	// started, when set, is told where the layer's bytes go (an upload's
	// Location), so a push stopped midway can resume there.
	started func(location string)
}

func (t *trackedLayer) Compressed() (io.ReadCloser, error) {
	rc, err := t.Layer.Compressed()
	if err != nil {
		return nil, err
	}
	t.opened.Store(true)
	t.report(LayerEvent{Digest: t.digest, Size: t.size, State: LayerUploading})
	return &countingReader{rc: rc, t: t}, nil
}

type countingReader struct {
	rc io.ReadCloser
	t  *trackedLayer
	n  int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	n, err := r.rc.Read(p)
	if n > 0 {
		r.n += int64(n)
		r.t.report(LayerEvent{Digest: r.t.digest, Size: r.t.size, Sent: r.n, State: LayerUploading})
	}
	return n, err
}

func (r *countingReader) Close() error { return r.rc.Close() }
