package image

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/spf13/cobra"
)

type listOptions struct {
	cmdutil.Deps
	all      bool
	exporter *output.Exporter
}

func newListCmd(f *cmdutil.Factory, runF func(context.Context, *listOptions) error) *cobra.Command {
	opts := &listOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runList)
	cmd := &cobra.Command{
		Use:     "list [--all]",
		Aliases: []string{"ls"},
		Short:   "List the repositories you may pull",
		Long: `List the repositories of the registry you may pull: your own and those
shared with you. --all lists every repository with its tags (site admins only).`,
		Example: `  forge image list
  forge image list --all
  forge image list --json name --jq '.[].name'`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runF(cmd.Context(), opts) },
	}
	cmd.Flags().BoolVarP(&opts.all, "all", "a", false, "List every repository of the registry (site admins)")
	opts.exporter = output.AddJSONFlags(cmd, "name", "namespace", "tags", "updated_at")
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	ios := opts.IO
	c, err := opts.Registry()
	if err != nil {
		return err
	}
	if opts.all {
		repos, raw, err := c.AdminCatalog(ctx)
		if err != nil {
			return err
		}
		if opts.exporter.Enabled() {
			if raw == nil {
				raw = []json.RawMessage{}
			}
			return opts.exporter.Write(ios, raw)
		}
		t := output.NewTable(ios, "REPOSITORY", "TAGS", "UPDATED")
		for _, r := range repos {
			t.Add(r.Name, output.Bold)
			t.Add(strings.Join(r.Tags, ", "))
			t.AddTime(r.UpdatedAt)
			t.EndRow()
		}
		return t.Render()
	}
	names, err := c.Catalog(ctx)
	if err != nil {
		return err
	}
	if opts.exporter.Enabled() {
		list := make([]map[string]string, len(names))
		for i, n := range names {
			ns, _, _ := strings.Cut(n, "/")
			list[i] = map[string]string{"name": n, "namespace": ns}
		}
		return opts.exporter.Write(ios, list)
	}
	if len(names) == 0 && ios.IsStdoutTTY() {
		ios.ErrPrintln("No repositories yet; push one with `forge image push SRC REF`.")
		return nil
	}
	t := output.NewTable(ios, "REPOSITORY")
	for _, n := range names {
		t.Add(n, output.Bold)
		t.EndRow()
	}
	return t.Render()
}
