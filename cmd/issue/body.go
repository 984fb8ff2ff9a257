package issue

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/editor"
	"github.com/spf13/cobra"
)

// draft is what the user wrote for an issue or a comment, and where it is
// kept, so a request that fails never loses it.
type draft struct {
	body string
	// file holds the text already: the --body-file the user gave, or the
	// editor's file; "" when it is only in memory.
	file string
	// temp marks file as forge's own, to be removed once the text is sent.
	temp bool
	// typed marks text the user typed in this run (editor or stdin), which
	// must be saved if sending it fails.
	typed bool
}

// bodyFlags are --body and --body-file.
type bodyFlags struct {
	body    string
	bodySet bool
	file    string
}

// add registers --body/-b and --body-file/-F; whose begins --body's
// help ("The comment's").
func (b *bodyFlags) add(cmd *cobra.Command, whose string) {
	cmd.Flags().StringVarP(&b.body, "body", "b", "", whose+" `text` (markdown)")
	cmdcore.PathOrDashFlag(cmd, &b.file, "body-file", "F", "", "Read the text from `file` (- for standard input)")
}

// given reports whether --body or --body-file was passed.
func (b bodyFlags) given() bool { return b.bodySet || b.file != "" }

// read gets the text from --body, --body-file (- is stdin) or, on a
// terminal, the editor. Without any of them and no terminal it returns an
// empty text: the caller decides whether that is allowed.
func (b bodyFlags) read(ctx context.Context, d cmdutil.Deps, what string) (*draft, error) {
	switch {
	case b.bodySet && b.file != "":
		return nil, cmdcore.UsageErrorf("--body and --body-file cannot be used together")
	case b.bodySet:
		return &draft{body: b.body}, nil
	case b.file == "-":
		data, err := io.ReadAll(d.IO.In)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return &draft{body: string(data), typed: true}, nil
	case b.file != "":
		data, err := os.ReadFile(b.file)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, cmdcore.UsageErrorf("no such file: %s", b.file)
		}
		if err != nil {
			return nil, err
		}
		return &draft{body: string(data), file: b.file}, nil
	case d.IO.CanPrompt():
		return edit(ctx, d, what)
	}
	return &draft{}, nil
}

// sent is called once the text reached the service: forge's own draft
// file is no longer needed.
func (t *draft) sent() {
	if t.temp && t.file != "" {
		os.Remove(t.file)
	}
}

// keep is called when sending failed: it makes sure the text survives and
// adds to err where it is, keeping err's exit code.
func (t *draft) keep(err error) error {
	if t == nil || strings.TrimSpace(t.body) == "" || !t.typed && t.file == "" {
		return err
	}
	if t.file == "" {
		fh, ferr := os.CreateTemp("", "forge-draft-*.md")
		if ferr != nil {
			return &cmdcore.KeptError{Err: err, Note: fmt.Sprintf("your text could not be saved either (%v)", ferr)}
		}
		_, ferr = fh.WriteString(t.body)
		if cerr := fh.Close(); ferr == nil {
			ferr = cerr
		}
		if ferr != nil {
			return &cmdcore.KeptError{Err: err, Note: fmt.Sprintf("your text could not be saved either (%v)", ferr)}
		}
		t.file, t.temp = fh.Name(), true
	}
	if client.HasStatus(err, http.StatusRequestEntityTooLarge) {
		// The same file would be refused again: it has to get shorter.
		return &cmdcore.KeptError{Err: err, Note: fmt.Sprintf("your text is kept in %s: make it shorter than the limit", t.file)}
	}
	return &cmdcore.KeptError{Err: err, Note: fmt.Sprintf("your text is kept in %s: send it again with --body-file %s", t.file, t.file)}
}

// edit opens the user's editor on an empty draft file and returns what was
// saved in it. The file stays until the text is sent.
func edit(ctx context.Context, d cmdutil.Deps, what string) (*draft, error) {
	fh, err := os.CreateTemp("", "forge-"+what+"-*.md")
	if err != nil {
		return nil, fmt.Errorf("creating a draft file: %w", err)
	}
	path := fh.Name()
	fh.Close()
	t := &draft{file: path, temp: true, typed: true}
	ed := editor.Name(d.Getenv)
	ios := d.IO
	ios.ErrPrintf("Write the %s's text in %s; save and quit to continue.\n", what, ed)
	if err := runEditor(ctx, d, ed, path); err != nil {
		if data, rerr := os.ReadFile(path); rerr == nil && len(data) > 0 {
			t.body = string(data)
			return nil, t.keep(err)
		}
		os.Remove(path)
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the draft file: %w", err)
	}
	t.body = string(data)
	return t, nil
}

// runEditor runs the editor on path, connected to the terminal.
func runEditor(ctx context.Context, d cmdutil.Deps, editorName, path string) error {
	cmd := editor.Command(ctx, editorName, path)
	ios := d.IO
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ios.In, ios.Out, ios.ErrOut
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("the editor (%s) failed: %v", editorName, err)
	}
	return nil
}
