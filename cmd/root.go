// Package cmd is forge's command tree. Each noun lives in a package of its
// own under cmd/; this package wires them to the root and turns the result
// into an exit code.
package cmd

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/cmd/account"
	"github.com/forgehq/forge/cmd/admin"
	"github.com/forgehq/forge/cmd/alias"
	"github.com/forgehq/forge/cmd/api"
	"github.com/forgehq/forge/cmd/auth"
	"github.com/forgehq/forge/cmd/browse"
	"github.com/forgehq/forge/cmd/chat"
	"github.com/forgehq/forge/cmd/companion"
	"github.com/forgehq/forge/cmd/companion/helptext"
	"github.com/forgehq/forge/cmd/completion"
	"github.com/forgehq/forge/cmd/demo"
	"github.com/forgehq/forge/cmd/image"
	"github.com/forgehq/forge/cmd/internal/rootcmd"
	"github.com/forgehq/forge/cmd/issue"
	"github.com/forgehq/forge/cmd/job"
	"github.com/forgehq/forge/cmd/mcp"
	"github.com/forgehq/forge/cmd/pr"
	"github.com/forgehq/forge/cmd/profile"
	"github.com/forgehq/forge/cmd/release"
	"github.com/forgehq/forge/cmd/repo"
	"github.com/forgehq/forge/cmd/run"
	"github.com/forgehq/forge/cmd/sshkey"
	"github.com/forgehq/forge/cmd/status"
	"github.com/forgehq/forge/cmd/tui"
	"github.com/forgehq/forge/cmd/version"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// Main runs forge with the process's arguments and environment and returns
// the exit code.
func Main() int { return MainTree(NewTree) }

// A Tree builds the command tree for a command line (see NewTree).
type Tree func(f *cmdutil.Factory, args []string) *cobra.Command

// MainTree is Main with the command tree tree builds.
func MainTree(tree Tree) int {
	f := cmdutil.New(iostreams.System(), os.Getenv)
	return RunTree(context.Background(), f, dispatchArgs(os.Args), tree)
}

// dispatchArgs is the command line forge runs: invoked as
// docker-credential-forge (a link on the PATH), it is a docker credential
// helper, `forge auth docker-credential ACTION`.
func dispatchArgs(argv []string) []string {
	if strings.TrimSuffix(filepath.Base(argv[0]), ".exe") == "docker-credential-forge" {
		return append([]string{"auth", "docker-credential"}, argv[1:]...)
	}
	return argv[1:]
}

// Run executes forge with args and returns the exit code; tests call it
// with their own Factory.
func Run(parent context.Context, f *cmdutil.Factory, args []string) int {
	return RunTree(parent, f, args, NewTree)
}

// RunTree is Run with the command tree tree builds for args.
func RunTree(parent context.Context, f *cmdutil.Factory, args []string, tree Tree) int {
	root := tree(f, args)
	args, sh, err := alias.Expand(f.Getenv, func(w string) bool {
		c, _, err := root.Find([]string{w})
		return err == nil && c != root || w == "help" || strings.HasPrefix(w, "__")
	}, args)
	if err == nil && sh != nil {
		return runShellAlias(parent, f, sh)
	}
	if err == nil {
		err = rootcmd.Execute(parent, root, output.NormalizeJSONArgs(root, completions.Args(args)))
	}
	return rootcmd.Exit(f.IOStreams, err)
}

// NewRootCmd builds the whole command tree. Building it reads nothing and
// connects nowhere. Its `serve` runs the forge-server companion, `demo`
// starts it as a child, and `mcp serve` runs the forge-mcp one (package
// companion): they link the reference server and the MCP SDK that forge
// does not.
func NewRootCmd(f *cmdutil.Factory) *cobra.Command { return NewTree(f, nil) }

