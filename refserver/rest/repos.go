package rest

import (
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/forgehq/forge/refserver/gitstore"
	"github.com/forgehq/forge/refserver/store"
)

func (a *API) repoRoutes() {
	a.handle("GET /repos", a.listRepos)
	a.handle("POST /repos", a.createRepo)
	a.handle("GET /repos/{owner}/{repo}", a.getRepo)
	a.handle("PATCH /repos/{owner}/{repo}", a.patchRepo)
	a.handle("DELETE /repos/{owner}/{repo}", a.deleteRepo)
	a.handle("GET /repos/{owner}/{repo}/contents", a.getContents)
	a.handle("GET /repos/{owner}/{repo}/contents/{path...}", a.getContents)
	a.handle("GET /repos/{owner}/{repo}/raw/{path...}", a.getRaw)
	a.handle("GET /repos/{owner}/{repo}/commits", a.listCommits)
	a.handle("GET /repos/{owner}/{repo}/commits/{sha}", a.getCommit)
	a.handle("GET /repos/{owner}/{repo}/branches", a.listBranches)

	a.handle("GET /repos/{owner}/{repo}/collaborators", a.listCollaborators)
	a.handle("POST /repos/{owner}/{repo}/collaborators", a.addCollaborator)
	a.handle("DELETE /repos/{owner}/{repo}/collaborators/{user}", a.removeCollaborator)

	a.issueRoutes()
	a.pullRoutes()
	a.releaseRoutes()
	a.actionRoutes()
}

type ownerJSON struct {
	ID    int64  `json:"id"`
	Login string `json:"login"`
}

type permsJSON struct {
	Admin bool `json:"admin"`
	Push  bool `json:"push"`
	Pull  bool `json:"pull"`
}

type repoJSON struct {
	ID              int64     `json:"id"`
	Name            string    `json:"name"`
	FullName        string    `json:"full_name"`
	Owner           ownerJSON `json:"owner"`
	Description     string    `json:"description"`
	Homepage        string    `json:"homepage"`
	Private         bool      `json:"private"`
	Visibility      string    `json:"visibility"`
	HTMLURL         string    `json:"html_url"`
	CloneURL        string    `json:"clone_url"`
	SSHURL          string    `json:"ssh_url"`
	DefaultBranch   string    `json:"default_branch"`
	OpenIssuesCount int       `json:"open_issues_count"`
	CreatedAt       time.Time `json:"created_at"`
	UpdatedAt       time.Time `json:"updated_at"`
	PushedAt        time.Time `json:"pushed_at"`
	Permissions     permsJSON `json:"permissions"`
}

func (a *API) repoView(r *http.Request, x access) repoJSON {
	repo := x.repo
	o := origin(r)
	host := o
	if u, err := url.Parse(o); err == nil {
		host = u.Hostname()
	}
	vis := "public"
	if repo.Private {
		vis = "private"
	}
	return repoJSON{ID: repo.ID, Name: repo.Name, FullName: repo.FullName(), Owner: ownerJSON{repo.OwnerID, repo.Owner},
		Description: repo.Description, Homepage: repo.Homepage, Private: repo.Private, Visibility: vis,
		HTMLURL: o + "/" + repo.FullName(), CloneURL: o + "/" + repo.FullName() + ".git",
		SSHURL: "git@" + host + ":" + repo.FullName() + ".git", DefaultBranch: repo.DefaultBranch,
		OpenIssuesCount: a.st.OpenIssueCount(repo.ID),
		CreatedAt:       repo.CreatedAt, UpdatedAt: repo.UpdatedAt, PushedAt: repo.PushedAt,
		Permissions: permsJSON{Admin: x.canAdmin(), Push: x.canWrite(), Pull: true}}
}

