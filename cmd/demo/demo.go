// Package demo implements `forge demo`: a guided tour of forge's main jobs
// against the bundled reference server, which it starts as a child
// process (forge-server, found as `forge serve` finds it: package
// companion) and whose commands it runs in forge's own process.
package demo

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// password is every demo account's password, as forge-server's --demo
// seeds them (refserver.DemoPassword, which forge does not link; the
// tests check the two agree).
const password = "forge-demo-password"

// Runner runs one forge command line with a Factory and returns its exit
// code: cmd.Run, passed in because this package cannot import the root.
type Runner func(ctx context.Context, f *cmdutil.Factory, args []string) int

// Options hold `forge demo`'s settings.
type Options struct {
	cmdutil.Deps
	run Runner
	// root is the command tree, to tell whether `forge tui` exists.
	root *cobra.Command

	// CITick and AgentDelay pace the server's CI runs and chat stream
	// (forge-server's --ci-tick and --agent-delay); WatchInterval is `run
	// watch`'s polling interval. The defaults let a person follow along;
	// tests make them short.
	CITick        time.Duration
	AgentDelay    time.Duration
	WatchInterval string
}

// NewCmd returns `forge demo`.
func NewCmd(f *cmdutil.Factory, run Runner) *cobra.Command { return newDemoCmd(f, run, nil) }

func newDemoCmd(f *cmdutil.Factory, run Runner, runF func(context.Context, *Options) error) *cobra.Command {
	opts := NewOptions(f, run)
	runF = cmdcore.Seam(runF, Run)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Tour forge's main jobs on a throw-away reference server",
		Long: `Start the reference server (forge-server, which ` + "`forge serve`" + ` runs) as a
child process on a free loopback port, in memory and seeded with demo data,
and walk through forge's main jobs as alice, one of the demo users: log in,
create a repository, open and close an issue, watch a CI run, turn on
two-factor authentication (with the QR code), ask the agent a question and
see the reply stream in, push a small generated image to the registry and
list its tags.

Each command is printed, after a "$", before its output, which is what you
would see typing it yourself; forge runs it in its own process. Nothing
touches your own configuration: the demo uses a directory of its own under
$TMPDIR (forge-demo-*), removed however the demo ends — done, failed,
Ctrl-C, SIGTERM, a closed terminal (a second signal ends it at once, still
removing it); the next demo removes one left by a forge killed outright.
The server ends with the demo, every way it ends: the demo stops it, and
one whose forge was killed outright stops when the pipe forge held as its
stdin closes.

forge-server is found beside forge, else (forge run from its own clone, as
` + "`go run ./cmd/forge demo`" + `) built from that clone, else on the PATH.

The QR code step draws the code as on a terminal even when the demo's
output is not one, so it shows in a CI log too; the demo then plays your
authenticator app, reading the secret shown below the code, and confirms
the enrolment with the current code.

On a terminal the server stays up at the end: the demo prints the
settings to use it from another shell, offers ` + "`forge tui`" + ` on it, and
then waits until Enter (or Ctrl-C) stops it. Without a terminal the demo
exits as soon as the tour is done: 0 when every step succeeded, else the
failing step's exit code.

The demo ends with what to do next: forge on your PATH, ` + "`forge serve --demo`" + `
in one terminal (a server to keep using), a login as a demo user in another.`,
		Example: `  forge demo
  go run ./cmd/forge demo
  forge demo > tour.txt`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.root = cmd.Root()
			return runF(cmd.Context(), opts)
		},
	}
	return cmd
}

// NewOptions returns the demo's settings at a pace a person can follow.
func NewOptions(f *cmdutil.Factory, run Runner) *Options {
	return &Options{Deps: f.Deps(), run: run, CITick: 300 * time.Millisecond, AgentDelay: 15 * time.Millisecond, WatchInterval: "1s"}
}

