package agentctx

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
)

// issue: the title, state and body, then each comment.
func issue(ctx context.Context, c *client.Client, repo client.RepoName, n int64) (*chat.Attachment, error) {
	is, err := c.Issues.Get(ctx, repo, n)
	if err != nil {
		return nil, err
	}
	a := described(fmt.Sprintf("Issue #%d in %s: %s", is.Number, repo, is.Title), is.State, is.User.Login, is.CreatedAt, is.Body)
	if len(is.CommentsList) > 0 {
		var cl []string
		for _, cm := range is.CommentsList {
			cl = append(cl, fmt.Sprintf("%s wrote%s:", cm.User.Login, date(cm.CreatedAt)))
			cl = append(cl, lines(cm.Body)...)
			cl = append(cl, "")
		}
		a.Sections = append(a.Sections, &chat.Section{Title: text.Count(len(is.CommentsList), "comment"), Lines: cl})
	}
	return a, nil
}

// described is the attachment of an issue or a pull request: under its
// title, its state and author, the lines of more, then its body.
func described(title, state, author string, created client.Time, body string, more ...string) *chat.Attachment {
	head := append([]string{fmt.Sprintf("state: %s; opened by %s%s", state, author, date(created))}, more...)
	head = append(head, "")
	return &chat.Attachment{Title: title, Sections: []*chat.Section{{Lines: append(head, lines(body)...)}}}
}

func date(t client.Time) string {
	if t.IsZero() {
		return ""
	}
	return " on " + t.UTC().Format("2006-01-02")
}

// run: the run's metadata and jobs, then the tail of each failed job's
// log (the end of a log is where a failure shows).
func run(ctx context.Context, c *client.Client, repo client.RepoName, id int64, opts Options) (*chat.Attachment, error) {
	r, err := c.Actions.GetRun(ctx, repo, id)
	if err != nil {
		return nil, err
	}
	jobs, err := client.Collect(c.Actions.ListJobs(ctx, repo, id, client.ListOptions{PerPage: 100}), 0)
	if err != nil {
		return nil, err
	}
	return runAttachment(ctx, c, repo, r, jobs, opts)
}

// Run is the attachment of a run its caller has read already (with its
// jobs), as `forge run view --explain` has: redacted like Build's.
func Run(ctx context.Context, c *client.Client, repo client.RepoName, r *client.WorkflowRun, jobs []*client.Job, opts Options) (*chat.Attachment, error) {
	a, err := runAttachment(ctx, c, repo, r, jobs, opts)
	if err != nil {
		return nil, err
	}
	a.Ref = fmt.Sprintf("run:%d", r.ID)
	finish(a, opts)
	return a, nil
}

func runAttachment(ctx context.Context, c *client.Client, repo client.RepoName, r *client.WorkflowRun, jobs []*client.Job, opts Options) (*chat.Attachment, error) {
	state := r.Status
	if r.Conclusion != "" {
		state += ", " + r.Conclusion
	}
	meta := []string{
		"repository: " + repo.String(),
		"workflow: " + r.Name,
		"title: " + r.DisplayTitle,
		fmt.Sprintf("branch: %s; commit: %s; event: %s; actor: %s", r.HeadBranch, r.HeadSHA, r.Event, r.Actor.Login),
		"state: " + state,
	}
	var broke, failed []*client.Job
	for _, j := range jobs {
		line := fmt.Sprintf("job %s (ID %d): %s", j.Name, j.ID, j.State().Word)
		for _, s := range j.Steps {
			if client.Failed(s.Conclusion) {
				line += fmt.Sprintf("; failed step %d: %s", s.Number, s.Name)
			}
		}
		meta = append(meta, line)
		if client.Broke(j.Conclusion) {
			broke = append(broke, j)
		} else if j.Failed() {
			failed = append(failed, j)
		}
	}
	// The logs of the jobs that broke: the jobs cancelled because one
	// failed (a fail-fast matrix) say only that they were stopped, and
	// would take the budget. A run that was only cancelled gets those.
	if len(broke) > 0 {
		failed = broke
	}
	a := &chat.Attachment{
		Title:    fmt.Sprintf("CI run %d%s on %s: %s", r.ID, runLabel(r), r.HeadBranch, state),
		Sections: []*chat.Section{{Lines: meta}},
	}
	keep := opts.LogLines
	if keep <= 0 {
		keep = DefaultLogLines
	}
	for _, j := range failed {
		tail, total, err := logTail(ctx, c, repo, j.ID, keep)
		if err != nil {
			return nil, fmt.Errorf("the log of job %s: %w", j.Name, err)
		}
		title := fmt.Sprintf("job %s (%s): log", j.Name, j.Conclusion)
		if total > len(tail) {
			title = fmt.Sprintf("job %s (%s): the last %d of %d log lines", j.Name, j.Conclusion, len(tail), total)
		}
		a.Sections = append(a.Sections, &chat.Section{Title: title, Lines: tail, KeepTail: true})
	}
	return a, nil
}

