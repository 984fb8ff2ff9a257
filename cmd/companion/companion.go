// Package companion gives forge its `serve` and `demo`, which run
// forge-server, the companion binary that links the reference server.
// forge itself does not: the server (go-git, openpgp, jwt, otp) would add
// 5 MB and 49 package inits to every forge run, `forge --version`
// included (docs/DESIGN.md, "Start-up cost"; bench/README.md).
//
// forge-server is found, in order:
//
//  1. beside forge's own executable, as releases and packages install it;
//  2. when forge runs inside a clone of its module (`go run ./cmd/forge
//     demo`), built from that clone into forge's cache directory, so a
//     clone still needs one command;
//  3. on the PATH.
//
// It then replaces forge's process (on Windows, runs as its child), so
// `forge serve ...` and `forge demo` take the same flags, print the same,
// answer the same signals and exit with the same codes as before.
package companion

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Binary is the companion's name.
const Binary = "forge-server"

// module is forge's module path, as a clone's go.mod names it.
const module = "github.com/forgehq/forge"

// A Command is one of forge-server's commands that forge offers as its
// own. Short and Example are shared with the command itself (cmd/serve,
// cmd/demo): forge's help and forge-server's say the same.
type Command struct{ Name, Short, Example string }

// The commands forge runs in forge-server.
var (
	Serve = Command{"serve", "Run the reference server of the whole service on this machine", `  forge serve
  forge serve --demo --env-file forge.env
  forge serve --addr 127.0.0.1:9000 --data ~/.local/share/forge-server --admin-password 'a long password'`}
	Demo = Command{"demo", "Tour forge's main jobs on a throw-away reference server", `  forge demo
  go run ./cmd/forge demo
  forge demo > tour.txt`}
)

// NewCmd returns forge's c: every argument, --help included, goes to
// `forge-server NAME`.
func NewCmd(f *cmdutil.Factory, c Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:                c.Name,
		Short:              c.Short,
		Example:            c.Example,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return Exec(f, append([]string{c.Name}, args...))
		},
	}
	// TAB completes as forge-server's command does.
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return complete(f, append(append([]string{c.Name}, args...), toComplete))
	}
	// `forge help serve` is forge-server's `serve --help`.
	cmd.SetHelpFunc(func(cmd *cobra.Command, _ []string) {
		if err := Exec(f, []string{c.Name, "--help"}); err != nil {
			fmt.Fprintf(f.IOStreams.ErrOut, "forge: %s\n", err)
		}
	})
	return cmd
}

// Exec runs forge-server with args in forge's place.
func Exec(f *cmdutil.Factory, args []string) error {
	path, err := Find(f)
	if err != nil {
		return err
	}
	return run(path, args)
}

// complete asks forge-server to complete args (the command's name, the
// words typed, the one being completed), as the shell would ask forge.
func complete(f *cmdutil.Factory, args []string) ([]cobra.Completion, cobra.ShellCompDirective) {
	none := cobra.ShellCompDirectiveNoFileComp
	path, err := Find(f)
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

// Find is the path of the forge-server to run (see the package comment).
func Find(f *cmdutil.Factory) (string, error) {
	name := Binary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	self, err := os.Executable()
	if err == nil {
		if self, err = filepath.EvalSymlinks(self); err == nil {
			beside := filepath.Join(filepath.Dir(self), name)
			if fi, err := os.Stat(beside); err == nil && !fi.IsDir() {
				return beside, nil
			}
		}
	}
	if root := ModuleRoot(); root != "" {
		return build(f, root, name)
	}
	if path, err := exec.LookPath(name); err == nil {
		return path, nil
	}
	dir := "forge's directory"
	if self != "" {
		dir = filepath.Dir(self)
	}
	return "", fmt.Errorf("%s is not installed beside forge (in %s) nor on the PATH: install a release or package of forge, which ships both, or from a clone run `go build -o %s ./cmd/forge-server`",
		Binary, dir, filepath.Join(dir, name))
}

// ModuleRoot is the root of the clone of forge's module the working
// directory is in, or "".
func ModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			first, _, _ := bytes.Cut(mod, []byte("\n"))
			if string(bytes.TrimSpace(first)) != "module "+module {
				return ""
			}
			if _, err := os.Stat(filepath.Join(dir, "cmd", Binary, "main.go")); err != nil {
				return ""
			}
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// build builds forge-server from the clone at root into forge's cache
// directory; go build leaves a binary that is up to date alone, so only
// the first run (or one after a change) waits for it.
func build(f *cmdutil.Factory, root, name string) (string, error) {
	cache := f.CacheDir()
	if cache == "" {
		var err error
		if cache, err = os.MkdirTemp("", "forge-server-*"); err != nil {
			return "", err
		}
	}
	out := filepath.Join(cache, "companion", name)
	fmt.Fprintf(f.IOStreams.ErrOut, "forge: building %s from the clone at %s (go build ./cmd/%s)\n", Binary, root, Binary)
	gobuild := exec.Command("go", "build", "-o", out, "./cmd/"+Binary)
	gobuild.Dir = root
	gobuild.Stdout, gobuild.Stderr = f.IOStreams.ErrOut, f.IOStreams.ErrOut
	if err := gobuild.Run(); err != nil {
		var missing *exec.Error
		if errors.As(err, &missing) {
			return "", fmt.Errorf("building %s from the clone at %s needs go on the PATH: %w", Binary, root, err)
		}
		return "", fmt.Errorf("building %s from the clone at %s: %w", Binary, root, err)
	}
	return out, nil
}
