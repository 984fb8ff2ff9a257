package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// RepoName names a repository: OWNER/NAME.
type RepoName struct {
	Owner string
	Name  string
}

// ParseRepoName parses "OWNER/NAME".
func ParseRepoName(s string) (RepoName, error) {
	owner, name, ok := strings.Cut(strings.TrimSpace(s), "/")
	name = strings.TrimSuffix(name, ".git")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") || dotSegment(owner) || dotSegment(name) {
		return RepoName{}, fmt.Errorf("repository %q is not OWNER/NAME, as in alice/demo", s)
	}
	return RepoName{Owner: owner, Name: name}, nil
}

func (r RepoName) String() string { return r.Owner + "/" + r.Name }

// dotSegment reports whether a path segment is "." or "..": sent, it
// would lead a request off the repository (to another one, or to
// /admin) once the service resolves it.
func dotSegment(s string) bool { return s == "." || s == ".." }

// ErrDotSegment is the error for a path with a "." or ".." segment.
var ErrDotSegment = errors.New(`a "." or ".." segment would leave the repository: give the path from its top, as docs/guide.md`)

// path is the repository's API path, /repos/OWNER/NAME, plus more
// segments, each escaped.
func (r RepoName) path(more ...string) string {
	var b strings.Builder
	b.WriteString("/repos/" + url.PathEscape(r.Owner) + "/" + url.PathEscape(r.Name))
	for _, m := range more {
		b.WriteString("/" + m)
	}
	return b.String()
}

// Repo is a git repository.
type Repo struct {
	Raw
	ID            int64  `json:"id"`
	Name          string `json:"name"`
	FullName      string `json:"full_name"` // OWNER/NAME
	Description   string `json:"description"`
	Private       bool   `json:"private"`
	HTMLURL       string `json:"html_url"`
	CloneURL      string `json:"clone_url"` // https, ends in .git
	SSHURL        string `json:"ssh_url"`
	DefaultBranch string `json:"default_branch"`
	UpdatedAt     Time   `json:"updated_at"`
	// Not in the spec; GitHub's names, filled when the server sends them.
	Owner     User `json:"owner"`
	CreatedAt Time `json:"created_at"`
	// Permissions are the caller's rights on the repository; nil when the
	// service does not say (then forge offers every action and the
	// service decides).
	Permissions *RepoPermissions `json:"permissions"`
}

// RepoPermissions are GitHub's permissions object: what the caller may do.
type RepoPermissions struct {
	Admin bool `json:"admin"`
	Push  bool `json:"push"` // write: push, edit others' issues
	Pull  bool `json:"pull"`
}

// RepoName returns the repository's OWNER/NAME, from full_name or, when
// that is missing, from owner.login and name.
func (r *Repo) RepoName() RepoName {
	if n, err := ParseRepoName(r.FullName); err == nil {
		return n
	}
	return RepoName{Owner: r.Owner.Login, Name: r.Name}
}

// RepoCreate is the body of POST /repos.
type RepoCreate struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Private     bool   `json:"private"`
	AutoInit    bool   `json:"auto_init,omitempty"`
}

// RepoUpdate is the body of PATCH /repos/{owner}/{repo}; nil fields are
// left as they are. The spec shows description and private; the others
// are GitHub's names, sent only when set.
type RepoUpdate struct {
	Description   *string `json:"description,omitempty"`
	Private       *bool   `json:"private,omitempty"`
	Name          *string `json:"name,omitempty"`
	DefaultBranch *string `json:"default_branch,omitempty"`
}

// Content is a file or directory entry from the contents endpoint. A file
// read on its own also carries its content.
type Content struct {
	Raw
	Name     string `json:"name"`
	Type     string `json:"type"` // "file", "dir", ...
	Path     string `json:"path"`
	Size     int64  `json:"size"`
	Content  string `json:"content"`
	Encoding string `json:"encoding"` // "base64" or empty for text
	// Not in the spec; GitHub's names.
	SHA         string `json:"sha"`
	HTMLURL     string `json:"html_url"`
	DownloadURL string `json:"download_url"`
}

// Inline reports whether a file object carries the file's content. A
// service that will not inline a large file may still answer with the
// object, its content left out: GitHub's encoding "none", or an empty
// content for a file whose size is not 0. Its bytes are then read with
// ReposService.Raw.
func (c *Content) Inline() bool {
	return !strings.EqualFold(c.Encoding, "none") && (c.Content != "" || c.Size <= 0)
}

