// Package alias implements `forge alias`: short names for longer forge
// commands, or for shell commands (an expansion starting with "!"), kept
// in aliases.yaml beside forge's config.yaml, as gh keeps its own.
package alias

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/atomicfile"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// NewCmd returns `forge alias` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "alias <command>",
		Short: "Make short names for longer commands",
		Long: `Aliases are short names for forge commands, as gh has them:

  forge alias set bugs 'issue list --search bug'
  forge bugs -R alice/demo          # forge issue list --search bug -R alice/demo

The words after the alias are added at the end, or take the places of $1,
$2, ... in the expansion. An expansion starting with "!" is a shell command
(sh -c), given the words as "$@":

  forge alias set igrep '!forge issue list --json number,title --jq ".[] | \"\(.number) \(.title)\"" | grep -i "$1"'

An alias cannot take the name of a forge command. They are kept in
aliases.yaml beside config.yaml (forge help environment: FORGE_CONFIG_DIR).`,
		Example: `  forge alias set bugs 'issue list --search bug'
  forge alias list
  forge alias delete bugs`,
	})
	cmd.AddCommand(newSetCmd(f, nil), newListCmd(f, nil), newDeleteCmd(f, nil))
	return cmd
}

// load reads the aliases; a missing file is none.
func load(getenv func(string) string) (map[string]string, string, error) {
	cfg, err := config.Path(getenv)
	if err != nil {
		return nil, "", err
	}
	path := filepath.Join(filepath.Dir(cfg), "aliases.yaml")
	all := map[string]string{}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return all, path, nil
	}
	if err != nil {
		return nil, "", err
	}
	if err := yaml.Unmarshal(b, &all); err != nil {
		return nil, "", fmt.Errorf("%s: %v: fix or remove the file", path, err)
	}
	return all, path, nil
}

func save(path string, all map[string]string) error {
	b, err := yaml.Marshal(all)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, b)
}

// Expand turns args whose first word is an alias into what it stands
// for. It returns the forge arguments to run, or, for a shell alias, the
// command to run instead (run is nil otherwise). Only a word that is no
// forge command is looked up, so forge's own commands cost no file read.
func Expand(getenv func(string) string, isCommand func(string) bool, args []string) (expanded []string, run *exec.Cmd, err error) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") || isCommand(args[0]) {
		return args, nil, nil
	}
	all, _, err := load(getenv)
	if err != nil {
		return nil, nil, err
	}
	exp, ok := all[args[0]]
	if !ok {
		return args, nil, nil
	}
	rest := args[1:]
	if sh, ok := strings.CutPrefix(exp, "!"); ok {
		shell := "sh"
		if runtime.GOOS == "windows" {
			shell = "sh.exe" // Git for Windows' sh
		}
		return nil, exec.Command(shell, append([]string{"-c", sh, "--"}, rest...)...), nil
	}
	words, err := split(exp)
	if err != nil {
		return nil, nil, fmt.Errorf("alias %s: %v", args[0], err)
	}
	used := make([]bool, len(rest))
	for i, w := range words {
		for j := len(rest) - 1; j >= 0; j-- {
			ph := fmt.Sprintf("$%d", j+1)
			if strings.Contains(w, ph) {
				w = strings.ReplaceAll(w, ph, rest[j])
				used[j] = true
			}
		}
		words[i] = w
	}
	for j, a := range rest {
		if !used[j] {
			words = append(words, a)
		}
	}
	return words, nil, nil
}

// split cuts an expansion into words as a shell would, for its quotes:
// 'single', "double" (with \" and \\), and backslash escapes.
func split(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	in, quote := false, rune(0)
	esc := false
	for _, r := range s {
		switch {
		case esc:
			w.WriteRune(r)
			esc = false
		case r == '\\' && quote != '\'':
			esc, in = true, true
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c quote", quote)
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}
