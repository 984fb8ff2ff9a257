package repo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

var contentFields = []string{"name", "path", "type", "size", "sha", "html_url", "encoding", "content"}

type contentsOptions struct {
	cmdutil.Deps
	repoFlag string
	path     string
	ref      string
	exporter *output.Exporter
}

func newContentsCmd(f *cmdutil.Factory, runF func(context.Context, *contentsOptions) error) *cobra.Command {
	opts := &contentsOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runContents)
	cmd := &cobra.Command{
		Use:   "contents [PATH]",
		Short: "List a directory or print a file of a repository",
		Long: `For a directory (the top one by default), list its entries: on a terminal a
table, piped one "name<TAB>type<TAB>size" line each. For a file, print its
content exactly, bytes as stored, so binary files can be redirected:
` + "`forge repo contents logo.png > logo.png`" + `. On a terminal forge refuses
to print a binary file (judged on its first 8000 bytes, as git does) and
says how to save it.

A file of any size is printed: past the service's limit of inline content
(1 MiB on the reference server) forge streams the raw bytes, never holding
the whole file in memory. With --json such a file is an error, since the
service sends no content to put in the object: print it without --json, or
redirect it to a file.

--ref reads at a branch, tag or commit instead of the default branch.`,
		Example: `  forge repo contents -R alice/demo
  forge repo contents src --ref v1.0
  forge repo contents README.md
  forge repo contents --json name,type --jq '.[] | select(.type == "dir") | .name'`,
		Args: cmdcore.MaximumArgs(1, "at most one PATH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.path = args[0]
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().StringVar(&opts.ref, "ref", "", "Read at this `ref`: a branch, tag or commit")
	opts.exporter = output.AddJSONFlags(cmd, contentFields...)
	return cmd
}

func runContents(ctx context.Context, opts *contentsOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	c, name, err := opts.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return err
	}
	file, dir, err := c.Repos.OpenFile(ctx, name, opts.path, client.ContentsOptions{Ref: opts.ref})
	if err != nil {
		return err
	}
	if file != nil {
		defer file.Close()
	}
	ios := opts.IO
	if opts.exporter.Enabled() {
		if file != nil {
			return exportFile(opts, file)
		}
		raw := make([]json.RawMessage, 0, len(dir))
		for _, e := range dir {
			raw = append(raw, e.RawJSON())
		}
		return opts.exporter.Write(ios, raw)
	}
	if file != nil {
		return printFile(opts, file)
	}
	t := output.NewTable(ios, "NAME", "TYPE", "SIZE")
	t.KeepWhole("NAME")
	for _, e := range dir {
		color := output.Plain
		if e.Type == "dir" {
			color = output.Cyan
		}
		t.Add(e.Name, color)
		t.Add(e.Type)
		size := fmt.Sprint(e.Size)
		if e.Type == "dir" {
			size = "" // the service sends 0; a directory has no size of its own
		}
		t.Add(size)
		t.EndRow()
	}
	if t.Len() == 0 && ios.IsStdoutTTY() {
		ios.ErrPrintln("The directory is empty.")
	}
	return t.Render()
}

// exportFile writes the file object as JSON. A file the service would
// not inline has no content to put there: forge says how to get it
// rather than print an object without it.
func exportFile(opts *contentsOptions, file *client.File) error {
	if file.Raw {
		p := text.OneLine(filePath(opts, file))
		return fmt.Errorf("%s is too large for the service to send inline%s, so --json has no content for it: print it without --json, or save it with `forge repo contents %s > FILE`",
			p, sizeNote(file.Size), p)
	}
	return opts.exporter.Write(opts.IO, file.Entry.RawJSON())
}

// filePath is the file's path as the service names it, or as given.
func filePath(opts *contentsOptions, file *client.File) string {
	if file.Entry != nil && file.Entry.Path != "" {
		return file.Entry.Path
	}
	return strings.Trim(opts.path, "/")
}

// sizeNote is " (N bytes)", or "" when the size is not known.
func sizeNote(size int64) string {
	if size < 0 {
		return ""
	}
	return fmt.Sprintf(" (%d bytes)", size)
}

// printFile streams a file's bytes to stdout unchanged, whatever its
// size; a terminal gets only text, sanitized as it goes.
func printFile(opts *contentsOptions, file *client.File) error {
	ios := opts.IO
	if !ios.IsStdoutTTY() {
		_, err := io.Copy(ios.Out, file)
		return err
	}
	head := make([]byte, client.BinaryHead)
	n, err := io.ReadFull(file, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return err
	}
	head = head[:n]
	if client.Binary(head, n < client.BinaryHead) {
		p := text.OneLine(filePath(opts, file))
		return fmt.Errorf("%s is a binary file%s; save it with `forge repo contents %s > FILE`", p, sizeNote(file.Size), p)
	}
	w := text.NewWriter(ios.Out)
	if _, err := w.Write(head); err != nil {
		return err
	}
	if _, err := io.Copy(w, file); err != nil {
		return err
	}
	return w.Flush()
}
