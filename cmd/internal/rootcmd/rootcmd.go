// Package rootcmd is forge's root command and the way a command line runs
// on it: the part of package cmd that the companions, forge-server and
// forge-mcp, share without linking forge's other commands (docs/DESIGN.md,
// "Start-up cost"). It works with cmdcore's Globals, not cmdutil's
// Factory, so that forge-server links none of the service's clients.
package rootcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// New is forge's root command alone: its help, version, global flags
// (--profile, --debug, bound to g's) and flag errors. Commands are added
// by the caller.
func New(g *cmdcore.Globals) *cobra.Command {
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
		Args:          cmdcore.GroupArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	globals.Do(setGlobals)
	root.SetOut(g.IOStreams.Out)
	root.SetErr(g.IOStreams.ErrOut)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if uerr := cmdcore.GroupFlagError(cmd); uerr != nil {
			return uerr
		}
		if ferr := cmdcore.FlagError(err); ferr != err {
			return ferr
		}
		return &cmdcore.UsageError{Err: fmt.Errorf("%w; see `%s --help`", err, cmd.CommandPath())}
	})
	root.PersistentFlags().StringVar(&g.ProfileFlag, "profile", "", "Use the named configuration `profile` (also FORGE_PROFILE)")
	root.PersistentFlags().BoolVar(&g.DebugFlag, "debug", false, "Trace HTTP requests to stderr, secrets masked (also FORGE_DEBUG=1)")
	// cmd/completion replaces cobra's own `completion` command.
	root.CompletionOptions.DisableDefaultCmd = true

	return root
}

var globals sync.Once

// setGlobals sets cobra's package-level settings, once per process: they
// are globals, and tests build root commands in parallel.
func setGlobals() {
	// Every parent's persistent hooks run, not only the nearest one's, so
	// the root's interrupt handling survives subcommands with hooks.
	cobra.EnableTraverseRunHooks = true
}

// addVersionFlag gives root its --version (-v) as cobra would, before it
// runs: cobra then prints "forge version VERSION" (its default version
// function), and the flag's value fills VERSION in when it is set, from
// the build information (build.String), which no other start reads. A
// version template would say the same, but executing a template links
// text/template's reflection, which keeps every exported method of every
// type in the binary: 3.5 MB of forge-server, 3.8 MB of forge-mcp
// (bench/README.md, "Companions decided again").
func addVersionFlag(root *cobra.Command) {
	if root.Version == "" || root.Flags().Lookup("version") != nil {
		return
	}
	short := "v"
	if root.Flags().ShorthandLookup("v") != nil || root.PersistentFlags().ShorthandLookup("v") != nil {
		short = ""
	}
	fl := root.Flags().VarPF(&versionValue{root: root}, "version", short, "version for "+root.DisplayName())
	fl.NoOptDefVal = "true"
	_ = root.Flags().SetAnnotation("version", cobra.FlagSetByCobraAnnotation, []string{"true"})
}

// versionValue is --version's value: a bool, which sets root's Version
// to the build's description when true.
type versionValue struct {
	root *cobra.Command
	set  bool
}

func (v *versionValue) String() string   { return strconv.FormatBool(v.set) }
func (v *versionValue) Type() string     { return "bool" }
func (v *versionValue) IsBoolFlag() bool { return true }
func (v *versionValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	v.set = b
	if b {
		v.root.Version = strings.TrimPrefix(build.String(), v.root.DisplayName()+" version ")
	}
	return nil
}

// Main runs a companion with the process's arguments and returns the exit
// code: forge's root over g (the process's streams and environment), for
// its global flags, errors and exit codes, with cmd (forge-server's serve,
// forge-mcp's mcp, built over g) and no other command.
func Main(g *cmdcore.Globals, cmd *cobra.Command) int {
	return Run(context.Background(), g, os.Args[1:], cmd)
}

// Run is Main with arguments of the caller's (tests).
func Run(ctx context.Context, g *cmdcore.Globals, args []string, cmd *cobra.Command) int {
	root := New(g)
	root.AddCommand(cmd)
	return Exit(g.IOStreams, Execute(ctx, root, args))
}

// Execute runs root on args: Ctrl-C (or SIGTERM) cancels the command's
// context. The error is the command's; an interrupted command's is
// context.Canceled unless it has reported itself already (an ExitError:
// the demo's step that was stopped said "interrupted").
func Execute(parent context.Context, root *cobra.Command, args []string) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		watchInterrupt(ctx, cancel)
		return nil
	}
	addVersionFlag(root)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	var reported *cmdcore.ExitError
	if err != nil && ctx.Err() != nil && !errors.As(err, &reported) && !errors.Is(err, context.Canceled) {
		// Canceled decides the exit code; the command's error stays
		// inside for what it says (where typed text was kept).
		err = fmt.Errorf("%w: %w", context.Canceled, err)
	}
	return err
}

// Exit prints err on ios's stderr as forge does and returns the exit code.
func Exit(ios *iostreams.IOStreams, err error) int {
	if cmdcore.ShouldPrint(err) {
		if cmdcore.ExitCode(err) == cmdcore.ExitInterrupted {
			ios.ErrPrintf("forge: %s\n", iostreams.Lines(cmdcore.InterruptedMessage(err)))
		} else {
			ios.ErrPrintf("forge: %v\n", err) // an error keeps its lines: the hint
		}
	}
	return cmdcore.ExitCode(err)
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
