package sshkey

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/output"
	"github.com/spf13/cobra"
)

var keyFields = []string{"id", "title", "fingerprint", "key", "created_at"}

type listOptions struct {
	f        *cmdutil.Factory
	exporter *output.Exporter
}

func newListCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &listOptions{f: f}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List your SSH keys",
		Example: `  forge ssh-key list
  forge ssh-key list --json id,fingerprint`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runList(cmd.Context(), opts)
		},
	}
	opts.exporter = output.AddJSONFlags(cmd, keyFields...)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	c, err := opts.f.REST()
	if err != nil {
		return err
	}
	keys, err := client.Collect(c.Keys.List(ctx, client.ListOptions{PerPage: 100}), 0)
	if err != nil {
		return err
	}
	ios := opts.f.IOStreams
	if opts.exporter.Enabled() {
		raw := make([]json.RawMessage, 0, len(keys))
		for _, k := range keys {
			raw = append(raw, k.RawJSON())
		}
		return opts.exporter.Write(ios, raw)
	}
	if len(keys) == 0 {
		if ios.IsStdoutTTY() {
			fmt.Fprintln(ios.ErrOut, "No SSH keys yet; add one with `forge ssh-key add`.")
		}
		return nil
	}
	t := output.NewTable(ios, "ID", "TITLE", "FINGERPRINT", "ADDED")
	t.KeepWhole("ID", "FINGERPRINT")
	for _, k := range keys {
		t.Add(fmt.Sprint(k.ID), output.Cyan)
		t.Add(k.Title, output.Bold)
		t.Add(k.Fingerprint)
		if k.CreatedAt.IsZero() {
			t.Add("")
		} else {
			t.AddTime(k.CreatedAt.Time)
		}
		t.EndRow()
	}
	return t.Render()
}