// listRepos: GET /repos lists the repositories the caller owns or
// collaborates on, most recently updated first.
func (a *API) listRepos(w http.ResponseWriter, r *http.Request, s *session) error {
	repos := a.st.Repos(func(_ *store.Repo, perm string) bool { return perm != "" }, s.user.ID)
	out := make([]repoJSON, 0, len(repos))
	for _, repo := range repos {
		out = append(out, a.repoView(r, access{repo: repo, perm: a.st.Permission(repo.ID, s.user.ID), site: s.user.Role == store.RoleSiteAdmin}))
	}
	page, err := paginate(w, r, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

// createRepo: POST /repos {name, description, private, auto_init}.
func (a *API) createRepo(w http.ResponseWriter, r *http.Request, s *session) error {
	var in struct {
		Name        *string `json:"name"`
		Description *string `json:"description"`
		Private     *bool   `json:"private"`
		AutoInit    *bool   `json:"auto_init"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if in.Name == nil {
		return errInvalid("field name is required")
	}
	if why := store.ValidName(*in.Name); why != "" {
		return errInvalid("%s", why)
	}
	desc := deref(in.Description)
	if len(desc) > 1024 {
		return errInvalid("description must be at most 1024 characters")
	}
	repo, err := a.st.CreateRepo(s.user, *in.Name, desc, in.Private != nil && *in.Private)
	if err != nil {
		return err
	}
	if err := a.initGit(repo, s.user, in.AutoInit != nil && *in.AutoInit); err != nil {
		a.st.DeleteRepo(repo.ID)
		a.git.Remove(repo.ID)
		return err
	}
	repo, _ = a.st.RepoByID(repo.ID)
	writeJSON(w, http.StatusCreated, a.repoView(r, access{repo: repo, perm: store.PermAdmin, site: s.user.Role == store.RoleSiteAdmin}))
	return nil
}

// initGit creates the repository's git data; autoInit makes a first
// commit with a README.md.
func (a *API) initGit(repo store.Repo, author store.User, autoInit bool) error {
	if err := a.git.Init(repo.ID, repo.DefaultBranch); err != nil {
		return err
	}
	if !autoInit {
		return nil
	}
	g, err := a.git.Open(repo.ID)
	if err != nil {
		return err
	}
	readme := "# " + repo.Name + "\n"
	if repo.Description != "" {
		readme += "\n" + repo.Description + "\n"
	}
	name := author.FullName
	if name == "" {
		name = author.Login
	}
	if _, err := g.Commit(repo.DefaultBranch, map[string][]byte{"README.md": []byte(readme)}, "Initial commit\n",
		gitstore.Signature{Name: name, Email: author.Email, When: a.now()}); err != nil {
		return err
	}
	a.st.TouchRepo(repo.ID)
	return nil
}

func (a *API) now() time.Time { return a.cfg.Now().UTC().Truncate(time.Second) }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// getRepo: GET /repos/{owner}/{repo}.
func (a *API) getRepo(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, a.repoView(r, x))
	return nil
}

// patchRepo: PATCH /repos/{owner}/{repo} {description, private, homepage,
// default_branch}.
func (a *API) patchRepo(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	var in struct {
		Description   *string `json:"description"`
		Private       *bool   `json:"private"`
		Homepage      *string `json:"homepage"`
		DefaultBranch *string `json:"default_branch"`
		Name          *string `json:"name"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if err := x.needAdmin("editing a repository"); err != nil {
		return err
	}
	if in.Name != nil && *in.Name != x.repo.Name {
		return errInvalid("renaming a repository is not supported")
	}
	if in.Description != nil && len(*in.Description) > 1024 {
		return errInvalid("description must be at most 1024 characters")
	}
	if in.DefaultBranch != nil {
		g, err := a.git.Open(x.repo.ID)
		if err != nil {
			return err
		}
		if !g.Empty() && g.Head(*in.DefaultBranch) == "" {
			return errInvalid("default_branch %q does not exist", *in.DefaultBranch)
		}
	}
	repo, err := a.st.UpdateRepo(x.repo.ID, store.RepoPatch{Description: in.Description, Private: in.Private,
		Homepage: in.Homepage, DefaultBranch: in.DefaultBranch})
	if err != nil {
		return err
	}
	x.repo = repo
	writeJSON(w, http.StatusOK, a.repoView(r, x))
	return nil
}

// deleteRepo: DELETE /repos/{owner}/{repo}.
func (a *API) deleteRepo(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	if err := x.needAdmin("deleting a repository"); err != nil {
		return err
	}
	if err := a.st.DeleteRepo(x.repo.ID); err != nil {
		return err
	}
	a.git.Remove(x.repo.ID)
	writeJSON(w, http.StatusOK, okBody)
	return nil
}

// gitRepo opens the repository's git data.
func (a *API) gitRepo(x access) (*gitstore.Repo, error) {
	g, err := a.git.Open(x.repo.ID)
	if errors.Is(err, gitstore.ErrNotFound) {
		return nil, errNotFound("repository %s has no git data", x.repo.FullName())
	}
	return g, err
}

func gitError(err error, x access, what string) error {
	switch {
	case errors.Is(err, gitstore.ErrEmpty):
		return errNotFound("repository %s is empty", x.repo.FullName())
	case errors.Is(err, gitstore.ErrNotFound):
		return errNotFound("%s not found in %s", what, x.repo.FullName())
	}
	return err
}

func errOr(err error) error {
	if err == nil {
		return gitstore.ErrNotFound
	}
	return err
}