// Decoded returns the file's bytes, decoding base64 when the server used
// it.
func (c *Content) Decoded() ([]byte, error) {
	switch strings.ToLower(c.Encoding) {
	case "base64":
		clean := strings.NewReplacer("\n", "", "\r", "").Replace(c.Content)
		b, err := base64.StdEncoding.DecodeString(clean)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(clean)
		}
		if err != nil {
			return nil, fmt.Errorf("the content of %s is not valid base64: %w", c.Path, err)
		}
		return b, nil
	case "", "utf-8", "utf8", "text", "none":
		return []byte(c.Content), nil
	}
	return nil, fmt.Errorf("the content of %s has an unknown encoding %q", c.Path, c.Encoding)
}

// Commit is an entry of a repository's history.
type Commit struct {
	Raw
	SHA     string `json:"sha"`
	HTMLURL string `json:"html_url"`
	Commit  struct {
		Message string `json:"message"`
		Author  struct {
			Name  string `json:"name"`
			Email string `json:"email"`
			Date  Time   `json:"date"`
		} `json:"author"`
	} `json:"commit"`
	// Author is the account of the commit's author, when the server knows
	// it (GitHub's name; not in the spec).
	Author User `json:"author"`
}

// Collaborator is a user with access to a repository.
type Collaborator struct {
	Raw
	Login      string `json:"login"`
	Permission string `json:"permission"` // read, write or admin
}

// ReposService covers repositories, their contents, history and
// collaborators.
type ReposService struct{ c *Client }

// List iterates over the caller's repositories (GET /repos).
func (s *ReposService) List(ctx context.Context, opts ListOptions) iter.Seq2[*Repo, error] {
	return list[Repo](s.c, ctx, "/repos", opts.values(nil), opts.Pages)
}

// Create makes a repository owned by the caller (POST /repos).
func (s *ReposService) Create(ctx context.Context, r RepoCreate) (*Repo, error) {
	return sendOne[Repo](s.c, ctx, http.MethodPost, "/repos", r)
}

// Get reads one repository.
func (s *ReposService) Get(ctx context.Context, repo RepoName) (*Repo, error) {
	return getOne[Repo](s.c, ctx, repo.path())
}

// Update changes a repository's settings and returns the result.
func (s *ReposService) Update(ctx context.Context, repo RepoName, u RepoUpdate) (*Repo, error) {
	return sendOne[Repo](s.c, ctx, http.MethodPatch, repo.path(), u)
}

// Delete removes a repository.
func (s *ReposService) Delete(ctx context.Context, repo RepoName) error {
	_, err := s.c.Delete(ctx, repo.path(), nil)
	return err
}

// ContentsOptions select the revision read; the spec shows none, so Ref is
// GitHub's `ref`, sent only when set.
type ContentsOptions struct {
	Ref string
}

// Contents reads a path of a repository: a file (file set, with its
// content) or a directory (dir set, one entry each). An empty path is the
// top directory.
func (s *ReposService) Contents(ctx context.Context, repo RepoName, path string, opts ContentsOptions) (file *Content, dir []*Content, err error) {
	p, err := contentsPath(repo, path, opts)
	if err != nil {
		return nil, nil, err
	}
	var raw []byte
	if _, err := s.c.Get(ctx, p, &raw); err != nil {
		return nil, nil, err
	}
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		items, err := listItems(t)
		if err != nil {
			return nil, nil, &decodeError{method: http.MethodGet, url: s.c.redact(p), err: err}
		}
		for _, it := range items {
			e, err := decodeOne[Content](s.c, http.MethodGet, p, it)
			if err != nil {
				return nil, nil, err
			}
			dir = append(dir, e)
		}
		return nil, dir, nil
	}
	file, err = decodeOne[Content](s.c, http.MethodGet, p, raw)
	return file, nil, err
}

// Stat finds path's entry (type, size, html_url) in its directory's
// listing, without reading a file's content: a file of any size has one.
// It is nil, with no error, when the directory has no such entry.
func (s *ReposService) Stat(ctx context.Context, repo RepoName, path string, opts ContentsOptions) (*Content, error) {
	path = strings.Trim(path, "/")
	parent, name := "", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		parent, name = path[:i], path[i+1:]
	}
	_, dir, err := s.Contents(ctx, repo, parent, opts)
	if err != nil {
		return nil, err
	}
	for _, e := range dir {
		if e.Name == name {
			return e, nil
		}
	}
	return nil, nil
}

