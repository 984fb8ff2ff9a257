package rest

import (
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver/gitstore"
)

type entryJSON struct {
	Name        string `json:"name"`
	Path        string `json:"path"`
	Type        string `json:"type"`
	Size        int64  `json:"size"`
	SHA         string `json:"sha"`
	HTMLURL     string `json:"html_url"`
	DownloadURL string `json:"download_url,omitempty"`
}

type fileJSON struct {
	entryJSON
	Encoding string `json:"encoding"`
	Content  string `json:"content"`
}

// MaxInline is the largest file the contents endpoint returns inline
// (base64 in JSON, as GitHub's 1 MB rule): a larger one is a 403 that
// points at the raw download, which streams any size.
const MaxInline = 1 << 20

// Raw media types: with one of them in Accept, the contents endpoint
// answers a file's bytes (as GitHub's application/vnd.github.raw does).
var rawTypes = []string{"application/vnd.forge.raw", "application/vnd.github.raw", "application/vnd.github.v3.raw"}

// IsRaw reports whether r asks for a file's raw bytes: GET
// {Prefix}/repos/{owner}/{repo}/raw/{path}, or the contents endpoint with
// a raw media type in Accept.
func IsRaw(r *http.Request) bool {
	rest, ok := strings.CutPrefix(r.URL.Path, Prefix+"/repos/")
	if !ok {
		return false
	}
	parts := strings.SplitN(rest, "/", 4)
	if len(parts) < 3 {
		return false
	}
	switch parts[2] {
	case "raw":
		return true
	case "contents":
		accept := r.Header.Get("Accept")
		for _, t := range rawTypes {
			if strings.Contains(accept, t) {
				return true
			}
		}
	}
	return false
}

