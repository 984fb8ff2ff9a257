package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/forgehq/forge/refserver/store"
)

func (a *API) issueRoutes() {
	a.handle("GET /repos/{owner}/{repo}/issues", a.listIssues)
	a.handle("POST /repos/{owner}/{repo}/issues", a.createIssue)
	a.handle("GET /repos/{owner}/{repo}/issues/{number}", a.getIssue)
	a.handle("PATCH /repos/{owner}/{repo}/issues/{number}", a.patchIssue)
	a.handle("GET /repos/{owner}/{repo}/issues/{number}/comments", a.listComments)
	a.handle("POST /repos/{owner}/{repo}/issues/{number}/comments", a.addComment)
	a.handle("POST /repos/{owner}/{repo}/issues/{number}/state", a.setIssueState)
}

type loginJSON struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
}

type commentJSON struct {
	ID        int64     `json:"id"`
	Body      string    `json:"body"`
	User      loginJSON `json:"user"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	HTMLURL   string    `json:"html_url"`
}

type issueJSON struct {
	ID           int64          `json:"id"`
	Number       int64          `json:"number"`
	Title        string         `json:"title"`
	Body         string         `json:"body"`
	State        string         `json:"state"`
	User         loginJSON      `json:"user"`
	Comments     int            `json:"comments"`
	CreatedAt    time.Time      `json:"created_at"`
	UpdatedAt    time.Time      `json:"updated_at"`
	ClosedAt     *time.Time     `json:"closed_at"`
	HTMLURL      string         `json:"html_url"`
	CommentsList *[]commentJSON `json:"comments_list,omitempty"`
}

func issueView(r *http.Request, x access, i store.Issue) issueJSON {
	return issueJSON{ID: i.ID, Number: i.Number, Title: i.Title, Body: i.Body, State: i.State,
		User: loginJSON{i.Author, i.AuthorID}, Comments: i.Comments, CreatedAt: i.CreatedAt, UpdatedAt: i.UpdatedAt,
		ClosedAt: i.ClosedAt, HTMLURL: origin(r) + "/" + x.repo.FullName() + "/issues/" + strconv.FormatInt(i.Number, 10)}
}

func commentView(r *http.Request, x access, number int64, c store.Comment) commentJSON {
	return commentJSON{ID: c.ID, Body: c.Body, User: loginJSON{c.Author, c.AuthorID}, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
		HTMLURL: origin(r) + "/" + x.repo.FullName() + "/issues/" + strconv.FormatInt(number, 10) + "#issuecomment-" + strconv.FormatInt(c.ID, 10)}
}

// stateFilter reads ?state= (open by default, closed, all).
func stateFilter(r *http.Request) (string, error) {
	st := r.URL.Query().Get("state")
	switch st {
	case "":
		return store.StateOpen, nil
	case store.StateOpen, store.StateClosed, "all":
		return st, nil
	}
	return "", errInvalid("query parameter state must be open, closed or all, not %q", st)
}

// listIssues: GET /repos/{owner}/{repo}/issues?state=open|closed|all,
// newest first.
func (a *API) listIssues(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	st, err := stateFilter(r)
	if err != nil {
		return err
	}
	issues, err := a.st.Issues(x.repo.ID, st, func(total int) (int, int, error) { return pageBounds(w, r, total) })
	if err != nil {
		return err
	}
	writeRawJSON(w, a.issueCache.list(r, x, issues))
	return nil
}

// issueCache keeps each issue's JSON as last encoded (indented as an
// element of a list), keyed by ID and valid for one revision, origin and
// repository name: lists are the API's hot path (a CI script pages
// through thousands of issues), and encoding and indenting with
// reflection dominated their cost. The list it writes is byte for byte
// what writeJSON would.
type issueCache struct{ m sync.Map }

type cachedIssue struct {
	rev    int64
	origin string
	repo   string
	b      []byte
}

func (c *issueCache) list(r *http.Request, x access, issues []store.Issue) []byte {
	o := origin(r)
	full := x.repo.FullName()
	if len(issues) == 0 {
		return []byte("[]\n")
	}
	buf := make([]byte, 0, 700*len(issues)+4)
	buf = append(buf, "[\n  "...)
	for k, i := range issues {
		if k > 0 {
			buf = append(buf, ",\n  "...)
		}
		if v, ok := c.m.Load(i.ID); ok {
			if ci := v.(*cachedIssue); ci.rev == i.Rev && ci.origin == o && ci.repo == full {
				buf = append(buf, ci.b...)
				continue
			}
		}
		b, err := marshalIndented(issueView(r, x, i))
		if err != nil {
			b = []byte("null")
		}
		c.m.Store(i.ID, &cachedIssue{rev: i.Rev, origin: o, repo: full, b: b})
		buf = append(buf, b...)
	}
	return append(buf, "\n]\n"...)
}

// marshalIndented encodes v as writeJSON does, indented one level deeper
// (as an element of a list), without the final newline.
func marshalIndented(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func checkTitle(title *string) error {
	if title == nil || strings.TrimSpace(*title) == "" {
		return errInvalid("field title is required")
	}
	if utf8.RuneCountInString(*title) > 256 {
		return errInvalid("title must be at most 256 characters")
	}
	return nil
}

const maxText = 65536

// createIssue: POST /repos/{owner}/{repo}/issues {title, body}; anyone
// who may see the repository may open one.
func (a *API) createIssue(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	var in struct {
		Title *string `json:"title"`
		Body  *string `json:"body"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if err := checkTitle(in.Title); err != nil {
		return err
	}
	if len(deref(in.Body)) > maxText {
		return errInvalid("body must be at most %d characters", maxText)
	}
	i, err := a.st.CreateIssue(x.repo.ID, s.user, strings.TrimSpace(*in.Title), deref(in.Body), time.Time{})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, issueView(r, x, i))
	return nil
}

