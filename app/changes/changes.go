// Package changes reads what a commit or a pull request changed from the
// service: the files, and the unified diff of each, made from both sides
// of the file read through the contents endpoint (the service has no diff
// endpoint). The TUI draws it (tui/diff); the agent's context attaches it
// (app/agentctx).
package changes

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
)

// Bounds on what one change diffs: a change that touches more is shown
// in part, and says so.
const (
	MaxFiles = 100
	MaxBytes = 1 << 20 // a side of a file larger than this is not diffed
)

// File is one changed file's diff: Unified is "" for a file not diffed
// (binary, too large), and Note says why.
type File struct {
	Path    string
	Status  string
	Unified string
	Note    string
	// Added and Removed count the diff's lines.
	Added, Removed int
}

// Read diffs paths between the revisions from and to; from "" is the
// empty tree (a root commit). Beyond MaxFiles, files are listed
// without their diff.
func Read(ctx context.Context, c *client.Client, repo client.RepoName, from, to string, changed []client.CommitFile) ([]File, error) {
	out := make([]File, 0, len(changed))
	for i, f := range changed {
		d := File{Path: f.Filename, Status: f.Status}
		if i >= MaxFiles {
			d.Note = fmt.Sprintf("not diffed: only the first %d files are", MaxFiles)
			out = append(out, d)
			continue
		}
		var old, cur string
		var err error
		if from != "" && f.Status != "added" {
			old, err = side(ctx, c, repo, f.Filename, from)
		}
		if err == nil && f.Status != "removed" {
			cur, err = side(ctx, c, repo, f.Filename, to)
		}
		var skip skipped
		switch {
		case errors.As(err, &skip):
			d.Note = string(skip)
		case err != nil:
			return nil, err
		default:
			d.Unified = unified("a/"+f.Filename, "b/"+f.Filename, old, cur)
			d.Added, d.Removed = count(d.Unified)
		}
		out = append(out, d)
	}
	return out, nil
}

// count counts the added and removed lines of a unified diff.
func count(unified string) (added, removed int) {
	for _, l := range Hunks(unified) {
		switch {
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	return added, removed
}

// Hunks is a unified diff's lines after its two header lines ("--- a/…",
// "+++ b/…"): only those are headers. A removed line whose text starts
// "-- " (an SQL or Lua comment) reads "--- " too, and is a change.
func Hunks(unified string) []string {
	lines := text.Lines(unified)
	if len(lines) >= 2 && strings.HasPrefix(lines[0], "--- ") && strings.HasPrefix(lines[1], "+++ ") {
		return lines[2:]
	}
	return lines
}

// skipped says why a file is not diffed.
type skipped string

func (s skipped) Error() string { return string(s) }

// side is a file's text at rev: "" where it does not exist.
func side(ctx context.Context, c *client.Client, repo client.RepoName, path, rev string) (string, error) {
	f, _, err := c.Repos.OpenFile(ctx, repo, path, client.ContentsOptions{Ref: rev})
	if client.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if f == nil {
		return "", skipped("a directory")
	}
	defer f.Close()
	tooBig := skipped(fmt.Sprintf("not diffed: larger than %s", text.Bytes(MaxBytes)))
	if f.Size > MaxBytes {
		return "", tooBig
	}
	// A file past the service's inline limit is read raw, no further
	// than MaxBytes.
	b, cut, err := f.ReadAtMost(MaxBytes)
	if err != nil {
		return "", err
	}
	if cut {
		return "", tooBig
	}
	if client.Binary(b, true) { // git's guess, as forge makes it everywhere
		return "", skipped("binary file")
	}
	return string(b), nil
}
