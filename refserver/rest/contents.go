package rest

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"time"
)

type entryJSON struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Type    string `json:"type"`
	Size    int64  `json:"size"`
	SHA     string `json:"sha"`
	HTMLURL string `json:"html_url"`
}

type fileJSON struct {
	entryJSON
	Encoding string `json:"encoding"`
	Content  string `json:"content"`
}

// getContents: GET /repos/{owner}/{repo}/contents/{path}?ref= lists a
// directory or returns a file with its base64 content.
func (a *API) getContents(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	g, err := a.gitRepo(x)
	if err != nil {
		return err
	}
	ref := r.URL.Query().Get("ref")
	p := r.PathValue("path")
	entries, file, err := g.Contents(ref, p)
	if err != nil {
		what := "path " + p
		if ref != "" {
			what += " at ref " + ref
		}
		return gitError(err, x, what)
	}
	at := ref
	if at == "" {
		at = x.repo.DefaultBranch
	}
	base := origin(r) + "/" + x.repo.FullName() + "/blob/" + url.PathEscape(at) + "/"
	if file != nil {
		writeJSON(w, http.StatusOK, fileJSON{
			entryJSON: entryJSON{Name: file.Name, Path: file.Path, Type: file.Type, Size: file.Size, SHA: file.SHA, HTMLURL: base + file.Path},
			Encoding:  "base64", Content: base64.StdEncoding.EncodeToString(file.Content)})
		return nil
	}
	out := make([]entryJSON, 0, len(entries))
	for _, e := range entries {
		out = append(out, entryJSON{Name: e.Name, Path: e.Path, Type: e.Type, Size: e.Size, SHA: e.SHA, HTMLURL: base + e.Path})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
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
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	g, err := a.gitRepo(x)
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
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	g, err := a.gitRepo(x)
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
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	g, err := a.gitRepo(x)
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
