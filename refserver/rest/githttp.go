package rest

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/refserver/ci"
	"github.com/forgehq/forge/refserver/gitstore"
	"github.com/forgehq/forge/refserver/store"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
)

// Git over HTTP: each repository is served with git's smart HTTP protocol
// (v0, stateless) at its clone_url, {origin}/OWNER/NAME.git:
//
//	GET  .../info/refs?service=git-upload-pack|git-receive-pack
//	POST .../git-upload-pack     (clone, fetch)
//	POST .../git-receive-pack    (push)
//
// Requests authenticate with HTTP basic auth whose password is a forge
// token (any user name), or with "Authorization: token T". Clone and fetch
// need the permission to see the repository, push the write permission.
// A push moves the repository's updated_at and starts a workflow run per
// updated branch, as a CI service would: "[skip ci]" in the head commit's
// message skips it, "[ci fail]" makes it fail.
//
// Its handlers return their errors, as the JSON API's do, and one writer
// answers (writeGitError): statusOf decides the status; no code here
// writes one (TestGitWritesNoStatus).

// GitHTTP reports whether path is a git smart HTTP path and, if so,
// serves it.
func (a *API) GitHTTP(w http.ResponseWriter, r *http.Request) bool {
	owner, name, op, ok := splitGitPath(r.URL.Path)
	if !ok {
		return false
	}
	if err := a.serveGit(w, r, owner, name, op); err != nil {
		writeGitError(w, err)
	}
	return true
}

// splitGitPath parses /OWNER/NAME(.git)/OP.
func splitGitPath(p string) (owner, name, op string, ok bool) {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	switch {
	case len(parts) == 4 && parts[2] == "info" && parts[3] == "refs":
		op = "info/refs"
	case len(parts) == 3 && (parts[2] == "git-upload-pack" || parts[2] == "git-receive-pack"):
		op = parts[2]
	default:
		return "", "", "", false
	}
	return parts[0], strings.TrimSuffix(parts[1], ".git"), op, parts[0] != "" && parts[1] != ""
}

func (a *API) serveGit(w http.ResponseWriter, r *http.Request, owner, name, op string) error {
	service := r.URL.Query().Get("service")
	if op != "info/refs" {
		service = op
	}
	if service != "git-upload-pack" && service != "git-receive-pack" {
		return errForbidden("only the smart HTTP protocol is served: use git 1.6.6 or later")
	}
	if (op == "info/refs") != (r.Method == http.MethodGet) {
		return errMethod("method not allowed")
	}
	s, err := a.gitSession(r)
	if err != nil {
		return err
	}
	r.SetPathValue("owner", owner)
	r.SetPathValue("repo", name)
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	push := service == "git-receive-pack"
	if push && !x.canWrite() {
		return errForbidden("pushing needs write permission on %s", x.repo.FullName())
	}
	g, err := a.git.Open(x.repo.ID)
	if err != nil {
		return errNotFound("repository has no git data")
	}
	w.Header().Set("Cache-Control", "no-cache")
	switch {
	case op == "info/refs":
		return a.advertise(w, r, g, service)
	case push:
		return a.receivePack(w, r, g, x, s)
	}
	return a.uploadPack(w, r, g)
}

// gitSession authenticates basic auth (token as password) or a token
// header.
func (a *API) gitSession(r *http.Request) (*session, error) {
	const asPassword = ": use a forge token as the password"
	if _, pw, ok := r.BasicAuth(); ok {
		u, tok, found := a.st.Authenticate(pw)
		switch {
		case !found:
			return nil, errUnauthorized("%s%s", a.unknownToken(), asPassword)
		case tok.Pending:
			return nil, errUnauthorized("two-factor verification required")
		}
		return &session{user: u, token: tok}, nil
	}
	if r.Header.Get("Authorization") == "" {
		return nil, errUnauthorized("authentication required%s", asPassword)
	}
	s, err := a.authenticate(r)
	if err == nil && s.token.Pending {
		return nil, errUnauthorized("two-factor verification required")
	}
	return s, err
}

// fixedLoader hands go-git's server the one repository of the request.
type fixedLoader struct{ st storer.Storer }

func (l fixedLoader) Load(*transport.Endpoint) (storer.Storer, error) { return l.st, nil }