// issueAccess checks the caller may see the repository, then finds the
// issue the path names: the first two steps of every issue handler.
func (a *API) issueAccess(r *http.Request, s *session) (access, store.Issue, []store.Comment, error) {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return x, store.Issue{}, nil, err
	}
	i, cs, err := a.issue(r, x)
	return x, i, cs, err
}

// issue finds the issue the path names.
func (a *API) issue(r *http.Request, x access) (store.Issue, []store.Comment, error) {
	n, err := pathInt(r, "number")
	if err != nil {
		return store.Issue{}, nil, err
	}
	i, cs, ok := a.st.IssueByNumber(x.repo.ID, n)
	if !ok {
		return store.Issue{}, nil, errNotFound("issue #%d not found in %s", n, x.repo.FullName())
	}
	return i, cs, nil
}

// getIssue: GET /repos/{owner}/{repo}/issues/{number} with comments_list.
func (a *API) getIssue(w http.ResponseWriter, r *http.Request, s *session) error {
	x, i, cs, err := a.issueAccess(r, s)
	if err != nil {
		return err
	}
	out := issueView(r, x, i)
	list := make([]commentJSON, len(cs))
	for k, c := range cs {
		list[k] = commentView(r, x, i.Number, c)
	}
	out.CommentsList = &list
	writeJSON(w, http.StatusOK, out)
	return nil
}

// canEditIssue: the issue's author, or write permission.
func canEditIssue(x access, s *session, i store.Issue) error {
	if i.AuthorID == s.user.ID {
		return nil
	}
	return x.needWrite("changing an issue someone else opened")
}

// patchIssue: PATCH /repos/{owner}/{repo}/issues/{number} {title, body,
// state}.
func (a *API) patchIssue(w http.ResponseWriter, r *http.Request, s *session) error {
	x, i, _, err := a.issueAccess(r, s)
	if err != nil {
		return err
	}
	var in struct {
		Title *string `json:"title"`
		Body  *string `json:"body"`
		State *string `json:"state"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if in.Title != nil {
		if err := checkTitle(in.Title); err != nil {
			return err
		}
	}
	if in.State != nil && *in.State != store.StateOpen && *in.State != store.StateClosed {
		return errInvalid("state must be open or closed, not %q", *in.State)
	}
	if len(deref(in.Body)) > maxText {
		return errInvalid("body must be at most %d characters", maxText)
	}
	if err := canEditIssue(x, s, i); err != nil {
		return err
	}
	i, err = a.st.UpdateIssue(x.repo.ID, i.Number, s.user, store.IssuePatch{Title: in.Title, Body: in.Body, State: in.State})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, issueView(r, x, i))
	return nil
}

// setIssueState: POST /repos/{owner}/{repo}/issues/{number}/state {state}
// closes or reopens; answers 200 with the issue. Setting the state it
// already has changes nothing and also answers 200.
func (a *API) setIssueState(w http.ResponseWriter, r *http.Request, s *session) error {
	x, i, _, err := a.issueAccess(r, s)
	if err != nil {
		return err
	}
	var in struct {
		State *string `json:"state"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if in.State == nil || *in.State != store.StateOpen && *in.State != store.StateClosed {
		return errInvalid("field state must be open or closed")
	}
	if err := canEditIssue(x, s, i); err != nil {
		return err
	}
	if i.State != *in.State {
		if i, err = a.st.UpdateIssue(x.repo.ID, i.Number, s.user, store.IssuePatch{State: in.State}); err != nil {
			return err
		}
	}
	writeJSON(w, http.StatusOK, issueView(r, x, i))
	return nil
}

// listComments: GET /repos/{owner}/{repo}/issues/{number}/comments,
// oldest first.
func (a *API) listComments(w http.ResponseWriter, r *http.Request, s *session) error {
	x, i, cs, err := a.issueAccess(r, s)
	if err != nil {
		return err
	}
	out := make([]commentJSON, len(cs))
	for k, c := range cs {
		out[k] = commentView(r, x, i.Number, c)
	}
	page, err := paginate(w, r, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

// addComment: POST /repos/{owner}/{repo}/issues/{number}/comments {body};
// anyone who may see the repository may comment.
func (a *API) addComment(w http.ResponseWriter, r *http.Request, s *session) error {
	x, i, _, err := a.issueAccess(r, s)
	if err != nil {
		return err
	}
	var in struct {
		Body *string `json:"body"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if err := required("body", in.Body); err != nil {
		return err
	}
	if len(*in.Body) > maxText {
		return errInvalid("body must be at most %d characters", maxText)
	}
	c, err := a.st.AddComment(x.repo.ID, i.Number, s.user, *in.Body, time.Time{})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, commentView(r, x, i.Number, c))
	return nil
}
