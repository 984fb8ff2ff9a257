package rest

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver/store"
)

func (a *API) pullRoutes() {
	a.handle("GET /repos/{owner}/{repo}/pulls", a.listPulls)
	a.handle("POST /repos/{owner}/{repo}/pulls", a.createPull)
	a.handle("GET /repos/{owner}/{repo}/pulls/{number}", a.getPull)
}

type branchRefJSON struct {
	Ref   string `json:"ref"`
	SHA   string `json:"sha"`
	Label string `json:"label"`
}

type pullJSON struct {
	ID        int64         `json:"id"`
	Number    int64         `json:"number"`
	Title     string        `json:"title"`
	Body      string        `json:"body"`
	State     string        `json:"state"`
	User      loginJSON     `json:"user"`
	Head      branchRefJSON `json:"head"`
	Base      branchRefJSON `json:"base"`
	Draft     bool          `json:"draft"`
	Merged    bool          `json:"merged"`
	CreatedAt time.Time     `json:"created_at"`
	UpdatedAt time.Time     `json:"updated_at"`
	ClosedAt  *time.Time    `json:"closed_at"`
	MergedAt  *time.Time    `json:"merged_at"`
	HTMLURL   string        `json:"html_url"`
}

func pullView(r *http.Request, x access, p store.Pull) pullJSON {
	return pullJSON{ID: p.ID, Number: p.Number, Title: p.Title, Body: p.Body, State: p.State, User: loginJSON{p.Author, p.AuthorID},
		Head:  branchRefJSON{p.Head, p.HeadSHA, x.repo.Owner + ":" + p.Head},
		Base:  branchRefJSON{p.Base, p.BaseSHA, x.repo.Owner + ":" + p.Base},
		Draft: p.Draft, Merged: p.Merged, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, ClosedAt: p.ClosedAt, MergedAt: p.MergedAt,
		HTMLURL: origin(r) + "/" + x.repo.FullName() + "/pull/" + strconv.FormatInt(p.Number, 10)}
}

// listPulls: GET /repos/{owner}/{repo}/pulls?state=open|closed|all, newest
// first. A merged pull request is closed with merged true.
func (a *API) listPulls(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	st, err := stateFilter(r)
	if err != nil {
		return err
	}
	pulls, err := paginate(w, r, a.st.Pulls(x.repo.ID, st))
	if err != nil {
		return err
	}
	out := make([]pullJSON, len(pulls))
	for k, p := range pulls {
		out[k] = pullView(r, x, p)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// getPull: GET /repos/{owner}/{repo}/pulls/{number}.
func (a *API) getPull(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	n, err := pathInt(r, "number")
	if err != nil {
		return err
	}
	p, ok := a.st.PullByNumber(x.repo.ID, n)
	if !ok {
		return errNotFound("pull request #%d not found in %s", n, x.repo.FullName())
	}
	writeJSON(w, http.StatusOK, pullView(r, x, p))
	return nil
}

// createPull: POST /repos/{owner}/{repo}/pulls {title, head, base, body,
// draft}: head and base are branches of the repository (base defaults to
// the default branch); anyone who may see the repository may open one.
func (a *API) createPull(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	var in struct {
		Title *string `json:"title"`
		Head  *string `json:"head"`
		Base  *string `json:"base"`
		Body  *string `json:"body"`
		Draft *bool   `json:"draft"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if err := checkTitle(in.Title); err != nil {
		return err
	}
	if err := required("head", in.Head); err != nil {
		return err
	}
	base := x.repo.DefaultBranch
	if in.Base != nil && *in.Base != "" {
		base = *in.Base
	}
	// "owner:branch" as GitHub writes it; no forks here.
	head := *in.Head
	if o, b, ok := strings.Cut(head, ":"); ok && strings.EqualFold(o, x.repo.Owner) {
		head = b
	}
	g, err := a.gitRepo(x)
	if err != nil {
		return err
	}
	headSHA, baseSHA := g.Head(head), g.Head(base)
	if headSHA == "" {
		return errInvalid("head branch %q does not exist in %s", head, x.repo.FullName())
	}
	if baseSHA == "" {
		return errInvalid("base branch %q does not exist in %s", base, x.repo.FullName())
	}
	if head == base {
		return errInvalid("head and base are the same branch %q", head)
	}
	p, err := a.st.CreatePull(x.repo.ID, store.Pull{Title: strings.TrimSpace(*in.Title), Body: deref(in.Body),
		AuthorID: s.user.ID, Author: s.user.Login, Head: head, HeadSHA: headSHA, Base: base, BaseSHA: baseSHA,
		Draft: in.Draft != nil && *in.Draft})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, pullView(r, x, p))
	return nil
}
