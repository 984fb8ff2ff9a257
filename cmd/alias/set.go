package alias

import (
	"context"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

type setOptions struct {
	cmdutil.Deps
	name, expansion string
}

func newSetCmd(f *cmdutil.Factory, runF func(context.Context, *setOptions) error) *cobra.Command {
	opts := &setOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runSet)
	return &cobra.Command{
		Use:   "set NAME EXPANSION",
		Short: "Create or change an alias",
		Example: `  forge alias set bugs 'issue list --search bug'
  forge alias set co 'pr checkout'
  forge alias set open '!forge browse "$1"'`,
		Args: cmdcore.Operands("NAME", "EXPANSION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, exp := strings.TrimSpace(args[0]), strings.TrimSpace(args[1])
			if name == "" || strings.ContainsAny(name, " \t\n/\\") || strings.HasPrefix(name, "-") {
				return cmdcore.UsageErrorf("an alias NAME is one word, as in `forge alias set bugs 'issue list --search bug'`")
			}
			if exp == "" || exp == "!" {
				return cmdcore.UsageErrorf("the EXPANSION is empty")
			}
			if c, _, err := cmd.Root().Find([]string{name}); err == nil && c != cmd.Root() {
				return cmdcore.UsageErrorf("%q is a forge command already; pick another NAME", name)
			}
			if !strings.HasPrefix(exp, "!") {
				word := strings.Fields(exp)[0]
				if c, _, err := cmd.Root().Find([]string{word}); err != nil || c == cmd.Root() {
					return cmdcore.UsageErrorf("the expansion must start with a forge command (%q is none), or with ! for a shell command", word)
				}
			}
			opts.name, opts.expansion = name, exp
			return runF(cmd.Context(), opts)
		},
	}
}

func runSet(_ context.Context, opts *setOptions) error {
	name, exp := opts.name, opts.expansion
	all, path, err := load(opts.Getenv)
	if err != nil {
		return err
	}
	old, had := all[name]
	all[name] = exp
	if err := save(path, all); err != nil {
		return err
	}
	cs := opts.IO.ErrColorScheme()
	if had && old != exp {
		opts.IO.ErrPrintf("%s Changed alias %s (was: %s)\n", cs.SuccessIcon(), name, old)
	} else {
		opts.IO.ErrPrintf("%s Added alias %s\n", cs.SuccessIcon(), name)
	}
	return nil
}