// gitEndpoint is a placeholder: fixedLoader ignores it. Built on first
// use, not at init (every forge command would pay for it).
var gitEndpoint = sync.OnceValue(func() *transport.Endpoint {
	ep, _ := transport.NewEndpoint("/repo.git")
	return ep
})

func (a *API) advertise(w http.ResponseWriter, r *http.Request, g *gitstore.Repo, service string) error {
	b, err := advertisement(r.Context(), g, service)
	if err != nil {
		return fmt.Errorf("advertising the refs: %w", err)
	}
	// Written after the lock is released: a client that does not read
	// must not hold up a push.
	writeGitAnswer(w, "application/x-"+service+"-advertisement", b)
	return nil
}

// writeGitAnswer answers 200 with b.
func writeGitAnswer(w http.ResponseWriter, contentType string, b []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

// advertisement encodes the refs advertisement under the read lock.
func advertisement(ctx context.Context, g *gitstore.Repo, service string) ([]byte, error) {
	g.RLock()
	defer g.RUnlock()
	srv := server.NewServer(fixedLoader{g.Storer()})
	var ar *packp.AdvRefs
	var err error
	if service == "git-upload-pack" {
		var sess transport.UploadPackSession
		if sess, err = srv.NewUploadPackSession(gitEndpoint(), nil); err == nil {
			ar, err = sess.AdvertisedReferencesContext(ctx)
		}
	} else {
		var sess transport.ReceivePackSession
		if sess, err = srv.NewReceivePackSession(gitEndpoint(), nil); err == nil {
			ar, err = sess.AdvertisedReferencesContext(ctx)
		}
	}
	if err != nil {
		return nil, err
	}
	if service == "git-upload-pack" {
		// Served by shallowUploadPack, not by go-git.
		ar.Capabilities.Add(capability.Shallow)
		ar.Capabilities.Add(capability.DeepenRelative)
	}
	ar.Prefix = [][]byte{[]byte("# service=" + service), pktline.Flush}
	var buf bytes.Buffer
	if err := ar.Encode(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Limits of one upload-pack request (clone, fetch), after git's own: git
// http-backend buffers at most 10 MiB of a gunzipped request
// (GIT_HTTP_MAX_REQUEST_BUFFER), and git's fetch sends its haves in rounds
// of at most 16,384 new ones at first (LARGE_FLUSH), plus those already
// found in common. Past either limit the answer is 400 before the
// repository is locked, however much more the request holds.
const (
	maxUploadRequest = 10 << 20
	maxHaves         = 65536
)

// errRequestTooLarge ends the reading of a request past maxUploadRequest.
var errRequestTooLarge = fmt.Errorf("request over %d MiB (after decompression)", maxUploadRequest>>20)

func requestBody(r *http.Request) (io.Reader, error) {
	if r.Header.Get("Content-Encoding") == "gzip" {
		return gzip.NewReader(r.Body)
	}
	return r.Body, nil
}

// boundedReader stops at limit bytes with errRequestTooLarge, and as soon
// as ctx ends (the client hung up).
type boundedReader struct {
	ctx   context.Context
	r     io.Reader
	limit int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if b.limit <= 0 {
		return 0, errRequestTooLarge
	}
	if int64(len(p)) > b.limit {
		p = p[:b.limit]
	}
	n, err := b.r.Read(p)
	b.limit -= int64(n)
	return n, err
}

// uploadPack answers one round of a stateless fetch: without "done" it
// only acknowledges the first common commit (or NAKs); with it, it sends
// the pack of what the wants reach and the haves do not.
func (a *API) uploadPack(w http.ResponseWriter, r *http.Request, g *gitstore.Repo) error {
	ctx := r.Context()
	body, err := requestBody(r)
	if err != nil {
		return errInvalid("%v", err)
	}
	body = &boundedReader{ctx: ctx, r: body, limit: maxUploadRequest}
	req := packp.NewUploadPackRequest()
	if err := req.UploadRequest.Decode(body); err != nil {
		return errInvalid("bad upload-pack request: %v", err)
	}
	done, negotiating, err := readHaves(body, &req.UploadHaves)
	if err != nil {
		return errInvalid("bad upload-pack request: %v", err)
	}
	depth, err := commitDepth(req.Depth)
	if err != nil {
		return err
	}
	// The answer is made under the read lock into a spool, and sent
	// after the lock is released: a clone that never reads its answer
	// must not hold up pushes (and, behind them, every reader).
	var out gitstore.Spool
	defer out.Close()
	if err := a.packInto(ctx, &out, g, req, depth, done, negotiating); err != nil {
		return fetchError(err)
	}
	if ctx.Err() != nil {
		return nil
	}
	return sendSpool(w, &out, "application/x-git-upload-pack-result")
}

// fetchError is the error of a fetch that failed making its answer: the
// request's fault (a want or a depth the repository cannot serve), a
// 400, unless the repository's files failed to be read (a 500).
func fetchError(err error) error {
	var pe *fs.PathError
	if store.KindOf(err) != store.Internal || errors.As(err, &pe) {
		return err
	}
	return errInvalid("%v", err)
}

// sendSpool answers 200 with what out holds.
func sendSpool(w http.ResponseWriter, out *gitstore.Spool, contentType string) error {
	rd, err := out.Reader()
	if err != nil {
		return fmt.Errorf("reading the spooled answer: %w", err)
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.FormatInt(out.Size(), 10))
	io.Copy(w, rd)
	return nil
}

// packInto writes one round's answer of a fetch to out, under the read
// lock.
func (a *API) packInto(ctx context.Context, out io.Writer, g *gitstore.Repo, req *packp.UploadPackRequest, depth int, done, negotiating bool) error {
	g.RLock()
	defer g.RUnlock()
	st := g.Storer()
	// Only haves the repository holds: go-git's pack walk fails on a
	// missing one, and the first of them is the one to acknowledge.
	known := req.Haves[:0]
	for i, h := range req.Haves {
		if i%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if st.HasEncodedObject(h) == nil {
			known = append(known, h)
		}
	}
	req.Haves = known
	if depth > 0 || len(req.Shallows) > 0 || req.Capabilities.Supports(capability.Shallow) {
		return a.shallowUploadPack(ctx, out, g, req, depth, done, negotiating)
	}
	if !done {
		e := pktline.NewEncoder(out)
		if len(known) > 0 {
			return e.Encodef("ACK %s\n", known[0])
		}
		return e.Encodef("NAK\n")
	}
	srv := server.NewServer(fixedLoader{st})
	sess, err := srv.NewUploadPackSession(gitEndpoint(), nil)
	if err != nil {
		return err
	}
	resp, err := sess.UploadPack(ctx, req)
	if err != nil {
		return err
	}
	resp.ServerResponse.ACKs = known[:min(1, len(known))]
	return resp.Encode(out)
}

// readHaves reads "have" lines up to a flush or "done", at most maxHaves;
// negotiating reports that the request had a have section at all (a
// shallow client's first request has none).
func readHaves(r io.Reader, h *packp.UploadHaves) (done, negotiating bool, err error) {
	sc := pktline.NewScanner(r)
	for sc.Scan() {
		negotiating = true
		line := bytes.TrimSpace(sc.Bytes())
		switch {
		case len(line) == 0:
			// A flush ends a round; "done" may still follow.
		case bytes.Equal(line, []byte("done")):
			return true, true, nil
		case bytes.HasPrefix(line, []byte("have ")):
			if len(h.Haves) == maxHaves {
				return false, true, fmt.Errorf("more than %d have lines", maxHaves)
			}
			h.Haves = append(h.Haves, plumbing.NewHash(string(line[5:])))
		default:
			return false, true, fmt.Errorf("unexpected line %q", line)
		}
	}
	return false, negotiating, sc.Err()
}

// maxPush bounds a push's request body (git's pack included), as read
// into its spool before the repository is locked.
const maxPush = 2 << 30

// A gzip-encoded push inflates to at most maxInflation times the bytes
// received, plus inflationSlack: git gzips a push's request only when it
// fits its http.postBuffer, and a pack is compressed already, so git's
// own requests hardly grow (a 1 MiB push grows by under 1%); a gzip
// bomb of 2 MB that would inflate to 2 GiB stops past 21 MB.
const (
	maxInflation   = 10
	inflationSlack = 1 << 20
)

var errInflated = fmt.Errorf("the gzip-encoded push inflates to more than %d times its size: send it without Content-Encoding", maxInflation)

// pushBody is a push's request body, inflated if it is gzip-encoded,
// within maxInflation.
func pushBody(r *http.Request) (io.Reader, error) {
	if r.Header.Get("Content-Encoding") != "gzip" {
		return r.Body, nil
	}
	in := &countingReader{r: r.Body}
	z, err := gzip.NewReader(in)
	if err != nil {
		return nil, err
	}
	return &inflationBound{in: in, z: z}, nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// inflationBound reads z, which inflates in, until it has given more
// than maxInflation times what in gave, plus inflationSlack.
type inflationBound struct {
	in  *countingReader
	z   io.Reader
	out int64
}

func (b *inflationBound) Read(p []byte) (int, error) {
	n, err := b.z.Read(p)
	b.out += int64(n)
	if b.out > inflationSlack+maxInflation*b.in.n {
		return 0, errInflated
	}
	return n, err
}

func (a *API) receivePack(w http.ResponseWriter, r *http.Request, g *gitstore.Repo, x access, s *session) error {
	raw, err := pushBody(r)
	if err != nil {
		return errInvalid("%v", err)
	}
	// The whole request is read before the repository is locked: a push
	// that stalls mid-way must not hold up every reader. What pushes
	// spool is bounded per push (maxPush, maxInflation) and for all of
	// them at once (Config.PushSpool).
	in := gitstore.Spool{Budget: a.pushes}
	defer in.Close()
	if err := spoolPush(&in, raw); err != nil {
		return err
	}
	sr := in.Section(0)
	const resultType = "application/x-git-receive-pack-result"
	if isProbe(sr, in.Size()) {
		// Before a push larger than http.postBuffer git sends a lone
		// flush to learn whether the server takes requests at all;
		// receive-pack reads no command from it and answers nothing.
		writeGitAnswer(w, resultType, nil)
		return nil
	}
	body, shallow, err := stripShallow(sr)
	if err != nil {
		return errInvalid("malformed receive-pack request: %v", err)
	}
	req := packp.NewReferenceUpdateRequest()
	if err := req.Decode(body); err != nil {
		return errInvalid("malformed receive-pack request: %v", err)
	}
	// The commands are read with exact reads: the pack starts where they
	// stopped, and is read from the spool where it lies.
	var pack *io.SectionReader
	if off, err := sr.Seek(0, io.SeekCurrent); err == nil && needsPack(req.Commands) {
		pack = in.Section(off)
	}
	report, done, err := receiveLocked(g, req, pack, shallow)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if req.Capabilities.Supports(capability.ReportStatus) {
		report.Encode(&out)
	}
	if len(done) > 0 {
		a.afterPush(x, g, s, done)
	}
	writeGitAnswer(w, resultType, out.Bytes())
	return nil
}

// spoolPush reads a push's request into in, within maxPush. What the
// client sent wrong or too much is its error; a spool that fails to be
// written (its temporary file) is the server's.
func spoolPush(in *gitstore.Spool, raw io.Reader) error {
	src := &readErrors{r: raw}
	_, err := io.Copy(in, io.LimitReader(src, maxPush+1))
	var full *gitstore.BudgetError
	switch {
	case errors.As(err, &full):
		return errBusy(10*time.Second, "the server is receiving %d MiB of pushes at once, its bound (--max-push-spool): push again in a moment", full.Limit>>20)
	case errors.Is(err, errInflated):
		return errTooLarge("reading the push: %v", err)
	case err != nil && err == src.err:
		return errBody("the push", err)
	case err != nil:
		return fmt.Errorf("spooling the push: %w", err)
	case in.Size() > maxPush:
		return errTooLarge("push over %d GiB: push in parts", maxPush>>30)
	}
	return nil
}

// readErrors keeps the error its reader returned, to tell it from the
// writer's in an io.Copy.
type readErrors struct {
	r   io.Reader
	err error
}

func (e *readErrors) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

// needsPack reports whether a push carries a pack: git sends none when
// every command deletes.
func needsPack(cmds []*packp.Command) bool {
	for _, c := range cmds {
		if c.Action() != packp.Delete {
			return true
		}
	}
	return false
}

// receiveLocked applies a spooled push under the write lock: the report
// for git, and the commands done. An error is an answer to give instead
// of the report.
func receiveLocked(g *gitstore.Repo, req *packp.ReferenceUpdateRequest, pack *io.SectionReader, shallow []plumbing.Hash) (*packp.ReportStatus, []*packp.Command, error) {
	g.Lock()
	defer g.Unlock()
	for _, h := range shallow {
		// Its parents would be missing here, as git's own server
		// refuses by default (receive.shallowUpdate).
		if g.Storer().HasEncodedObject(h) != nil {
			return nil, nil, errInvalid("pushing from a shallow clone whose boundary commit %s this repository lacks: run git fetch --unshallow first", h)
		}
	}
	refErrs, unpackErr := g.Receive(req.Commands, pack)
	rs := packp.NewReportStatus()
	rs.UnpackStatus = "ok"
	if unpackErr != nil {
		rs.UnpackStatus = unpackErr.Error()
	}
	var done []*packp.Command
	for _, c := range req.Commands {
		msg := "ok"
		switch err := refErrs[c.Name]; {
		case unpackErr != nil:
			msg = "unpacker error"
		case err != nil:
			msg = err.Error()
		default:
			done = append(done, c)
		}
		rs.CommandStatuses = append(rs.CommandStatuses, &packp.CommandStatus{ReferenceName: c.Name, Status: msg})
	}
	return rs, done, nil
}

// isProbe reports whether the request is git's probe: a flush-pkt and
// nothing after it.
func isProbe(r io.ReaderAt, size int64) bool {
	var p [4]byte
	n, _ := r.ReadAt(p[:], 0)
	return size == 4 && n == 4 && string(p[:]) == "0000"
}

// stripShallow takes the "shallow" lines a push from a shallow clone
// starts with (go-git's decoder takes at most one) off body.
func stripShallow(body io.Reader) (io.Reader, []plumbing.Hash, error) {
	var shallow []plumbing.Hash
	for {
		var head [4]byte
		if _, err := io.ReadFull(body, head[:]); err != nil {
			return nil, nil, err
		}
		n, err := strconv.ParseUint(string(head[:]), 16, 16)
		if err != nil {
			return nil, nil, fmt.Errorf("bad pkt-line length %q", head[:])
		}
		if n < 4 {
			return io.MultiReader(bytes.NewReader(head[:]), body), shallow, nil
		}
		line := make([]byte, n-4)
		if _, err := io.ReadFull(body, line); err != nil {
			return nil, nil, err
		}
		rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("shallow "))
		if !ok {
			return io.MultiReader(bytes.NewReader(head[:]), bytes.NewReader(line), body), shallow, nil
		}
		if len(rest) != 40 || strings.Trim(string(rest), "0123456789abcdef") != "" {
			return nil, nil, fmt.Errorf("bad shallow line %q", line)
		}
		if len(shallow) == maxHaves {
			return nil, nil, fmt.Errorf("more than %d shallow lines", maxHaves)
		}
		shallow = append(shallow, plumbing.NewHash(string(rest)))
	}
}

// afterPush records the push and starts a workflow run per updated
// branch.
func (a *API) afterPush(x access, g *gitstore.Repo, s *session, cmds []*packp.Command) {
	a.st.TouchRepo(x.repo.ID)
	// A first push to an empty repository whose default branch it did not
	// create makes the pushed branch the default one.
	if g.Head(x.repo.DefaultBranch) == "" {
		for _, c := range cmds {
			if c.Name.IsBranch() && c.Action() != packp.Delete {
				b := c.Name.Short()
				if err := g.SetHead(b); err == nil {
					a.st.UpdateRepo(x.repo.ID, store.RepoPatch{DefaultBranch: &b})
				}
				break
			}
		}
	}
	for _, c := range cmds {
		if !c.Name.IsBranch() || c.Action() == packp.Delete {
			continue
		}
		msg := g.Message(c.New.String())
		if strings.Contains(msg, "[skip ci]") || strings.Contains(msg, "[ci skip]") {
			continue
		}
		plan := ci.DefaultPlan()
		if strings.Contains(msg, "[ci fail]") {
			plan.FailJob, plan.FailStep = 2, 2
		}
		title := strings.TrimSpace(strings.SplitN(msg, "\n", 2)[0])
		if title == "" {
			title = "Push to " + c.Name.Short()
		}
		a.st.CreateRun(x.repo.ID, store.Run{Name: "CI", Title: title, Event: "push", Branch: c.Name.Short(),
			SHA: c.New.String(), Actor: s.user.Login, Plan: plan, Clock: ci.Clock{Origin: a.cfg.Now(), Tick: a.cfg.CITick}})
	}
	if a.cfg.OnPush != nil {
		if repo, ok := a.st.RepoByID(x.repo.ID); ok {
			a.cfg.OnPush(repo)
		}
	}
}
