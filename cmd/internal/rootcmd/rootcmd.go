// Package rootcmd is forge's root command and the way a command line runs
// on it: the part of package cmd that the companions, forge-server and
// forge-mcp, share without linking forge's other commands (docs/DESIGN.md,
// "Start-up cost").
package rootcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// New is forge's root command alone: its help, version, global flags
// (--profile, --debug) and flag errors. Commands are added by the caller.
func New(f *cmdutil.Factory) *cobra.Command {
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
	globals.Do(setGlobals)
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

var globals sync.Once

// setGlobals sets cobra's package-level settings, once per process: they
// are globals, and tests build root commands in parallel.
func setGlobals() {
	// Every parent's persistent hooks run, not only the nearest one's, so
	// the root's interrupt handling survives subcommands with hooks.
	cobra.EnableTraverseRunHooks = true
	cobra.AddTemplateFunc("forgeVersion", build.String)
}

// Main runs a companion with the process's arguments and environment and
// returns the exit code: forge's root, for its global flags, errors and
// exit codes, with the one command cmd builds (forge-server's serve,
// forge-mcp's mcp) and no other.
func Main(cmd func(*cmdutil.Factory) *cobra.Command) int {
	f := cmdutil.New(iostreams.System(), os.Getenv)
	return Run(context.Background(), f, os.Args[1:], cmd)
}

// Run is Main with a Factory and arguments of the caller's (tests).
func Run(ctx context.Context, f *cmdutil.Factory, args []string, cmd func(*cmdutil.Factory) *cobra.Command) int {
	root := New(f)
	root.AddCommand(cmd(f))
	return Exit(f, Execute(ctx, root, args))
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
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	var reported *cmdutil.ExitError
	if err != nil && ctx.Err() != nil && !errors.As(err, &reported) && !errors.Is(err, context.Canceled) {
		// Canceled decides the exit code; the command's error stays
		// inside for what it says (where typed text was kept).
		err = fmt.Errorf("%w: %w", context.Canceled, err)
	}
	return err
}

// Exit prints err on stderr as forge does and returns the exit code.
func Exit(f *cmdutil.Factory, err error) int {
	if cmdutil.ShouldPrint(err) {
		if cmdutil.ExitCode(err) == cmdutil.ExitInterrupted {
			f.IOStreams.ErrPrintf("forge: %s\n", iostreams.Lines(cmdutil.InterruptedMessage(err)))
		} else {
			f.IOStreams.ErrPrintf("forge: %v\n", err) // an error keeps its lines: the hint
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
