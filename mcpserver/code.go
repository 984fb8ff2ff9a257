package mcpserver

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Finding code: the spec has no tree or search endpoint, so repo_tree
// and code_search read a local shallow clone of the ref (depth 1, into a
// bare repository under the user's cache, fetched again only when the
// ref's commit changes) with git itself: `git ls-tree` and `git grep`.
// The clone is fetched with the profile's token, only from the service's
// own origin.
const (
	// MatchesPerPage is a page of code_search; MatchLine cuts a line.
	MatchesPerPage = 50
	MatchLine      = 300
	// gitTimeout bounds a fetch or a search.
	gitTimeout = 2 * time.Minute
	// MaxClone bounds what one fetch brings into a clone, on disk: past
	// it the fetch is stopped (its growth is looked at every cloneWatch)
	// and the clone removed. A clone over it before a fetch (commits
	// fetched one after another add up) is started again, so a clone
	// never holds much more than twice this.
	MaxClone   = 256 << 20
	cloneWatch = 100 * time.Millisecond
)

// cloneLimit is MaxClone; tests lower it.
var cloneLimit int64 = MaxClone

// TreeIn asks for the files of a ref.
type TreeIn struct {
	RepoArg
	Ref  string `json:"ref,omitempty" jsonschema:"branch, tag or commit (default: the default branch)"`
	Path string `json:"path,omitempty" jsonschema:"only under this directory"`
	Glob string `json:"glob,omitempty" jsonschema:"only files matching this glob, on the file's name or its path (*.go, cmd/*/main.go)"`
	Page int    `json:"page,omitempty" jsonschema:"page of the list (500 paths a page), from 1"`
}

// Tree is a page of a ref's files.
type Tree struct {
	Commit string   `json:"commit"`
	Paths  []string `json:"paths"`
	Note   string   `json:"note,omitempty"`
}

// SearchIn asks for the lines of a ref's files that match.
type SearchIn struct {
	RepoArg
	Query  string `json:"query" jsonschema:"the text to find (a regular expression with regexp)"`
	Regexp bool   `json:"regexp,omitempty" jsonschema:"query is an extended regular expression, not plain text"`
	Glob   string `json:"glob,omitempty" jsonschema:"only files matching this glob (*.go, internal/**)"`
	Ref    string `json:"ref,omitempty" jsonschema:"branch, tag or commit (default: the default branch)"`
	Page   int    `json:"page,omitempty" jsonschema:"page of the matches (50 a page), from 1"`
}

// Match is a line that matched.
type Match struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Matches is a page of code_search.
type Matches struct {
	Commit  string  `json:"commit"`
	Matches []Match `json:"matches"`
	Note    string  `json:"note,omitempty"`
}

func codeTools() []toolDef {
	return []toolDef{
		handle("repo_tree", tree),
		handle("code_search", search),
	}
}

func tree(ctx context.Context, s *Server, in TreeIn) (Tree, error) {
	g, err := s.clone(ctx, in.RepoArg, in.Ref)
	if err != nil {
		return Tree{}, err
	}
	args := []string{"ls-tree", "-r", "--name-only", "-z", g.sha}
	if p := strings.Trim(in.Path, "/"); p != "" {
		args = append(args, "--", p+"/")
	}
	out, err := g.git(ctx, args...)
	if err != nil {
		return Tree{}, err
	}
	var paths []string
	for _, p := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if p != "" && globMatch(in.Glob, p) {
			paths = append(paths, p)
		}
	}
	page, note, err := pageWithTotal(withNoError(paths), max(in.Page, 1), DirPage, func() (int, bool) { return len(paths), true })
	return Tree{Commit: g.sha, Paths: page, Note: note}, err
}

// globMatch reports whether p matches glob (on its whole path, or on its
// name when glob has no slash); "" matches all, "dir/**" all under dir.
func globMatch(glob, p string) bool {
	if glob == "" {
		return true
	}
	if d, ok := strings.CutSuffix(glob, "/**"); ok {
		return strings.HasPrefix(p, d+"/")
	}
	if !strings.Contains(glob, "/") {
		p = path.Base(p)
	}
	ok, _ := path.Match(glob, p)
	return ok
}

