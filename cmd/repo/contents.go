package repo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/output"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

var contentFields = []string{"name", "path", "type", "size", "sha", "html_url", "encoding", "content"}

type contentsOptions struct {
	f        *cmdutil.Factory
	repoFlag string
	path     string
	ref      string
	exporter *output.Exporter
}

func newContentsCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &contentsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "contents [PATH]",
		Short: "List a directory or print a file of a repository",
		Long: `For a directory (the top one by default), list its entries: on a terminal a
table, piped one "name<TAB>type<TAB>size" line each. For a file, print its
content exactly, bytes as stored, so binary files can be redirected:
` + "`forge repo contents logo.png > logo.png`" + `. On a terminal forge refuses
to print a binary file and says how to save it.

--ref reads at a branch, tag or commit instead of the default branch.`,
		Example: `  forge repo contents -R alice/demo
  forge repo contents src --ref v1.0
  forge repo contents README.md
  forge repo contents --json name,type --jq '.[] | select(.type == "dir") | .name'`,
		Args: cmdutil.MaximumArgs(1, "at most one PATH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.path = args[0]
			}
			return runContents(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().StringVar(&opts.ref, "ref", "", "Read at this `branch, tag or commit`")
	opts.exporter = output.AddJSONFlags(cmd, contentFields...)
	return cmd
}

func runContents(ctx context.Context, opts *contentsOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	c, name, err := opts.f.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return err
	}
	file, dir, err := c.Repos.Contents(ctx, name, opts.path, client.ContentsOptions{Ref: opts.ref})
	if err != nil {
		return err
	}
	ios := opts.f.IOStreams
	if opts.exporter.Enabled() {
		if file != nil {
			return opts.exporter.Write(ios, file.RawJSON())
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
		fmt.Fprintln(ios.ErrOut, "The directory is empty.")
	}
	return t.Render()
}

// printFile writes a file's bytes to stdout unchanged; a terminal gets
// only text, sanitized.
func printFile(opts *contentsOptions, file *client.Content) error {
	b, err := file.Decoded()
	if err != nil {
		return err
	}
	ios := opts.f.IOStreams
	if ios.IsStdoutTTY() && isBinary(b) {
		return fmt.Errorf("%s is a binary file (%d bytes); save it with `forge repo contents %s > FILE`", file.Path, len(b), file.Path)
	}
	if ios.IsStdoutTTY() {
		_, err = io.WriteString(ios.Out, text.Sanitize(string(b)))
		return err
	}
	_, err = ios.Out.Write(b)
	return err
}

// isBinary guesses as git does: a NUL byte in the first 8000 bytes, or
// text that is not UTF-8.
func isBinary(b []byte) bool {
	head := b[:min(len(b), 8000)]
	return bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(head) && !utf8.Valid(b)
}
