// Package completion implements `forge completion SHELL`, which prints the
// script that makes a shell complete forge's commands, flags and values.
// The values (profiles, repositories, issue numbers, ...) come from forge
// itself at TAB time, through cobra's hidden __complete command; the
// functions behind them live in the completions package.
package completion

import (
	"context"
	"io"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

var shells = []string{"bash", "zsh", "fish", "powershell"}

// NewCmd returns `forge completion`.
func NewCmd(f *cmdutil.Factory) *cobra.Command { return newCompletionCmd(f, nil) }

type completionOptions struct {
	cmdutil.Deps
	root   *cobra.Command // the tree the script completes
	shell  string
	noDesc bool
}

func newCompletionCmd(f *cmdutil.Factory, runF func(context.Context, *completionOptions) error) *cobra.Command {
	opts := &completionOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runCompletion)
	cmd := &cobra.Command{
		Use:   "completion {bash|zsh|fish|powershell}",
		Short: "Print the shell completion script for bash, zsh, fish or PowerShell",
		Long: `Print a script that makes your shell complete forge's commands and flags,
and their values from the service: profile names, OWNER/REPO for -R
(cached for a minute under $XDG_CACHE_HOME/forge), open issue numbers
for issue close and closed ones for reopen, run IDs, models, image
repositories and tags, and --json field names. A slow or unreachable
server never holds up a TAB for more than about two seconds: it just
offers nothing. Completion never prompts and never prints anything else.

bash (best with the bash-completion package; without it, words are split
at : and = as bash splits them):
  source <(forge completion bash)          # this shell only
  forge completion bash > ~/.local/share/bash-completion/completions/forge

zsh:
  forge completion zsh > "${fpath[1]}/_forge"    # then start a new shell
  # or, in ~/.zshrc after compinit: source <(forge completion zsh)

fish:
  forge completion fish > ~/.config/fish/completions/forge.fish

PowerShell:
  forge completion powershell | Out-String | Invoke-Expression
  # add that line to $PROFILE to keep it

The deb and rpm packages install the bash, zsh and fish scripts already.`,
		Example: `  source <(forge completion bash)
  forge completion zsh > "${fpath[1]}/_forge"
  forge completion fish --no-descriptions > ~/.config/fish/completions/forge.fish`,
		ValidArgs: shells,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cmdcore.UsageErrorf("name a shell: forge completion {bash|zsh|fish|powershell}")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.root, opts.shell = cmd.Root(), args[0]
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.noDesc, "no-descriptions", false, "Offer values without their descriptions")
	return cmd
}

func runCompletion(_ context.Context, opts *completionOptions) error {
	return write(opts.IO.Out, opts.root, opts.shell, !opts.noDesc)
}

func write(w io.Writer, root *cobra.Command, shell string, desc bool) error {
	switch shell {
	case "bash":
		if _, err := io.WriteString(w, bashFallbacks); err != nil {
			return err
		}
		return root.GenBashCompletionV2(w, desc)
	case "zsh":
		if desc {
			return root.GenZshCompletion(w)
		}
		return root.GenZshCompletionNoDesc(w)
	case "fish":
		return root.GenFishCompletion(w, desc)
	case "powershell":
		if desc {
			return root.GenPowerShellCompletionWithDesc(w)
		}
		return root.GenPowerShellCompletion(w)
	}
	return cmdcore.UsageErrorf("unknown shell %q: forge completion supports bash, zsh, fish and powershell", shell)
}

// bashFallbacks stand in for the two bash-completion functions cobra's
// script calls, where that package is not installed: without them every
// TAB printed "_get_comp_words_by_ref: command not found". They split
// words as bash does (no joining of words around : and =).
const bashFallbacks = `# forge: minimal stand-ins for bash-completion's helpers, used only
# where that package is not loaded.
if ! declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
_get_comp_words_by_ref() {
    while (( $# )); do
        case $1 in
        -n) shift ;;
        cur) cur=${COMP_WORDS[COMP_CWORD]} ;;
        prev) prev=${COMP_WORDS[COMP_CWORD-1]} ;;
        words) words=("${COMP_WORDS[@]}") ;;
        cword) cword=$COMP_CWORD ;;
        esac
        shift
    done
}
fi
if ! declare -F _filedir >/dev/null 2>&1; then
_filedir() { local IFS=$'\n'; COMPREPLY=($(compgen -f -- "${cur-}")); }
fi
`