// getContents: GET /repos/{owner}/{repo}/contents/{path}?ref= lists a
// directory or returns a file with its base64 content, up to MaxInline;
// with a raw media type in Accept it is getRaw.
func (a *API) getContents(w http.ResponseWriter, r *http.Request, s *session) error {
	if IsRaw(r) {
		return a.getRaw(w, r, s)
	}
	x, g, err := a.repoGit(r, s)
	if err != nil {
		return err
	}
	ref := r.URL.Query().Get("ref")
	p := r.PathValue("path")
	entries, file, err := g.Contents(ref, p, MaxInline)
	if err != nil {
		return gitError(err, x, pathAt(p, ref))
	}
	at := ref
	if at == "" {
		at = x.repo.DefaultBranch
	}
	view := func(e gitstore.Entry) entryJSON {
		v := entryJSON{Name: e.Name, Path: e.Path, Type: e.Type, Size: e.Size, SHA: e.SHA,
			HTMLURL: origin(r) + "/" + x.repo.FullName() + "/blob/" + url.PathEscape(at) + "/" + e.Path}
		if e.Type == "file" || e.Type == "symlink" {
			v.DownloadURL = origin(r) + Prefix + "/repos/" + x.repo.FullName() + "/raw/" + escapePath(e.Path) + "?ref=" + url.QueryEscape(at)
		}
		return v
	}
	if file != nil {
		if file.Content == nil && file.Type != "submodule" {
			return errForbidden("%s is %d bytes, over the %d-byte (1 MiB) limit of inline content: download it raw from %s, or with Accept: %s",
				file.Path, file.Size, MaxInline, view(file.Entry).DownloadURL, rawTypes[0])
		}
		writeJSON(w, http.StatusOK, fileJSON{entryJSON: view(file.Entry), Encoding: "base64",
			Content: base64.StdEncoding.EncodeToString(file.Content)})
		return nil
	}
	out := make([]entryJSON, 0, len(entries))
	for _, e := range entries {
		out = append(out, view(e))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// getRaw: GET /repos/{owner}/{repo}/raw/{path}?ref= answers a file's
// bytes (application/octet-stream), whatever their size. The content is
// copied under the repository's read lock into a spool (a temporary file
// past 1 MiB) and sent from there once the lock is released, so memory
// does not grow with the file and a slow reader holds up no push.
func (a *API) getRaw(w http.ResponseWriter, r *http.Request, s *session) error {
	x, g, err := a.repoGit(r, s)
	if err != nil {
		return err
	}
	ref := r.URL.Query().Get("ref")
	p := r.PathValue("path")
	var out gitstore.Spool
	defer out.Close()
	e, err := g.ReadFile(ref, p, &out)
	if err != nil {
		if errors.Is(err, gitstore.ErrNotFound) {
			return errNotFound("file %s not found in %s (a directory has no raw content)", pathAt(p, ref), x.repo.FullName())
		}
		return gitError(err, x, pathAt(p, ref))
	}
	rd, err := out.Reader()
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Length", strconv.FormatInt(out.Size(), 10))
	h.Set("ETag", `"`+e.SHA+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
	io.Copy(w, rd) // a 200, also when the file is empty
	return nil
}

// repoGit is the repository of the request, if the caller may see it,
// and its git data.
func (a *API) repoGit(r *http.Request, s *session) (access, *gitstore.Repo, error) {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return access{}, nil, err
	}
	g, err := a.gitRepo(x)
	return x, g, err
}

// pathAt names a path and the ref it was read at, for errors.
func pathAt(p, ref string) string {
	what := "path " + p
	if ref != "" {
		what += " at ref " + ref
	}
	return what
}

// escapePath escapes each segment of a repository path for a URL.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

type sigJSON struct {
	Name  string    `json:"name"`
	Email string    `json:"email"`
	Date  time.Time `json:"date"`
}

type commitJSON struct {
	SHA    string `json:"sha"`
	Commit struct {
		Message   string  `json:"message"`
		Author    sigJSON `json:"author"`
		Committer sigJSON `json:"committer"`
	} `json:"commit"`
	Parents []struct {
		SHA string `json:"sha"`
	} `json:"parents"`
	HTMLURL string `json:"html_url"`
	// Files is GET .../commits/{sha}'s only (GitHub's shape): the files the
	// commit changed, up to gitstore.MaxChangedFiles.
	Files []fileChangeJSON `json:"files,omitempty"`
}

// fileChangeJSON is one changed file; the line counts are left out when
// the server did not count them (binary, or past its diff budget).
type fileChangeJSON struct {
	Filename  string `json:"filename"`
	Status    string `json:"status"`
	Additions *int   `json:"additions,omitempty"`
	Deletions *int   `json:"deletions,omitempty"`
}

// maxLog bounds the history a commit list pages through.
const maxLog = 10000

// listCommits: GET /repos/{owner}/{repo}/commits?sha=&path= lists the
// latest commits, newest first. An empty repository has none.
func (a *API) listCommits(w http.ResponseWriter, r *http.Request, s *session) error {
	x, g, err := a.repoGit(r, s)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	log, err := g.Log(q.Get("sha"), q.Get("path"), maxLog)
	if err != nil && !(q.Get("sha") == "" && g.Empty()) {
		return gitError(err, x, "ref "+q.Get("sha"))
	}
	out := make([]commitJSON, 0, len(log))
	for _, c := range log {
		out = append(out, a.commitView(r, x, c.SHA, c.Message, c.Author.Name, c.Author.Email, c.Author.When,
			c.Committer.Name, c.Committer.Email, c.Committer.When, c.Parents))
	}
	page, err := paginate(w, r, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

func (a *API) commitView(r *http.Request, x access, sha, msg, an, ae string, ad time.Time, cn, ce string, cd time.Time, parents []string) commitJSON {
	var c commitJSON
	c.SHA = sha
	c.Commit.Message = msg
	c.Commit.Author = sigJSON{an, ae, ad.UTC()}
	c.Commit.Committer = sigJSON{cn, ce, cd.UTC()}
	c.Parents = make([]struct {
		SHA string `json:"sha"`
	}, len(parents))
	for i, p := range parents {
		c.Parents[i].SHA = p
	}
	c.HTMLURL = origin(r) + "/" + x.repo.FullName() + "/commit/" + sha
	return c
}

// getCommit: GET /repos/{owner}/{repo}/commits/{sha} (a hash or a ref).
func (a *API) getCommit(w http.ResponseWriter, r *http.Request, s *session) error {
	x, g, err := a.repoGit(r, s)
	if err != nil {
		return err
	}
	log, err := g.Log(r.PathValue("sha"), "", 1)
	if err != nil || len(log) == 0 {
		return gitError(errOr(err), x, "commit "+r.PathValue("sha"))
	}
	c := log[0]
	view := a.commitView(r, x, c.SHA, c.Message, c.Author.Name, c.Author.Email, c.Author.When,
		c.Committer.Name, c.Committer.Email, c.Committer.When, c.Parents)
	changes, _, err := g.Changes(r.Context(), c.SHA)
	if err != nil {
		return err
	}
	view.Files = make([]fileChangeJSON, len(changes))
	for i, ch := range changes {
		view.Files[i] = fileChangeJSON{ch.Path, ch.Status, ch.Additions, ch.Deletions}
	}
	writeJSON(w, http.StatusOK, view)
	return nil
}

// listBranches: GET /repos/{owner}/{repo}/branches.
func (a *API) listBranches(w http.ResponseWriter, r *http.Request, s *session) error {
	_, g, err := a.repoGit(r, s)
	if err != nil {
		return err
	}
	type branchJSON struct {
		Name   string `json:"name"`
		Commit struct {
			SHA string `json:"sha"`
		} `json:"commit"`
	}
	out := []branchJSON{}
	for _, b := range g.Branches() {
		var bj branchJSON
		bj.Name, bj.Commit.SHA = b[0], b[1]
		out = append(out, bj)
	}
	page, err := paginate(w, r, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}
