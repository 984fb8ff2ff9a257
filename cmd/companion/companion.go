// Package companion runs forge's companions: binaries holding something
// heavy that forge itself leaves out so that every forge run, `forge
// --version` included, stays fast (docs/DESIGN.md, "Start-up cost";
// bench/README.md). There are two, each forge's root (its global flags,
// errors and exit codes) with one command: forge-server (Binary), the
// reference server (go-git, openpgp, jwt, otp: 5 MB and 49 package inits)
// for `forge serve`, which `forge demo` also starts as its child
// (cmd/demo); forge-mcp (MCP), the mcp commands and the MCP SDK, for
// `forge mcp serve` (cmd/mcp).
//
// A companion is found, in order:
//
//  1. beside forge's own executable, as releases and packages install it;
//  2. when forge was built from a clone of its module (`go run ./cmd/forge
//     demo`) and runs inside that very clone, built from it into forge's
//     cache directory, so a clone still needs one command;
//  3. on the PATH.
//
// An installed one (1 or 3) must be forge's companion of forge's version
// (check), and forge never builds code from any other tree: a directory
// whose go.mod names forge's module is not forge's source for that (a
// stranger's clone would run its own code).
//
// Exec then replaces forge's process with it (on Windows, runs it as a
// child), so the command takes the same flags, prints the same, answers
// the same signals and exits with the same codes as if forge linked it.
// Its help is the companion's too, through forge's `help` command, which
// runs a command that parses no flags of its own as `CMD --help` so that
// the exit code reaches forge's main: nothing here exits the process.
package companion

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd/companion/helptext"
	"github.com/spf13/cobra"
)

// The companions' names.
const (
	Binary = "forge-server" // serve, and the demo's server
	MCP    = "forge-mcp"    // mcp serve
)

// module is forge's module path, as a clone's go.mod names it.
const module = "github.com/forgehq/forge"

// NewCmd returns forge's c (helptext.Serve): every argument, --help
// included, goes to `forge-server NAME`. It parses no flags of its own, so forge's `help`
// command asks it for its help as `NAME --help` (cmd's strictHelp), exit
// code included: a script asking for help from a forge without
// forge-server sees exit 1, not 0.
func NewCmd(f *cmdutil.Factory, c helptext.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:                c.Name,
		Short:              c.Short,
		Example:            c.Example,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return Exec(f, Binary, append([]string{c.Name}, args...))
		},
	}
	// TAB completes as forge-server's command does.
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return complete(f, append(append([]string{c.Name}, args...), toComplete))
	}
	return cmd
}

// Exec runs the companion binary with args in forge's place.
func Exec(f cmdutil.DepsSource, binary string, args []string) error {
	path, err := Find(f, binary)
	if err != nil {
		return err
	}
	return run(path, args)
}

// complete asks forge-server to complete args (the command's name, the
// words typed, the one being completed), as the shell would ask forge.
func complete(f *cmdutil.Factory, args []string) ([]cobra.Completion, cobra.ShellCompDirective) {
	none := cobra.ShellCompDirectiveNoFileComp
	path, err := Find(f, Binary)
	if err != nil {
		return nil, none
	}
	out, err := exec.Command(path, append([]string{cobra.ShellCompRequestCmd}, args...)...).Output()
	if err != nil {
		return nil, none
	}
	// Lines of completions, then ":DIRECTIVE".
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	directive, err := strconv.Atoi(strings.TrimPrefix(lines[len(lines)-1], ":"))
	if err != nil {
		return nil, none
	}
	return lines[:len(lines)-1], cobra.ShellCompDirective(directive)
}