func search(ctx context.Context, s *Server, in SearchIn) (Matches, error) {
	if in.Query == "" {
		return Matches{}, fmt.Errorf("code_search needs a query")
	}
	g, err := s.clone(ctx, in.RepoArg, in.Ref)
	if err != nil {
		return Matches{}, err
	}
	mode := "-F"
	if in.Regexp {
		mode = "-E"
	}
	page := max(in.Page, 1)
	if page > MaxListPages {
		return Matches{}, fmt.Errorf("page %d is too far: narrow the search with glob", page)
	}
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := g.command(ctx, "grep", "-n", "-I", "-z", "--full-name", mode, "-e", in.Query, g.sha)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Matches{}, err
	}
	if err := cmd.Start(); err != nil {
		return Matches{}, err
	}
	defer func() { cancel(); _ = cmd.Wait() }()
	out := Matches{Commit: g.sha, Matches: []Match{}}
	skip, seen := (page-1)*MatchesPerPage, 0
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		// <sha>:<path>\0<line>\0<text>
		f := strings.SplitN(sc.Text(), "\x00", 3)
		if len(f) != 3 {
			continue
		}
		p := strings.TrimPrefix(f[0], g.sha+":")
		if !globMatch(in.Glob, p) {
			continue
		}
		if seen++; seen <= skip {
			continue
		}
		if len(out.Matches) == MatchesPerPage {
			out.Note = fmt.Sprintf("truncated: matches %d-%d shown; ask with page %d for more", skip+1, skip+MatchesPerPage, page+1)
			return out, nil
		}
		n, _ := strconv.Atoi(f[1])
		text := f[2]
		if len(text) > MatchLine {
			text = cutBytes(text, MatchLine) + " [line cut]"
		}
		out.Matches = append(out.Matches, Match{Path: p, Line: n, Text: text})
	}
	switch {
	case len(out.Matches) == 0 && page > 1:
		out.Note = fmt.Sprintf("page %d is past the end: %d matches in all", page, seen)
	case page > 1:
		out.Note = fmt.Sprintf("matches %d-%d of %d, the last page", skip+1, seen, seen)
	}
	return out, nil
}

// gitClone is a local clone at a commit, and how to run git on it.
type gitClone struct {
	dir, sha string
	env      []string
}

// clones serialise the fetches into one directory.
var clones sync.Map // dir -> *sync.Mutex

