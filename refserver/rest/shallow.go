package rest

import (
	"bytes"
	"context"
	"io"

	"github.com/forgehq/forge/refserver/gitstore"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
)

// commitDepth is the depth of a "deepen N" request (0: none); git's other
// ways to cut history (--shallow-since, --shallow-exclude) are refused.
func commitDepth(d packp.Depth) (int, error) {
	switch d := d.(type) {
	case nil:
		return 0, nil
	case packp.DepthCommits:
		return int(d), nil
	}
	if d.IsZero() {
		return 0, nil
	}
	return 0, errInvalid("only --depth N is supported for shallow fetches, not --shallow-since or --shallow-exclude")
}

// shallowUploadPack answers a fetch with a depth or from a shallow client,
// which go-git's server refuses: in every round the shallow section when a
// depth was asked for (the boundary after this fetch), then, in a round
// with haves, ACK or NAK, and after "done" the pack. Callers hold the read
// lock, and req.Haves holds only commits the repository has.
func (a *API) shallowUploadPack(ctx context.Context, w io.Writer, g *gitstore.Repo, req *packp.UploadPackRequest, depth int, done, negotiating bool) error {
	relative := req.Capabilities.Supports(capability.DeepenRelative)
	plan, err := g.PlanFetch(ctx, req.Wants, req.Haves, req.Shallows, depth, relative, done)
	if err != nil {
		return err
	}
	if !done {
		var buf bytes.Buffer
		if depth > 0 {
			(&packp.ShallowUpdate{Shallows: plan.Shallows, Unshallows: plan.Unshallows}).Encode(&buf)
		}
		if negotiating {
			e := pktline.NewEncoder(&buf)
			if len(req.Haves) > 0 {
				e.Encodef("ACK %s\n", req.Haves[0])
			} else {
				e.Encodef("NAK\n")
			}
		}
		_, err := w.Write(buf.Bytes())
		return err
	}
	pr, pw := io.Pipe()
	encoded := make(chan struct{})
	go func() {
		defer close(encoded)
		_, err := packfile.NewEncoder(pw, g.Storer(), false).Encode(plan.Objects, 10)
		pw.CloseWithError(err)
	}()
	// The encoder reads the repository: it must be done before the
	// caller's read lock is released, also when the client hung up.
	defer func() { pr.Close(); <-encoded }()
	resp := packp.NewUploadPackResponseWithPackfile(req, pr)
	resp.ShallowUpdate = packp.ShallowUpdate{Shallows: plan.Shallows, Unshallows: plan.Unshallows}
	resp.ServerResponse.ACKs = req.Haves[:min(1, len(req.Haves))]
	return resp.Encode(w)
}