// Find is the path of the companion binary to run (see the package
// comment). One found installed must be forge's own companion of forge's
// version (check); one built is built from the clone forge itself was
// built from, never from another tree the user happens to stand in.
func Find(f cmdutil.DepsSource, binary string) (string, error) {
	name := binary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	self, err := os.Executable()
	if err == nil {
		if self, err = filepath.EvalSymlinks(self); err == nil {
			beside := filepath.Join(filepath.Dir(self), name)
			if fi, err := os.Stat(beside); err == nil && !fi.IsDir() {
				return beside, check(beside, binary)
			}
		}
	}
	if root := ownClone(binary); root != "" {
		return buildFromClone(f.Deps(), root, binary, name)
	}
	if path, err := exec.LookPath(name); err == nil {
		return path, check(path, binary)
	}
	dir := "forge's directory"
	if self != "" {
		dir = filepath.Dir(self)
	}
	return "", fmt.Errorf("%s is not installed beside forge (in %s) nor on the PATH: install a release or package of forge, which ships both, or from a clone run `go build -o %s ./cmd/%s`",
		binary, dir, filepath.Join(dir, name), binary)
}

// buildFromClone builds binary (file name) from the clone at root into forge's
// cache directory. go build leaves a binary that is up to date alone, so
// only the first run (or one after a change) waits for it, and only then
// does forge say it is building (see watch).
func buildFromClone(f cmdutil.Deps, root, binary, name string) (string, error) {
	cache := f.CacheDir()
	if cache == "" {
		var err error
		if cache, err = os.MkdirTemp("", binary+"-*"); err != nil {
			return "", err
		}
	}
	out := filepath.Join(cache, "companion", name)
	// -buildvcs=false: the companion is forge's own source, so the VCS
	// stamp tells nothing, and asking git for it would print steps (git
	// status, git log) that watch would take for work on every run.
	gobuild := exec.Command("go", "build", "-buildvcs=false", "-x", "-o", out, "./cmd/"+binary)
	gobuild.Dir = root
	steps, err := gobuild.StderrPipe()
	if err != nil {
		return "", err
	}
	if err := gobuild.Start(); err != nil {
		var missing *exec.Error
		if errors.As(err, &missing) {
			return "", fmt.Errorf("building %s from the clone at %s needs go on the PATH: %w", binary, root, err)
		}
		return "", fmt.Errorf("building %s from the clone at %s: %w", binary, root, err)
	}
	watch(steps, func() {
		f.IO.ErrPrintf("forge: building %s from the clone at %s (go build ./cmd/%s)\n", binary, root, binary)
	})
	if gobuild.Wait() == nil {
		return out, nil
	}
	// -x's steps bury go's errors: build again without it, on forge's
	// stderr (what did build is cached), for the errors alone.
	again := exec.Command("go", "build", "-buildvcs=false", "-o", out, "./cmd/"+binary)
	again.Dir = root
	again.Stdout, again.Stderr = f.IO.ErrOut, f.IO.ErrOut
	if again.Run() == nil {
		return out, nil
	}
	return "", fmt.Errorf("go build ./cmd/%s failed in the clone at %s (its errors are above): fix them, or run forge outside the clone to use an installed %s", binary, root, binary)
}

// watch reads go build -x's steps and calls building once, at the first
// step that is work. go build is the one judge of whether the binary is up
// to date (its cache key covers the toolchain, the flags and every file of
// every package), and with -x it prints each step it runs, and for a
// binary it leaves alone at most its work directory (WORK=DIR, whether a
// step will need it or not) and `touch OUT`; so the notice appears when the
// build has work and never otherwise, whatever the machine's speed. A timer
// would announce an up-to-date build on a busy machine, and asking first
// (go list) would load every package twice. Should go print other lines
// for an up-to-date binary one day, the notice only comes back.
func watch(steps io.Reader, building func()) {
	r := bufio.NewReader(steps)
	for {
		line, err := r.ReadString('\n')
		if line != "" && !strings.HasPrefix(line, "WORK=") && !strings.HasPrefix(line, "touch ") {
			building()
			break
		}
		if err != nil {
			return
		}
	}
	_, _ = io.Copy(io.Discard, r)
}