// NewTree builds the command tree args need: when they name a command
// (`forge issue list`, `forge --profile dev issue list`), that command's
// subtree alone; when they name none but ask for the version, no command
// at all; otherwise (help, completion, an alias, a mistyped word) the
// whole tree. Building the whole tree costs about a millisecond of CPU
// that `forge --version` and every single command would otherwise pay
// (bench/README.md, "Start-up: the command tree built lazily").
func NewTree(f *cmdutil.Factory, args []string) *cobra.Command {
	root := rootcmd.New(&f.Globals)
	setCobraGlobals()
	flagError := root.FlagErrorFunc()
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if herr := habitError(cmd, err); herr != nil {
			return herr
		}
		return flagError(cmd, err)
	})
	word, wantsVersion := firstWord(args)
	one := -1
	for i, n := range nouns {
		if n.name == word {
			one = i
		}
	}
	switch {
	case one >= 0 && !nouns[one].whole:
		root.AddCommand(nouns[one].cmd(f))
	case word == "" && wantsVersion:
	default:
		for _, n := range nouns {
			root.AddCommand(n.cmd(f))
		}
	}
	addHelpTopics(root)
	strictHelp(root)
	completions.Register(root, f)
	return root
}

// noun is one of forge's commands, built only when a command line needs
// it (NewTree). A command that reads the tree it is in (alias set asks
// whether a word is a command; completion writes the tree's script; the
// demo offers `forge tui` when there is one) is whole: it runs in the
// whole tree.
type noun struct {
	name  string
	build func(*cmdutil.Factory) *cobra.Command
	whole bool
}

// cmd builds the command. The demo's entry names no constructor: the demo
// runs forge's command lines (Run), which read the table, and a table
// naming it would depend on itself (an initialisation cycle), so it is
// named here, outside the table.
func (n noun) cmd(f *cmdutil.Factory) *cobra.Command {
	if n.build == nil {
		return demo.NewCmd(f, Run)
	}
	return n.build(f)
}

// nouns are forge's commands, in the order help lists them; their names
// are the commands' own (TestNounNames).
var nouns = []noun{
	{"version", version.NewCmd, false},
	{"profile", profile.NewCmd, false},
	{"auth", auth.NewCmd, false},
	{"account", account.NewCmd, false},
	{"ssh-key", sshkey.NewCmd, false},
	{"chat", chat.NewCmd, false},
	{"serve", newServe, false},
	{"image", image.NewCmd, false},
	{"run", run.NewCmd, false},
	{"job", job.NewCmd, false},
	{"admin", admin.NewCmd, false},
	{"mcp", mcp.NewCmd, false},
	{"api", api.NewCmd, false},
	{"repo", repo.NewCmd, false},
	{"issue", issue.NewCmd, false},
	{"pr", pr.NewCmd, false},
	{"release", release.NewCmd, false},
	{"demo", nil, true},
	{"completion", completion.NewCmd, true},
	{"tui", tui.NewCmd, false},
	{"browse", newBrowse, false},
	{"alias", alias.NewCmd, true},
	{"status", status.NewCmd, false},
}

// The constructors of the nouns that take more than the Factory: named
// functions, so that the table needs no init() work.
func newServe(f *cmdutil.Factory) *cobra.Command  { return companion.NewCmd(f, helptext.Serve) }
func newBrowse(f *cmdutil.Factory) *cobra.Command { return browse.NewCmd(f, nil) }

// firstWord is args' first word that is not a root flag or a root flag's
// value, and whether args ask for the version (--version, -v) and not for
// help, which cobra answers first.
func firstWord(args []string) (word string, version bool) {
	help := false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return "", false
		case a == "--profile":
			i++
		case a == "--version" || a == "-v":
			version = true
		case a == "--help" || a == "-h":
			help = true
		case strings.HasPrefix(a, "-"):
			// --profile=NAME, --debug: no value to skip.
		default:
			return a, version && !help
		}
	}
	return "", version && !help
}

var cobraGlobals sync.Once

// setCobraGlobals sets cobra's package-level settings, once per process:
// they are globals, and tests build root commands in parallel.
func setCobraGlobals() {
	cobraGlobals.Do(func() {
		cobra.AddTemplateFunc("forgeHelpTopics", helpTopicsSection)
	})
}

// runShellAlias runs a "!" alias's shell command with forge's streams and
// returns its exit code.
func runShellAlias(ctx context.Context, f *cmdutil.Factory, sh *exec.Cmd) int {
	ios := f.IOStreams
	sh.Stdin, sh.Stdout, sh.Stderr = ios.In, ios.Out, ios.ErrOut
	err := sh.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	case ctx.Err() != nil:
		return cmdcore.ExitInterrupted
	}
	ios.ErrPrintf("forge: running the alias: %v\n", err)
	return cmdcore.ExitFailure
}
