// Package agentctx makes the context forge attaches to a chat with the
// agent out of what the hosting service holds: an issue with its comments,
// a pull request with its diff, a CI run with the log tails of its failed
// jobs, a file, a commit. One
// function, Build, turns a REF into a chat.Attachment; `forge chat --with`,
// `/with`, `forge run explain` and the TUI all call it. Every attachment's
// text loses its ANSI escape sequences and passes through the Redactor
// (app/redact) before it leaves the machine, unless Options.NoRedact
// says otherwise.
package agentctx

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/forgehq/forge/app/redact"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/text"
)

// Forms names the accepted REFs, for errors and help.
const Forms = chat.ContextRefForms

// Ref is a parsed REF.
type Ref struct {
	Kind string // issue, pull, run, file or commit
	N    int64  // issue or pull request number, or run ID
	Path string // file
	Rev  string // file: the branch, tag or commit after @ ("" for the default branch)
	SHA  string // commit
	Raw  string
}

// RefError is a REF forge does not understand: a usage error.
type RefError struct{ Ref, Why string }

func (e *RefError) Error() string {
	return fmt.Sprintf("bad context REF %q: %s; use %s", e.Ref, e.Why, Forms)
}

// ParseRef reads "issue:12", "pull:3", "run:57", "file:PATH[@REF]" or
// "commit:SHA".
func ParseRef(s string) (Ref, error) {
	kind, arg, ok := strings.Cut(strings.TrimSpace(s), ":")
	kind = strings.ToLower(kind)
	r := Ref{Kind: kind, Raw: strings.TrimSpace(s)}
	if !ok || arg == "" {
		return r, &RefError{s, "want KIND:VALUE"}
	}
	switch kind {
	case "issue", "pull", "run":
		n, err := strconv.ParseInt(strings.TrimPrefix(arg, "#"), 10, 64)
		if err != nil || n <= 0 {
			return r, &RefError{s, kind + " takes a positive number"}
		}
		r.N = n
	case "file":
		path, rev := arg, ""
		if i := strings.LastIndexByte(arg, '@'); i >= 0 {
			path, rev = arg[:i], arg[i+1:]
			if rev == "" {
				return r, &RefError{s, "nothing after @"}
			}
		}
		path = strings.Trim(path, "/")
		if path == "" {
			return r, &RefError{s, "file takes a path"}
		}
		r.Path, r.Rev = path, rev
	case "commit":
		if len(arg) < 4 || strings.Trim(strings.ToLower(arg), "0123456789abcdef") != "" {
			return r, &RefError{s, "commit takes a hash of at least 4 hex digits"}
		}
		r.SHA = strings.ToLower(arg)
	default:
		return r, &RefError{s, fmt.Sprintf("unknown kind %q", kind)}
	}
	return r, nil
}

// Options tune Build.
type Options struct {
	// Redactor masks secrets in the text: the command's
	// redact.New(redact.Held(...)...), so the secrets forge holds are
	// masked by value. nil masks the generic forms only.
	Redactor *redact.Redactor
	// NoRedact sends the text as it is, secrets included (ANSI escape
	// sequences are still removed: they are noise to the agent).
	NoRedact bool
	// LogLines is how many lines of each failed job's log to fetch, from
	// the end (0: DefaultLogLines). The budget may cut more later.
	LogLines int
}

// DefaultLogLines is the tail of a failed job's log that Build fetches.
const DefaultLogLines = 500

// Build makes an attachment of ref from the repository's data on the
// service. A malformed ref is a *RefError.
func Build(ctx context.Context, c *client.Client, repo client.RepoName, ref string, opts Options) (*chat.Attachment, error) {
	r, err := ParseRef(ref)
	if err != nil {
		return nil, err
	}
	var a *chat.Attachment
	switch r.Kind {
	case "issue":
		a, err = issue(ctx, c, repo, r.N)
	case "pull":
		a, err = pull(ctx, c, repo, r.N)
	case "run":
		a, err = run(ctx, c, repo, r.N, opts)
	case "file":
		a, err = file(ctx, c, repo, r.Path, r.Rev)
	case "commit":
		a, err = commit(ctx, c, repo, r.SHA)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Raw, err)
	}
	a.Ref = r.Raw
	finish(a, opts)
	return a, nil
}

// finish makes the titles safe to show (forge prints them on a terminal,
// and they hold the server's text: an issue's title, a job's name),
// removes ANSI escape sequences from the text (a job log's colours) and
// redacts it unless told not to.
func finish(a *chat.Attachment, opts Options) {
	a.Title = text.OneLine(a.Title)
	for _, s := range a.Sections {
		s.Title = text.OneLine(s.Title)
		for i, l := range s.Lines {
			s.Lines[i] = redact.StripANSI(l)
		}
	}
	if opts.NoRedact {
		return
	}
	r := opts.Redactor
	a.Title = r.Text(a.Title)
	for _, s := range a.Sections {
		s.Title = r.Text(s.Title)
		r.Lines(s.Lines)
	}
}

// ProfileLimit reads the profile's per-message cap on attached context
// (config.yaml: profiles.NAME.chat_context_limit, in tokens), or
// chat.DefaultContextLimit when it sets none.
func ProfileLimit(cf *config.File, profile string) (int, error) {
	p := cf.Profile(profile)
	if p == nil || p.Extra[LimitKey] == nil {
		return chat.DefaultContextLimit, nil
	}
	n, err := strconv.Atoi(fmt.Sprint(p.Extra[LimitKey]))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("the profile %q sets %s to %v in the config file; it must be a positive number of tokens", profile, LimitKey, p.Extra[LimitKey])
	}
	return n, nil
}

// LimitKey is the profile's setting for the per-message cap on attached
// context.
const LimitKey = "chat_context_limit"

// IsRefError reports whether err is a malformed REF.
func IsRefError(err error) bool {
	var re *RefError
	return errors.As(err, &re)
}

// lines splits text into lines (CRLF as LF), without a last empty one.
func lines(s string) []string { return text.Lines(strings.ReplaceAll(s, "\r\n", "\n")) }