// runLabel is " (CI #12)": the run's workflow and number, as far as the
// service gives them.
func runLabel(r *client.WorkflowRun) string {
	switch {
	case r.Name != "" && r.RunNumber > 0:
		return fmt.Sprintf(" (%s #%d)", r.Name, r.RunNumber)
	case r.Name != "":
		return " (" + r.Name + ")"
	case r.RunNumber > 0:
		return fmt.Sprintf(" (#%d)", r.RunNumber)
	}
	return ""
}

// maxLine cuts a log line that is longer than any line a person reads.
const maxLine = 2000

// logTail reads a job's log to the end, keeping only its last keep lines
// (each cut at maxLine bytes: a log may hold a line of megabytes).
func logTail(ctx context.Context, c *client.Client, repo client.RepoName, jobID int64, keep int) ([]string, int, error) {
	body, err := c.Actions.JobLogs(ctx, repo, jobID)
	if err != nil {
		return nil, 0, err
	}
	defer body.Close()
	ring := make([]string, 0, keep)
	total := 0
	add := func(l []byte, long bool) {
		line := strings.TrimRight(string(l), "\r\n")
		if long {
			line = strings.ToValidUTF8(line, "") + "…"
		}
		if len(ring) < keep {
			ring = append(ring, line)
		} else {
			ring[total%keep] = line
		}
		total++
	}
	br := bufio.NewReaderSize(body, 64<<10)
	var cur []byte
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		if room := maxLine - len(cur); room >= len(chunk) {
			cur = append(cur, chunk...)
		} else {
			cur, long = append(cur, chunk[:max(room, 0)]...), true
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(cur) > 0 {
			add(cur, long)
		}
		cur, long = cur[:0], false
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, 0, err
		}
	}
	if total > keep { // unroll the ring: oldest first
		k := total % keep
		ring = append(ring[k:], ring[:k]...)
	}
	return ring, total, nil
}

// maxFile is the largest file forge attaches; a bigger one is not
// context, it is a dump.
const maxFile = 1 << 20

// file: a text file of the repository at a revision.
func file(ctx context.Context, c *client.Client, repo client.RepoName, path, rev string) (*chat.Attachment, error) {
	// Past the service's inline limit the file is read raw, and only as
	// far as forge's own limit.
	f, _, err := c.Repos.OpenFile(ctx, repo, path, client.ContentsOptions{Ref: rev})
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, fmt.Errorf("%s is a directory; attach one of its files (`forge repo contents` lists them)", path)
	}
	defer f.Close()
	if f.Size > maxFile {
		return nil, fmt.Errorf("%s is %d bytes; forge attaches files of up to %d", path, f.Size, maxFile)
	}
	data, cut, err := f.ReadAtMost(maxFile)
	if err != nil {
		return nil, err
	}
	if cut { // the service did not say how large
		return nil, fmt.Errorf("%s is over %d bytes; forge attaches files of up to %d", path, maxFile, maxFile)
	}
	if client.Binary(data, true) { // git's guess, as forge makes it everywhere
		return nil, fmt.Errorf("%s is not a text file", path)
	}
	at := rev
	if at == "" {
		at = "the default branch"
	}
	return &chat.Attachment{
		Title:    fmt.Sprintf("File %s in %s at %s (%d bytes)", path, repo, at, len(data)),
		Sections: []*chat.Section{{Lines: lines(string(data))}},
	}, nil
}