// contentsPath is the contents endpoint of path at opts.Ref, each
// segment escaped: the one place a path inside a repository becomes a
// request's, so the one place a "." or ".." segment is refused (before
// any request), as are the repository's own (ParseRepoName).
func contentsPath(repo RepoName, path string, opts ContentsOptions) (string, error) {
	var segs []string
	for _, p := range strings.Split(strings.Trim(path, "/"), "/") {
		if dotSegment(p) || dotSegment(repo.Owner) || dotSegment(repo.Name) {
			return "", fmt.Errorf("path %q: %w", path, ErrDotSegment)
		}
		if p != "" {
			segs = append(segs, url.PathEscape(p))
		}
	}
	p := repo.path("contents")
	if len(segs) > 0 {
		p += "/" + strings.Join(segs, "/")
	}
	q := url.Values{}
	if opts.Ref != "" {
		q.Set("ref", opts.Ref)
	}
	return withQuery(p, q), nil
}

// rawAccept asks the contents endpoint for a file's bytes instead of the
// JSON object: the service's media type, and GitHub's.
const rawAccept = "application/vnd.forge.raw, application/vnd.github.raw"

// RawFile is a file's bytes as a raw read streams them; the caller closes
// it.
type RawFile struct {
	io.ReadCloser
	// Size is the file's length as the answer's Content-Length says, or
	// -1 when it does not.
	Size int64
}

// Raw streams a file's bytes, whatever their size: the contents endpoint
// asked for the raw media type (the service offers the same bytes at
// .../raw/PATH; the contents URL is the one GitHub shares). Nothing is
// held in memory; the client's timeout covers waiting for the headers
// only, the token goes only to the service's origin and redirects are
// followed as for every request.
//
// A service that ignores the media type answers the JSON object again
// (Gitea does): after an answer labelled application/json forge asks
// .../raw/PATH (the reference server's and Gitea's raw download) and
// takes that when it succeeds, else the first answer (a JSON file may be
// labelled so).
func (s *ReposService) Raw(ctx context.Context, repo RepoName, path string, opts ContentsOptions) (*RawFile, error) {
	accept := http.Header{"Accept": {rawAccept}}
	cp, err := contentsPath(repo, path, opts)
	if err != nil {
		return nil, err
	}
	resp, err := s.c.stream(ctx, cp, accept)
	if err != nil {
		return nil, err
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		p := strings.Replace(cp, repo.path("contents"), repo.path("raw"), 1)
		if other, err := s.c.stream(ctx, p, accept); err == nil {
			resp.Body.Close()
			resp = other
		}
	}
	return &RawFile{ReadCloser: resp.Body, Size: resp.ContentLength}, nil
}

// ErrDirectory is what ReadFile answers for a directory.
var ErrDirectory = errors.New("a directory, not a file")

// File is a file opened by OpenFile; the caller closes it.
type File struct {
	io.ReadCloser
	// Entry is the contents endpoint's file object (path, size, html_url),
	// nil when the service refused to answer it (a 403).
	Entry *Content
	// Size is the whole file's length, or -1 when the service did not
	// say.
	Size int64
	// Raw says the bytes come from a raw read: the service would not send
	// them inline.
	Raw bool
}

// OpenFile opens the file at path, whatever its size: a directory gives
// its entries instead. The bytes are the contents endpoint's inline
// content when the service sent it, else a raw read (Raw): after a 403
// (the reference server's answer past its 1 MiB inline limit, GitHub's
// past 1 MB; any wording, since a service need not say why), or for a
// file object without its content. When the raw read after a 403 fails
// too, the error is the 403: it was the first answer, and may be a real
// refusal.
func (s *ReposService) OpenFile(ctx context.Context, repo RepoName, path string, opts ContentsOptions) (*File, []*Content, error) {
	file, dir, err := s.Contents(ctx, repo, path, opts)
	switch {
	case HasStatus(err, http.StatusForbidden):
		raw, rerr := s.Raw(ctx, repo, path, opts)
		if rerr != nil {
			return nil, nil, err
		}
		return &File{ReadCloser: readError{raw, path}, Size: raw.Size, Raw: true}, nil, nil
	case err != nil:
		return nil, nil, err
	case file == nil:
		return nil, dir, nil
	case !file.Inline():
		raw, err := s.Raw(ctx, repo, path, opts)
		if err != nil {
			return nil, nil, fmt.Errorf("the service sent %s (%d bytes) without its content, and reading it raw failed: %w", file.Path, file.Size, err)
		}
		return &File{ReadCloser: readError{raw, path}, Entry: file, Size: file.Size, Raw: true}, nil, nil
	}
	b, err := file.Decoded()
	if err != nil {
		return nil, nil, err
	}
	return &File{ReadCloser: io.NopCloser(bytes.NewReader(b)), Entry: file, Size: int64(len(b))}, nil, nil
}