// Run runs the demo: the tour, then (on a terminal) the server kept up.
func Run(ctx context.Context, opts *Options) error {
	removeStale(os.TempDir())
	dir, err := os.MkdirTemp("", dirPattern)
	if err != nil {
		return fmt.Errorf("making the demo's directory: %w", err)
	}
	defer os.RemoveAll(dir)
	markOwner(dir)
	left := &leftovers{dir: dir}
	ctx, stop := removeOnSignal(ctx, left)
	// Removed while signals are still taken: a second one meanwhile ends
	// the demo at once, still removing them (removing twice does no harm).
	defer func() {
		left.remove()
		stop()
	}()
	srv, err := startServer(ctx, opts)
	if err != nil {
		return err
	}
	left.setServer(srv)

	t := newTour(ctx, opts, srv, dir)
	t.say("forge demo: the reference server (forge-server) is up at %s,\n"+
		"seeded with demo users, repositories, issues and CI runs. The tour runs as\n"+
		"alice, a demo user, with a configuration of its own in %s.", srv.url, dir)
	if err := t.walk(); err != nil {
		return err
	}
	t.say("The tour is done: every step succeeded.")
	// The server stays up only for someone at a terminal to stop it.
	if opts.IO.CanPrompt() {
		if err := t.linger(); err != nil {
			return err
		}
	}
	nextSteps(opts.IO)
	return nil
}

// nextSteps ends the demo with the way from it to a first session of one's
// own: forge on the PATH, `forge serve --demo` in one terminal, a login as
// a demo user in another (README.md, "Getting started", says the same).
func nextSteps(ios *iostreams.IOStreams) {
	cs := ios.ColorScheme()
	ios.Printf("\n%s\n", cs.Bold("What next: forge on a server of your own, with the demo's data."))
	for _, l := range []string{
		"1. Put forge on your PATH with its companions, forge-server (the server that",
		"   forge serve and this demo run) and forge-mcp (forge mcp serve), from a clone",
		"   (README.md, \"Install\", has the other ways):",
		"     go build -o ~/.local/bin/ ./cmd/forge ./cmd/forge-server ./cmd/forge-mcp",
		"2. In one terminal, start the reference server (Ctrl-C stops it; started again,",
		"   it has kept everything; forge serve --help says where):",
		"     forge serve --demo --env-file forge.env",
		"3. In another terminal, in the same directory, load its settings and log in",
		"   as a demo user (alice, bob, carol, dave or erin):",
		"     set -a; . ./forge.env; set +a",
		"     export FORGE_PROFILE=demo",
		"     echo " + password + " | forge auth login --username alice --password-stdin",
		"4. Work as alice, then take the README's tour:",
		"     forge issue list -R alice/webapp",
		"     forge run list -R alice/webapp",
		"     forge tui",
	} {
		ios.Println(l)
	}
}

// env is the environment of the demo's commands: its own configuration,
// cache and home, the agent's address and key, and the user's display
// preferences (colour, width); nothing else of the user's, so neither
// their profile nor a FORGE_TOKEN in their shell leaks in.
func (t *tour) env(key string) string {
	switch key {
	case "FORGE_CONFIG_DIR":
		return filepath.Join(t.dir, "config")
	case "XDG_CACHE_HOME":
		return filepath.Join(t.dir, "cache")
	case "HOME":
		return filepath.Join(t.dir, "home")
	case "AGENT_URL":
		return t.srv.agentURL
	case "AGENT_API_KEY":
		return t.srv.agentKey
	case "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM", "COLUMNS", "COLORFGBG":
		return t.opts.Getenv(key)
	}
	return ""
}

// linger keeps the server up for the user: it prints how to reach it from
// another shell, offers `forge tui` when forge has one, and then waits for
// Enter or Ctrl-C.
func (t *tour) linger() error {
	ios := t.opts.IO
	ios.Printf("\nThe server stays up. To use it from another shell (as alice):\n\n")
	ios.Printf("  export FORGE_CONFIG_DIR=%s\n", t.env("FORGE_CONFIG_DIR"))
	ios.Printf("  export AGENT_URL=%s AGENT_API_KEY=%s\n\n", t.env("AGENT_URL"), t.env("AGENT_API_KEY"))
	if t.hasTUI() {
		ok, err := t.opts.Prompter.Confirm(t.ctx, "Open forge tui on this server?", true)
		if err != nil {
			return err
		}
		if ok {
			if err := t.exec(step{args: []string{"tui"}, interactive: true}); err != nil {
				return err
			}
			ios.Println()
		}
	}
	ios.ErrPrintf("Press Enter (or Ctrl-C) to stop the server.\n")
	read := make(chan struct{})
	go func() {
		bufio.NewReader(ios.In).ReadString('\n')
		close(read)
	}()
	select {
	case <-read:
	case <-t.ctx.Done():
	}
	return nil
}

func (t *tour) hasTUI() bool {
	if t.opts.root == nil {
		return false
	}
	c, _, err := t.opts.root.Find([]string{"tui"})
	return err == nil && c != t.opts.root
}