// clone is a local clone of ref's commit (default: the default branch),
// fetched when the cache does not hold that commit.
func (s *Server) clone(ctx context.Context, in RepoArg, ref string) (*gitClone, error) {
	if s.opts.CodeCache == "" {
		return nil, fmt.Errorf("code search needs a cache directory (HOME or XDG_CACHE_HOME)")
	}
	c, name, err := s.repo(ctx, in)
	if err != nil {
		return nil, err
	}
	r, err := c.Repos.Get(ctx, name)
	if err != nil {
		return nil, err
	}
	ref = cmp.Or(ref, r.DefaultBranch)
	cm, err := c.Repos.Commit(ctx, name, ref)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(r.CloneURL)
	if err != nil || u.Scheme+"://"+u.Host != c.Origin() {
		return nil, fmt.Errorf("the clone URL %q is not on the service's origin %s: forge sends its token nowhere else", r.CloneURL, c.Origin())
	}
	host := strings.NewReplacer(":", "_").Replace(u.Host)
	g := &gitClone{dir: filepath.Join(s.opts.CodeCache, host, name.Owner, name.Name+".git"), sha: cm.SHA}
	user, token, err := s.opts.Backend.GitCredentials()
	if err != nil {
		return nil, err
	}
	g.env = []string{"GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "GIT_ALLOW_PROTOCOL=http:https", "HOME=" + g.dir,
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=credential.helper", "GIT_CONFIG_VALUE_0="}
	mu, _ := clones.LoadOrStore(g.dir, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	if err := g.init(ctx); err != nil {
		return nil, err
	}
	now := time.Now()
	os.Chtimes(g.dir, now, now) // used now: the last the cache lets go
	if _, err := g.git(ctx, "cat-file", "-e", g.sha+"^{commit}"); err == nil {
		return g, nil // the cache holds the commit
	}
	if dirSize(g.dir) > cloneLimit {
		os.RemoveAll(g.dir) // fetches of commits added up: start again
		if err := g.init(ctx); err != nil {
			return nil, err
		}
	}
	if err := g.fetch(ctx, r.CloneURL, ref, user, token); errors.Is(err, errCloneTooBig) {
		return nil, fmt.Errorf("%s at %s is over %s, the most repo_tree and code_search fetch of a repository: read its files with repo_contents", name, ref, fmt.Sprintf("%d MiB", cloneLimit>>20))
	} else if err != nil {
		return nil, err
	}
	trimCache(s.opts.CodeCache, g.dir)
	if head, err := g.git(ctx, "rev-parse", "FETCH_HEAD"); err == nil {
		g.sha = strings.TrimSpace(string(head)) // the ref moved since: its newest commit
	}
	return g, nil
}

// fetch fetches ref's newest commit, at depth 1. The token reaches git as
// an Authorization header in a configuration file of the user's alone
// (0600, in the clone's 0700 directory, removed after), which git includes:
// never in git's arguments, whose `ps` shows them, or in its environment,
// which every program git starts inherits.
func (g *gitClone) fetch(ctx context.Context, cloneURL, ref, user, token string) error {
	auth, err := os.CreateTemp(g.dir, "forge-auth-*.config")
	if err != nil {
		return err
	}
	defer os.Remove(auth.Name())
	header := "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+token))
	_, err = fmt.Fprintf(auth, "[http]\n\textraHeader = %s\n", header)
	if cerr := auth.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	before := dirSize(g.dir)
	over := g.watch(fctx, cancel, before)
	_, err = g.git(fctx, "-c", "include.path="+auth.Name(), "fetch", "-q", "--depth", "1", "--no-tags", cloneURL, ref)
	if over() || dirSize(g.dir)-before > cloneLimit {
		os.RemoveAll(g.dir) // with what the fetch brought; the next call starts again
		return errCloneTooBig
	}
	return err
}

// errCloneTooBig: a fetch brought more than cloneLimit.
var errCloneTooBig = errors.New("the clone is over its bound")

// watch stops a fetch (cancel) once the clone has grown past cloneLimit
// from before. over, called when the fetch has ended, stops the watch
// and says whether it stopped the fetch.
func (g *gitClone) watch(ctx context.Context, cancel func(), before int64) (over func() bool) {
	stop := make(chan struct{})
	result := make(chan bool, 1)
	go func() {
		t := time.NewTicker(cloneWatch)
		defer t.Stop()
		for {
			select {
			case <-stop:
				result <- false
				return
			case <-ctx.Done():
				result <- false
				return
			case <-t.C:
				if dirSize(g.dir)-before > cloneLimit {
					cancel()
					result <- true
					return
				}
			}
		}
	}()
	return func() bool {
		close(stop)
		return <-result
	}
}

// dirSize is the bytes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil { // a file git has removed since is not counted
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// init makes the clone's bare repository if it is not there.
func (g *gitClone) init(ctx context.Context) error {
	if _, err := os.Stat(g.dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(g.dir, 0o700); err != nil {
		return err
	}
	_, err := g.git(ctx, "init", "-q", "--bare")
	return err
}

// MaxClones is how many repositories' clones the code cache keeps: past
// it, the ones used longest ago go (a clone is fetched again when asked).
const MaxClones = 16

// trimCache removes the clones under cache used longest ago, past
// MaxClones; keep (the clone in use) stays.
func trimCache(cache, keep string) {
	dirs, _ := filepath.Glob(filepath.Join(cache, "*", "*", "*.git"))
	if len(dirs) <= MaxClones {
		return
	}
	used := map[string]time.Time{}
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil {
			used[d] = st.ModTime()
		}
	}
	slices.SortFunc(dirs, func(a, b string) int { return used[a].Compare(used[b]) })
	for _, d := range dirs[:len(dirs)-MaxClones] {
		if d == keep {
			continue
		}
		mu, _ := clones.LoadOrStore(d, &sync.Mutex{})
		if mu.(*sync.Mutex).TryLock() { // one in use by another call stays
			os.RemoveAll(d)
			mu.(*sync.Mutex).Unlock()
		}
	}
}

// command is git on the clone. When ctx ends git is killed with its
// children (killGroup), and its output waited for gitKillWait at most: a
// child of git's still holding it (the HTTP helper, blocked on a server
// that sends nothing) would keep the call waiting.
func (g *gitClone) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir", g.dir}, args...)...)
	cmd.Env = append(os.Environ(), g.env...)
	killGroup(cmd)
	cmd.WaitDelay = gitKillWait
	return cmd
}

const gitKillWait = 5 * time.Second

// git runs git on the clone: its output, or an error with git's first
// line of complaint.
func (g *gitClone) git(ctx context.Context, args ...string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := g.command(ctx, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		name := args[0]
		if name == "-c" && len(args) > 2 {
			name = args[2] // the command, after a setting
		}
		return nil, fmt.Errorf("git %s: %v %s", name, err, msg)
	}
	return out, nil
}
