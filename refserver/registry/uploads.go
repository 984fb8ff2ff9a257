package registry

import (
	"crypto/rand"
	"encoding"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// UploadTTL is how long an upload may sit without a request before it is
// dropped and its file deleted.
const UploadTTL = time.Hour

// MaxUploads is how many uploads in progress one user may hold by default:
// a client pushing an image in parallel needs a few.
const MaxUploads = 64

// errTooManyUploads is start's error when the user holds MaxUploads.
var errTooManyUploads = errors.New("too many uploads in progress")

// upload is a blob upload in progress: a file under uploads/ that grows
// with each PATCH, and the sha256 of what it holds so far, so completing it
// needs no second read. Its mutex serialises the requests of one upload.
type upload struct {
	mu      sync.Mutex
	id      string
	repo    string
	user    string
	path    string
	disk    *disk
	size    int64
	sha     hash.Hash
	touched time.Time
	gone    bool // completed, cancelled or expired
}

// uploads are the uploads in progress, by id.
type uploads struct {
	mu   sync.Mutex
	dir  string
	disk *disk
	m    map[string]*upload
}

func newUploads(dir string, d *disk) (*uploads, error) {
	// Uploads do not survive a restart (clients start over); whatever an
	// earlier run left is space to reclaim.
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &uploads{dir: dir, disk: d, m: map[string]*upload{}}, nil
}

// start opens an upload of repo for user, unless user holds max already.
// Counting the user's uploads and adding the new one are one step, so a
// burst of POSTs cannot pass the bound; the file is created after, outside
// the lock, and the upload forgotten again if that fails.
func (us *uploads) start(repo, user string, max int, now time.Time) (*upload, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	id := hex.EncodeToString(b)
	path := filepath.Join(us.dir, id)
	u := &upload{id: id, repo: repo, user: user, path: path, disk: us.disk, sha: newHash("sha256"), touched: now}
	us.mu.Lock()
	held := 0
	for _, o := range us.m {
		if o.user == user {
			held++
		}
	}
	if held < max {
		us.m[id] = u
	}
	us.mu.Unlock()
	if held >= max {
		return nil, fmt.Errorf("%w: %s holds %d, the most allowed; finish or cancel one (DELETE its URL), or wait for abandoned ones to expire", errTooManyUploads, user, held)
	}
	if err := us.create(path); err != nil {
		us.mu.Lock()
		delete(us.m, id)
		us.mu.Unlock()
		return nil, err
	}
	return u, nil
}

// create makes an upload's empty file.
func (us *uploads) create(path string) error {
	if err := us.disk.fault("create", path); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// get finds an upload of repo and locks it; nil when there is none.
func (us *uploads) get(repo, id string) *upload {
	us.mu.Lock()
	u := us.m[id]
	us.mu.Unlock()
	if u == nil || u.repo != repo {
		return nil
	}
	u.mu.Lock()
	if u.gone {
		u.mu.Unlock()
		return nil
	}
	return u
}

// drop forgets an upload the caller holds locked and deletes its file.
func (us *uploads) drop(u *upload) {
	u.gone = true
	os.Remove(u.path)
	us.mu.Lock()
	delete(us.m, u.id)
	us.mu.Unlock()
}

// expire drops the uploads untouched since before cutoff, and returns how
// many. An upload busy with a request is skipped: it is not abandoned.
func (us *uploads) expire(cutoff time.Time) int {
	us.mu.Lock()
	list := make([]*upload, 0, len(us.m))
	for _, u := range us.m {
		list = append(list, u)
	}
	us.mu.Unlock()
	n := 0
	for _, u := range list {
		if !u.mu.TryLock() {
			continue
		}
		if !u.gone && u.touched.Before(cutoff) {
			us.drop(u)
			n++
		}
		u.mu.Unlock()
	}
	return n
}

// dropAll drops every upload not busy with a request. It does not wait for
// a busy one: a client still sending after the server's shutdown gave up
// could hold Close for ever. Its file is in uploads/, which the next start
// empties (or Close removes with the temporary directory).
func (us *uploads) dropAll() { us.expire(time.Now().Add(100 * 365 * 24 * time.Hour)) }

// count is how many uploads are in progress.
func (us *uploads) count() int {
	us.mu.Lock()
	defer us.mu.Unlock()
	return len(us.m)
}

var errShortBody = errors.New("the request body ended before its Content-Length")

// bodyError is a failure to read the client's chunk (it ended early, or
// broke off), as opposed to a failure to store it.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

// bodyReader marks its read errors as the client's.
type bodyReader struct{ r io.Reader }

func (b bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		err = &bodyError{err}
	}
	return n, err
}

// appendFrom adds body to the upload, hashing as it writes. When the body
// breaks off (a *bodyError, the client's doing) the bytes that arrived are
// kept, for the client to resume after them; when storing fails (any other
// error) the upload is put back as it was, so the client may send the chunk
// again.
func (u *upload) appendFrom(body io.Reader, want int64) error {
	saved, err := u.sha.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return err
	}
	if err := u.disk.fault("append", u.path); err != nil {
		return err
	}
	f, err := os.OpenFile(u.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	n, err := io.Copy(io.MultiWriter(f, u.sha), bodyReader{body})
	if err == nil && want >= 0 && n != want {
		err = &bodyError{errShortBody}
	}
	var be *bodyError
	if errors.As(err, &be) {
		// The client broke off (Ctrl-C, a lost connection, a body too
		// slow): what arrived is kept, as distribution keeps it, and the
		// upload's Range says where to resume.
		f.Close()
		u.size += n
		return err
	}
	if err != nil {
		f.Truncate(u.size)
		f.Close()
		u.sha.(encoding.BinaryUnmarshaler).UnmarshalBinary(saved)
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	u.size += n
	return nil
}

// digest is the digest of what the upload holds, with alg.
func (u *upload) digest(alg string) (string, error) {
	if alg == "sha256" {
		return "sha256:" + hex.EncodeToString(u.sha.Sum(nil)), nil
	}
	return fileDigest(u.path, alg)
}

// location is the upload's URL, for the Location header.
func (u *upload) location() string { return "/v2/" + u.repo + "/blobs/uploads/" + u.id }

// progress sets the headers that say where an upload stands.
func (u *upload) progress(h http.Header) {
	h.Set("Location", u.location())
	h.Set("Docker-Upload-UUID", u.id)
	last := u.size - 1
	if last < 0 {
		// What distribution answers for an empty upload; clients read it
		// as "nothing yet".
		last = 0
	}
	h.Set("Range", fmt.Sprintf("0-%d", last))
}

// contentRange reads a chunk's Content-Range, "START-END" (as the
// distribution specification writes it) or "bytes START-END"; ok is false
// when there is none.
func contentRange(req *http.Request) (start, end int64, ok bool, err error) {
	v := strings.TrimSpace(req.Header.Get("Content-Range"))
	if v == "" {
		return 0, 0, false, nil
	}
	v = strings.TrimPrefix(v, "bytes ")
	v, _, _ = strings.Cut(v, "/")
	a, b, found := strings.Cut(v, "-")
	start, err1 := strconv.ParseInt(a, 10, 64)
	end, err2 := strconv.ParseInt(b, 10, 64)
	if !found || err1 != nil || err2 != nil || start < 0 || end < start {
		return 0, 0, false, fmt.Errorf("malformed Content-Range %q: want START-END", req.Header.Get("Content-Range"))
	}
	return start, end, true, nil
}
