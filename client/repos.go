package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strings"
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
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return RepoName{}, fmt.Errorf("repository %q is not OWNER/NAME, as in alice/demo", s)
	}
	return RepoName{Owner: owner, Name: name}, nil
}

func (r RepoName) String() string { return r.Owner + "/" + r.Name }

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
	var segs []string
	for _, p := range strings.Split(strings.Trim(path, "/"), "/") {
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
	p = withQuery(p, q)
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
