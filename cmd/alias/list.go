package alias

import (
	"context"
	"maps"
	"slices"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/spf13/cobra"
)

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
		Short:   "List the aliases",
		Long:    "List the aliases: on a terminal a table, piped one NAME<TAB>EXPANSION line each.",
		Example: `  forge alias list
  forge alias list --json name,expansion`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	opts.exporter = output.AddJSONFlags(cmd, "name", "expansion")
	return cmd
}

func runList(_ context.Context, opts *listOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	all, _, err := load(opts.Getenv)
	if err != nil {
		return err
	}
	names := slices.Sorted(maps.Keys(all))
	ios := opts.IO
	if opts.exporter.Enabled() {
		recs := []map[string]string{}
		for _, n := range names {
			recs = append(recs, map[string]string{"name": n, "expansion": all[n]})
		}
		return opts.exporter.Write(ios, recs)
	}
	if len(names) == 0 {
		if ios.IsStdoutTTY() {
			ios.ErrPrintln("No aliases yet; add one with `forge alias set NAME EXPANSION`.")
		}
		return nil
	}
	t := output.NewTable(ios, "NAME", "EXPANSION")
	t.KeepWhole("NAME")
	for _, n := range names {
		t.Add(n, output.Bold)
		t.Add(all[n])
		t.EndRow()
	}
	return t.Render()
}
