package regclient

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
)

// uploadCache remembers where each layer upload in progress lives (its
// Location), by registry, repository and digest, so that a push stopped
// in the middle of a layer (Ctrl-C, a lost connection) resumes it from
// where the registry's Range says the bytes end, as the OCI distribution
// specification's chunked uploads allow. An entry goes when its layer is
// pushed; a stale one costs one GET. Files are DIR/<hash>.json.
type uploadCache struct{ files jsonDir }

func newUploadCache(cacheDir string) uploadCache {
	return uploadCache{cacheSubdir(cacheDir, "uploads")}
}

type uploadEntry struct {
	Blob     string `json:"blob"` // REGISTRY/REPO@DIGEST, to check the file is this one's
	Location string `json:"location"`
}

func blobKey(repo name.Repository, digest string) string { return repo.Name() + "@" + digest }

// lookup returns the remembered upload of the blob, "" when none.
func (c uploadCache) lookup(repo name.Repository, digest string) string {
	blob := blobKey(repo, digest)
	var e uploadEntry
	if !c.files.read(hashedName(blob), &e) || e.Blob != blob {
		return ""
	}
	return e.Location
}

// remember notes where the blob's upload lives; failing to is harmless (a
// push stopped then starts the layer over).
func (c uploadCache) remember(repo name.Repository, digest, location string) {
	blob := blobKey(repo, digest)
	c.files.write(hashedName(blob), uploadEntry{Blob: blob, Location: location})
}

func (c uploadCache) forget(repo name.Repository, digest string) {
	c.files.remove(hashedName(blobKey(repo, digest)))
}

// resume continues the layer's upload at location from where the registry
// says its bytes end, and completes it. done is false, with no error, when
// there is nothing to resume (the upload is gone, holds nothing, or the
// registry refuses the rest): the caller uploads the layer afresh.
func (c *Client) resume(ctx context.Context, repo name.Repository, l *trackedLayer, location string) (done bool, sent int64, err error) {
	key := l.digest.String()
	defer func() {
		if err == nil {
			c.uploads.forget(repo, key)
		}
	}()
	client, err := c.pushClient(ctx, repo)
	if err != nil {
		return false, 0, err
	}
	offset, ok, err := uploadOffset(ctx, client, location)
	if err != nil || !ok || offset > l.size {
		return false, 0, err
	}
	if offset == l.size {
		// Every byte arrived before the push stopped (what was in flight
		// when Ctrl-C came): only the completing PUT is missing.
		u, err := url.Parse(location)
		if err != nil {
			return false, 0, nil
		}
		done, err := completeUpload(ctx, client, u, key)
		return done, 0, err
	}
	rc, err := l.Layer.Compressed()
	if err != nil {
		return false, 0, err
	}
	defer rc.Close()
	if _, err := io.CopyN(io.Discard, rc, offset); err != nil {
		return false, 0, err
	}
	l.opened.Store(true)
	body := &countingReader{rc: io.NopCloser(rc), t: l, n: offset}
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, location, body)
	if err != nil {
		return false, 0, err
	}
	req.ContentLength = l.size - offset
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("Content-Range", fmt.Sprintf("%d-%d", offset, l.size-1))
	resp, err := client.Do(req)
	if err != nil {
		return false, 0, ctxErr(ctx, err)
	}
	resp.Body.Close()
	next, lerr := resp.Location()
	if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusNoContent || lerr != nil {
		return false, 0, nil
	}
	done, err = completeUpload(ctx, client, next, key)
	return done, l.size - offset, err
}

// completeUpload completes the upload at loc as the blob digest: the PUT
// that closes a chunked upload. done is false when the registry refuses.
func completeUpload(ctx context.Context, client *http.Client, loc *url.URL, digest string) (done bool, err error) {
	q := loc.Query()
	q.Set("digest", digest)
	put := *loc
	put.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, put.String(), nil)
	if err != nil {
		return false, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return false, ctxErr(ctx, err)
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusCreated, nil
}

// uploadOffset asks where an upload's bytes end: ok is false when the
// upload is gone or holds nothing to resume after ("0-0" may be one byte or
// none; one byte is not worth the doubt).
func uploadOffset(ctx context.Context, client *http.Client, location string) (offset int64, ok bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, location, nil)
	if err != nil {
		return 0, false, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, false, ctxErr(ctx, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return 0, false, nil
	}
	first, last, found := strings.Cut(strings.TrimPrefix(resp.Header.Get("Range"), "bytes="), "-")
	end, perr := strconv.ParseInt(last, 10, 64)
	if !found || first != "0" || perr != nil || end <= 0 {
		return 0, false, nil
	}
	return end + 1, true, nil
}

// ctxErr is the context's error when it ended, else err: a request
// stopped by Ctrl-C is an interruption, not a failure to resume.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// pushClient is an HTTP client holding a token to push to repo.
func (c *Client) pushClient(ctx context.Context, repo name.Repository) (*http.Client, error) {
	auth, err := c.Keychain().Resolve(repo)
	if err != nil {
		return nil, err
	}
	rt, err := transport.NewWithContext(ctx, repo.Registry, auth, c.transport, []string{repo.Scope(transport.PushScope)})
	if err != nil {
		return nil, c.wrap(err, repo.String())
	}
	return &http.Client{Transport: rt}, nil
}

// uploadStarted is told, by regTransport, where a layer's bytes are being
// sent: the upload to resume if the push stops.
func (r *countingReader) uploadStarted(u *url.URL) {
	if r.t.started != nil {
		r.t.started(u.String())
	}
}