// readError names the file in a failure of its raw stream (a connection
// lost halfway), which would otherwise say only "unexpected EOF".
type readError struct {
	io.ReadCloser
	path string
}

func (r readError) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("reading %s from the service: %w; the file came cut short", strings.Trim(r.path, "/"), err)
	}
	return n, err
}

// ReadFile reads the first max bytes of the file at path through
// OpenFile (ReadAtMost), and cut says the file has more. A directory is
// an error wrapping ErrDirectory.
func (s *ReposService) ReadFile(ctx context.Context, repo RepoName, path string, opts ContentsOptions, max int64) (f *File, data []byte, cut bool, err error) {
	f, _, err = s.OpenFile(ctx, repo, path, opts)
	if err != nil {
		return nil, nil, false, err
	}
	if f == nil {
		return nil, nil, false, fmt.Errorf("%s is %w", path, ErrDirectory)
	}
	defer f.Close()
	data, cut, err = f.ReadAtMost(max)
	if err != nil {
		return nil, nil, false, err
	}
	return f, data, cut, nil
}

// ReadAtMost reads the file's first max bytes; cut says it has more
// (one byte past max is read to tell).
func (f *File) ReadAtMost(max int64) (data []byte, cut bool, err error) {
	data, err = io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, false, err
	}
	if cut = int64(len(data)) > max; cut {
		data = data[:max]
	}
	return data, cut, nil
}

// BinaryHead is how much of a file Binary judges, as git does.
const BinaryHead = 8000

// Binary guesses as git does whether a file is binary from its first
// BinaryHead bytes: a NUL byte, or bytes that are not UTF-8. whole says b
// is the whole file; otherwise a character cut in two at the end of what
// was read does not count.
func Binary(b []byte, whole bool) bool {
	if len(b) > BinaryHead {
		b, whole = b[:BinaryHead], false
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	if !whole {
		i := len(b) - 1
		for i > 0 && len(b)-i < utf8.UTFMax && !utf8.RuneStart(b[i]) {
			i--
		}
		if i >= 0 && !utf8.FullRune(b[i:]) {
			b = b[:i]
		}
	}
	return !utf8.Valid(b)
}

// Commits iterates over a repository's latest commits.
func (s *ReposService) Commits(ctx context.Context, repo RepoName, opts ListOptions) iter.Seq2[*Commit, error] {
	return list[Commit](s.c, ctx, repo.path("commits"), opts.values(nil), opts.Pages)
}

// Collaborators iterates over the users with access to a repository.
func (s *ReposService) Collaborators(ctx context.Context, repo RepoName, opts ListOptions) iter.Seq2[*Collaborator, error] {
	return list[Collaborator](s.c, ctx, repo.path("collaborators"), opts.values(nil), opts.Pages)
}

// RemoveCollaborator takes a user's access away. The spec does not list
// this endpoint (GitHub's DELETE .../collaborators/{user}).
func (s *ReposService) RemoveCollaborator(ctx context.Context, repo RepoName, username string) error {
	_, err := s.c.Delete(ctx, repo.path("collaborators", url.PathEscape(username)), nil)
	return err
}

// AddCollaborator gives a user access with a permission: read, write or
// admin ("" lets the server pick its default).
func (s *ReposService) AddCollaborator(ctx context.Context, repo RepoName, username, permission string) error {
	body := map[string]string{"username": username}
	if permission != "" {
		body["permission"] = permission
	}
	_, err := s.c.Post(ctx, repo.path("collaborators"), body, nil)
	return err
}
