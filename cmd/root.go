// Package cmd is forge's command tree. Each noun lives in a package of its
// own under cmd/; this package wires them to the root and turns the result
// into an exit code.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/cmd/account"
	"github.com/forgehq/forge/cmd/admin"
	"github.com/forgehq/forge/cmd/alias"
	"github.com/forgehq/forge/cmd/api"
	"github.com/forgehq/forge/cmd/auth"
	"github.com/forgehq/forge/cmd/browse"
	"github.com/forgehq/forge/cmd/chat"
	"github.com/forgehq/forge/cmd/companion"
	"github.com/forgehq/forge/cmd/completion"
	"github.com/forgehq/forge/cmd/image"
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
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// Main runs forge with the process's arguments and environment and returns
// the exit code.
func Main() int { return MainTree(NewTree) }

// A Tree builds the command tree for a command line (see NewTree).
type Tree func(f *cmdutil.Factory, args []string) *cobra.Command

// MainTree is Main with the command tree tree builds: forge-server's
// (package withserver) runs `serve` and `demo` in its own process.
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
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	root := tree(f, args)
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		watchInterrupt(ctx, cancel)
		return nil
	}
	args, sh, err := alias.Expand(f.Getenv, func(w string) bool {
		c, _, err := root.Find([]string{w})
		return err == nil && c != root || w == "help" || strings.HasPrefix(w, "__")
	}, args)
	if err == nil && sh != nil {
		return runShellAlias(ctx, f, sh)
	}
	if err == nil {
		root.SetArgs(output.NormalizeJSONArgs(root, completions.Args(args)))
		err = root.ExecuteContext(ctx)
	}
	// Interrupted, the command's error is that; but an ExitError has been
	// reported already (the demo's step that was stopped said
	// "interrupted" itself) and keeps its code without a second line.
	var reported *cmdutil.ExitError
	if err != nil && ctx.Err() != nil && !errors.As(err, &reported) {
		err = context.Canceled
	}
	if cmdutil.ShouldPrint(err) {
		if cmdutil.ExitCode(err) == cmdutil.ExitInterrupted {
			fmt.Fprintln(f.IOStreams.ErrOut, "forge: interrupted")
		} else {
			fmt.Fprintf(f.IOStreams.ErrOut, "forge: %s\n", cmdutil.ErrorMessage(f.IOStreams, err))
		}
	}
	return cmdutil.ExitCode(err)
}

// watchInterrupt makes Ctrl-C (or SIGTERM) cancel the running command's
// context, so it stops its request and forge exits 130; a second Ctrl-C
// kills forge at once. It is installed only when a command runs: setting up
// signal delivery costs about half a millisecond, which `forge --version`
// and help (answered by cobra before any hook) do not pay.
func watchInterrupt(ctx context.Context, cancel context.CancelFunc) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-ch:
			cancel()
			signal.Stop(ch)
		case <-ctx.Done():
			signal.Stop(ch)
		}
	}()
}

// NewRootCmd builds the whole command tree. Building it reads nothing and
// connects nowhere. Its `serve` and `demo` run the forge-server companion
// and `mcp serve` the forge-mcp one (package companion), which link the
// reference server and the MCP SDK that forge does not.
func NewRootCmd(f *cmdutil.Factory) *cobra.Command { return NewTree(f, nil) }

// NewTree builds the command tree args need: when they name a command
// (`forge issue list`, `forge --profile dev issue list`), that command's
// subtree alone; when they name none but ask for the version, no command
// at all; otherwise (help, completion, an alias, a mistyped word) the
// whole tree. Building the whole tree costs about a millisecond of CPU
// that `forge --version` and every single command would otherwise pay
// (bench/README.md, "Start-up: the command tree built lazily").
func NewTree(f *cmdutil.Factory, args []string) *cobra.Command {
	root := newRoot(f)
	word, wantsVersion := firstWord(args)
	one := -1
	for i, n := range nouns {
		if n.name == word {
			one = i
		}
	}
	switch {
	case one >= 0:
		root.AddCommand(nouns[one].build(f))
	case word == "" && wantsVersion:
	default:
		for _, n := range nouns {
			root.AddCommand(n.build(f))
		}
	}
	addHelpTopics(root)
	strictHelp(root)
	completions.Register(root, f)
	return root
}

