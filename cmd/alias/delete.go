package alias

import (
	"context"
	"maps"
	"slices"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

type deleteOptions struct {
	cmdutil.Deps
	name string
}

func newDeleteCmd(f *cmdutil.Factory, runF func(context.Context, *deleteOptions) error) *cobra.Command {
	opts := &deleteOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runDelete)
	return &cobra.Command{
		Use:     "delete NAME",
		Aliases: []string{"rm"},
		Short:   "Delete an alias",
		Example: `  forge alias delete bugs`,
		Args:    cmdcore.ExactArgs(1, "an alias NAME"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			all, _, _ := load(f.Getenv)
			return slices.Sorted(maps.Keys(all)), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return runF(cmd.Context(), opts)
		},
	}
}

func runDelete(_ context.Context, opts *deleteOptions) error {
	all, path, err := load(opts.Getenv)
	if err != nil {
		return err
	}
	if _, ok := all[opts.name]; !ok {
		return cmdcore.UsageErrorf("no alias %q; see `forge alias list`", opts.name)
	}
	delete(all, opts.name)
	if err := save(path, all); err != nil {
		return err
	}
	opts.IO.ErrPrintf("%s Deleted alias %s\n", opts.IO.ErrColorScheme().SuccessIcon(), opts.name)
	return nil
}
