package sshkey

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/spf13/cobra"
)

var keyFields = []string{"id", "title", "fingerprint", "key", "created_at"}

type listOptions struct {
	cmdutil.Deps
	exporter *output.Exporter
}

func newListCmd(f *cmdutil.Factory, runF func(context.Context, *listOptions) error) *cobra.Command {
	opts := &listOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runList)
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List your SSH keys",
		Example: `  forge ssh-key list
  forge ssh-key list --json id,fingerprint`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	opts.exporter = output.AddJSONFlags(cmd, keyFields...)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	keys, err := client.Collect(c.Keys.List(ctx, client.ListOptions{PerPage: 100}), 0)
	if err != nil {
		return err
	}
	ios := opts.IO
	if opts.exporter.Enabled() {
		raw := make([]json.RawMessage, 0, len(keys))
		for _, k := range keys {
			raw = append(raw, k.RawJSON())
		}
		return opts.exporter.Write(ios, raw)
	}
	if len(keys) == 0 {
		if ios.IsStdoutTTY() {
			ios.ErrPrintln("No SSH keys yet; add one with `forge ssh-key add`.")
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