// nouns are forge's commands, in the order help lists them; each is built
// only when a command line needs it (NewTree). Their names are the
// commands' own (TestNounNames).
var nouns = []struct {
	name  string
	build func(*cmdutil.Factory) *cobra.Command
}{
	{"version", version.NewCmd},
	{"profile", profile.NewCmd},
	{"auth", auth.NewCmd},
	{"account", account.NewCmd},
	{"ssh-key", sshkey.NewCmd},
	{"chat", chat.NewCmd},
	{companion.Serve.Name, func(f *cmdutil.Factory) *cobra.Command { return companion.NewCmd(f, companion.Serve) }},
	{"image", image.NewCmd},
	{"run", run.NewCmd},
	{"job", job.NewCmd},
	{"admin", admin.NewCmd},
	{"mcp", mcp.NewCmd},
	{"api", api.NewCmd},
	{"repo", repo.NewCmd},
	{"issue", issue.NewCmd},
	{"pr", pr.NewCmd},
	{"release", release.NewCmd},
	{companion.Demo.Name, func(f *cmdutil.Factory) *cobra.Command { return companion.NewCmd(f, companion.Demo) }},
	{"completion", completion.NewCmd},
	{"tui", tui.NewCmd},
	{"browse", func(f *cmdutil.Factory) *cobra.Command { return browse.NewCmd(f, nil) }},
	{"alias", alias.NewCmd},
	{"status", status.NewCmd},
}

// firstWord is args' first word that is not a root flag or a root flag's
// value, and whether args ask for the version (--version, -v).
func firstWord(args []string) (word string, version bool) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return "", false
		case a == "--profile":
			i++
		case a == "--version" || a == "-v":
			version = true
		case strings.HasPrefix(a, "-"):
			// --profile=NAME, --debug, --help: no value to skip.
		default:
			return a, version
		}
	}
	return "", version
}

// newRoot is the root command alone.
func newRoot(f *cmdutil.Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "forge <command> <subcommand> [flags]",
		Short: "Work with the hosting service from the command line",
		Long: `forge works with the hosting service from your terminal and from CI:
git repositories, issues, pull requests, releases and CI runs; your account
and two-factor authentication; the agent chat; and the container registry.`,
		Example: `  forge profile add dev --base-url http://127.0.0.1:8080/api/v2
  forge profile use dev
  forge profile show`,
		Version:       build.Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cmdutil.GroupArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	setCobraGlobals()
	root.SetVersionTemplate("{{forgeVersion}}\n")
	root.SetOut(f.IOStreams.Out)
	root.SetErr(f.IOStreams.ErrOut)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if uerr := cmdutil.GroupFlagError(cmd); uerr != nil {
			return uerr
		}
		if ferr := cmdutil.FlagError(err); ferr != err {
			return ferr
		}
		return &cmdutil.UsageError{Err: fmt.Errorf("%w; see `%s --help`", err, cmd.CommandPath())}
	})
	root.PersistentFlags().StringVar(&f.ProfileFlag, "profile", "", "Use the named configuration `profile` (also FORGE_PROFILE)")
	root.PersistentFlags().BoolVar(&f.DebugFlag, "debug", false, "Trace HTTP requests to stderr, secrets masked (also FORGE_DEBUG=1)")
	// cmd/completion replaces cobra's own `completion` command.
	root.CompletionOptions.DisableDefaultCmd = true

	return root
}

var cobraGlobals sync.Once

// setCobraGlobals sets cobra's package-level settings, once per process:
// they are globals, and tests build root commands in parallel.
func setCobraGlobals() {
	cobraGlobals.Do(func() {
		// Every parent's persistent hooks run, not only the nearest one's,
		// so the root's interrupt handling survives subcommands with hooks.
		cobra.EnableTraverseRunHooks = true
		cobra.AddTemplateFunc("forgeVersion", build.String)
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
		return cmdutil.ExitInterrupted
	}
	fmt.Fprintf(ios.ErrOut, "forge: running the alias: %v\n", err)
	return cmdutil.ExitFailure
}
