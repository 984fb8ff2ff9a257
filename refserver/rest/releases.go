package rest

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver/gitstore"
	"github.com/forgehq/forge/refserver/store"
)

func (a *API) releaseRoutes() {
	a.handle("GET /repos/{owner}/{repo}/releases", a.listReleases)
	a.handle("POST /repos/{owner}/{repo}/releases", a.createRelease)
	a.handle("GET /repos/{owner}/{repo}/releases/{id}", a.getRelease)
}

type releaseJSON struct {
	ID          int64      `json:"id"`
	TagName     string     `json:"tag_name"`
	Target      string     `json:"target_commitish"`
	Name        string     `json:"name"`
	Body        string     `json:"body"`
	Draft       bool       `json:"draft"`
	Prerelease  bool       `json:"prerelease"`
	Author      loginJSON  `json:"author"`
	CreatedAt   time.Time  `json:"created_at"`
	PublishedAt *time.Time `json:"published_at"`
	HTMLURL     string     `json:"html_url"`
}

func releaseView(r *http.Request, x access, rel store.Release) releaseJSON {
	return releaseJSON{ID: rel.ID, TagName: rel.TagName, Target: rel.Target, Name: rel.Name, Body: rel.Body, Draft: rel.Draft,
		Prerelease: rel.Prerelease, Author: loginJSON{rel.Author, rel.AuthorID}, CreatedAt: rel.CreatedAt, PublishedAt: rel.PublishedAt,
		HTMLURL: origin(r) + "/" + x.repo.FullName() + "/releases/tag/" + url.PathEscape(rel.TagName)}
}

// listReleases: GET /repos/{owner}/{repo}/releases, newest first. Drafts
// are listed only to those with write permission.
func (a *API) listReleases(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	var out []releaseJSON
	for _, rel := range a.st.Releases(x.repo.ID) {
		if rel.Draft && !x.canWrite() {
			continue
		}
		out = append(out, releaseView(r, x, rel))
	}
	page, err := paginate(w, r, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

// getRelease: GET /repos/{owner}/{repo}/releases/{id}.
func (a *API) getRelease(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	id, err := pathInt(r, "id")
	if err != nil {
		return err
	}
	rel, ok := a.st.ReleaseByID(x.repo.ID, id)
	if !ok || rel.Draft && !x.canWrite() {
		return errNotFound("release %d not found in %s", id, x.repo.FullName())
	}
	writeJSON(w, http.StatusOK, releaseView(r, x, rel))
	return nil
}

// createRelease: POST /repos/{owner}/{repo}/releases {tag_name, name,
// body, draft, prerelease, target_commitish}; needs write permission. The
// tag is created at target_commitish (default: the default branch) when
// it does not exist yet.
func (a *API) createRelease(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	var in struct {
		TagName    *string `json:"tag_name"`
		Target     *string `json:"target_commitish"`
		Name       *string `json:"name"`
		Body       *string `json:"body"`
		Draft      *bool   `json:"draft"`
		Prerelease *bool   `json:"prerelease"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if err := required("tag_name", in.TagName); err != nil {
		return err
	}
	tag := strings.TrimSpace(*in.TagName)
	if p := gitstore.RefNameProblem("refs/tags/" + tag); p != "" {
		return errInvalid("tag_name %q is not a valid git tag name: %s", tag, p)
	}
	if err := x.needWrite("creating a release"); err != nil {
		return err
	}
	target := x.repo.DefaultBranch
	if in.Target != nil && *in.Target != "" {
		target = *in.Target
	}
	g, err := a.gitRepo(x)
	if err != nil {
		return err
	}
	if err := g.EnsureTag(tag, target); err != nil {
		return gitError(err, x, "target_commitish "+target)
	}
	name := deref(in.Name)
	if name == "" {
		name = tag
	}
	rel, err := a.st.CreateRelease(x.repo.ID, store.Release{TagName: tag, Target: target, Name: name, Body: deref(in.Body),
		Draft: in.Draft != nil && *in.Draft, Prerelease: in.Prerelease != nil && *in.Prerelease, AuthorID: s.user.ID, Author: s.user.Login})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, releaseView(r, x, rel))
	return nil
}