// commitJSON is a commit as GET .../commits/{sha} answers (not in the
// service's specification; GitHub's shape, "files" when the service
// lists the changed files).
type commitJSON struct {
	client.Commit
	Files []struct {
		Filename  string `json:"filename"`
		Status    string `json:"status"`
		Additions *int   `json:"additions"`
		Deletions *int   `json:"deletions"`
	} `json:"files"`
}

// commit: the message, author and changed files the service shows. The
// specification has only the list of recent commits; forge asks for the
// one commit first and falls back to finding it in that list.
func commit(ctx context.Context, c *client.Client, repo client.RepoName, sha string) (*chat.Attachment, error) {
	var cm commitJSON
	var raw json.RawMessage
	_, err := c.Get(ctx, fmt.Sprintf("/repos/%s/%s/commits/%s", url.PathEscape(repo.Owner), url.PathEscape(repo.Name), url.PathEscape(sha)), &raw)
	var apiErr *client.Error
	switch {
	case err == nil:
		// Tolerant: a field of an unexpected type stays empty.
		if err := json.Unmarshal(raw, &cm); err != nil && !errors.As(err, new(*json.UnmarshalTypeError)) {
			return nil, fmt.Errorf("decoding the commit: %w", err)
		}
	case errors.As(err, &apiErr) && (apiErr.StatusCode == http.StatusNotFound || apiErr.StatusCode == http.StatusMethodNotAllowed):
		found, lerr := findCommit(ctx, c, repo, sha)
		if lerr != nil {
			return nil, lerr
		}
		if found == nil {
			return nil, err
		}
		cm.Commit = *found
	default:
		return nil, err
	}
	au := cm.Commit.Commit.Author
	body := []string{fmt.Sprintf("author: %s <%s>%s", au.Name, au.Email, date(au.Date)), ""}
	body = append(body, lines(cm.Commit.Commit.Message)...)
	a := &chat.Attachment{
		Title:    fmt.Sprintf("Commit %s in %s: %s", cm.SHA, repo, firstLine(cm.Commit.Commit.Message)),
		Sections: []*chat.Section{{Lines: body}},
	}
	files := []string{"(the service does not list the files this commit changed)"}
	if len(cm.Files) > 0 {
		files = files[:0]
		for _, f := range cm.Files {
			files = append(files, fileLine(f.Status, f.Filename, f.Additions, f.Deletions))
		}
	}
	a.Sections = append(a.Sections, &chat.Section{Title: "changed files", Lines: files})
	return a, nil
}

// fileLine is one changed file: "modified app.go (+3 -1)"; the counts are
// left out when the service did not send them (a binary file, say).
func fileLine(status, name string, add, del *int) string {
	if add == nil || del == nil {
		return status + " " + name
	}
	return fmt.Sprintf("%s %s (+%d -%d)", status, name, *add, *del)
}

// findCommit looks for a commit whose hash starts with sha among the
// latest ones (the first few pages: the list is not a search).
func findCommit(ctx context.Context, c *client.Client, repo client.RepoName, sha string) (*client.Commit, error) {
	seen := 0
	for cm, err := range c.Repos.Commits(ctx, repo, client.ListOptions{PerPage: 100}) {
		if seen++; seen > 500 {
			break
		}
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(strings.ToLower(cm.SHA), sha) {
			return cm, nil
		}
	}
	return nil, nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
