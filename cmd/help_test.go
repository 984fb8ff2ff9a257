package cmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func testRoot(t *testing.T) (*cobra.Command, func() string) {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	return NewRootCmd(cmdutil.New(ios, func(string) string { return "" })), out.String
}

// TestEveryCommandHasHelp: every command a user can see has a one-line
// summary and examples, which the man pages and the reference are made of.
func TestEveryCommandHasHelp(t *testing.T) {
	root, _ := testRoot(t)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		switch {
		case strings.TrimSpace(c.Short) == "":
			t.Errorf("`%s` has no Short: give it a one-line summary", c.CommandPath())
		case strings.Contains(c.Short, "\n") || strings.HasSuffix(c.Short, "."):
			t.Errorf("`%s`: Short %q should be one line, without a final period", c.CommandPath(), c.Short)
		}
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("`%s` has no Example: add a few lines a user can copy, each indented two spaces", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// helpTopic runs `forge help TOPIC` and returns what it printed.
func helpTopic(t *testing.T, topic string) string {
	t.Helper()
	root, out := testRoot(t)
	root.SetArgs([]string{"help", topic})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	return out()
}

// TestHelpEnvironmentIsComplete compares `forge help environment` with the
// variables forge's source reads: every string literal passed to a
// Getenv-like call, every literal naming a FORGE_ or AGENT_ variable (read
// through tables), and the upper-case literals of a function that calls
// getenv with a variable (as in a loop over names). Both ways: nothing
// read is missing, nothing listed is no longer read.
func TestHelpEnvironmentIsComplete(t *testing.T) {
	page := helpTopic(t, "environment")
	listed := map[string]bool{}
	lineRe := regexp.MustCompile(`^  ([A-Z][A-Z0-9_]*(?:, [A-Z][A-Z0-9_]*)*)  `)
	for _, line := range strings.Split(page, "\n") {
		if m := lineRe.FindStringSubmatch(line); m != nil {
			for _, name := range strings.Split(m[1], ", ") {
				listed[name] = true
			}
		}
	}
	read := envRead(t, "..")
	for name, where := range read {
		if !listed[name] {
			t.Errorf("%s is read (%s) but `forge help environment` does not list it: add a line to cmd/help_topics.go", name, where)
		}
	}
	for name := range listed {
		if _, ok := read[name]; !ok {
			t.Errorf("`forge help environment` lists %s, which no code reads: remove it from cmd/help_topics.go", name)
		}
	}
	if len(read) < 10 {
		t.Fatalf("found only %d variables read: the source scan is broken", len(read))
	}
	// The README's configuration table lists them too.
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for name := range listed {
		if !strings.Contains(string(readme), "`"+name+"`") {
			t.Errorf("README.md's configuration table does not list `%s`", name)
		}
	}
}

// envRead scans the module's non-test Go files (the reference server and
// benchmarks aside: they are not the client) for environment variables
// read, each with where it was first seen.
func envRead(t *testing.T, root string) map[string]string {
	t.Helper()
	upper := regexp.MustCompile(`^[A-Z][A-Z0-9_]{2,}$`)
	ours := regexp.MustCompile(`^(FORGE|AGENT)_[A-Z0-9_]+$`)
	found := map[string]string{}
	add := func(fset *token.FileSet, lit *ast.BasicLit) {
		name, err := strconv.Unquote(lit.Value)
		if err != nil || !upper.MatchString(name) {
			return
		}
		if _, ok := found[name]; !ok {
			found[name] = fset.Position(lit.Pos()).String()
		}
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// Test-helper packages (named like httptest: clitest, tmuxtest)
		// are imported only by tests; what they read is not forge's.
		if d.IsDir() && (slices.Contains([]string{"refserver", "bench", "testdata", ".git"}, d.Name()) || strings.HasSuffix(d.Name(), "test")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if v, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && ours.MatchString(v) {
					add(fset, n)
				}
			case *ast.FuncDecl:
				if n.Body != nil && callsGetenvIndirectly(n.Body) {
					ast.Inspect(n.Body, func(m ast.Node) bool {
						if lit, ok := m.(*ast.BasicLit); ok && lit.Kind == token.STRING {
							add(fset, lit)
						}
						return true
					})
				}
			case *ast.CallExpr:
				if isGetenv(n) && len(n.Args) == 1 {
					if lit, ok := n.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						add(fset, lit)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func isGetenv(call *ast.CallExpr) bool {
	var name string
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		name = fn.Name
	case *ast.SelectorExpr:
		name = fn.Sel.Name
	}
	return name == "Getenv" || name == "getenv" || name == "LookupEnv"
}

// callsGetenvIndirectly reports whether body reads a variable whose name
// is not a literal at the call, as `for _, v := range names { getenv(v) }`.
func callsGetenvIndirectly(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && isGetenv(call) && len(call.Args) == 1 {
			if id, ok := call.Args[0].(*ast.Ident); ok && id.Name != "key" {
				found = true
			}
		}
		return !found
	})
	return found
}

// TestHelpExitCodesIsComplete: `forge help exit-codes` lists every exit
// code constant of app/cmdutil/cmdcore.
func TestHelpExitCodesIsComplete(t *testing.T) {
	page := helpTopic(t, "exit-codes")
	for _, code := range []int{cmdcore.ExitOK, cmdcore.ExitFailure, cmdcore.ExitUsage, cmdcore.ExitAuth, cmdcore.ExitPending, cmdcore.ExitInterrupted} {
		if !regexp.MustCompile(`(?m)^  ` + strconv.Itoa(code) + ` +\S`).MatchString(page) {
			t.Errorf("`forge help exit-codes` does not list %d", code)
		}
	}
	// The constants above are all there are: a new one must be added here
	// and to the page.
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "../app/cmdutil/cmdcore/errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, decl := range file.Decls {
		if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.CONST {
			for _, spec := range gd.Specs {
				for _, id := range spec.(*ast.ValueSpec).Names {
					if strings.HasPrefix(id.Name, "Exit") {
						n++
					}
				}
			}
		}
	}
	if n != 6 {
		t.Errorf("app/cmdutil/cmdcore has %d Exit constants, this test knows 6: list the new one in cmd/help_topics.go and here", n)
	}
}

// TestFlagValueNames: a back-quoted word in a flag's usage is the name of
// its value in the help (pflag's rule), so a bool flag has none and a
// value's name is one word (or a quoted example, 'Name: value'):
// `--setup-git forge auth setup-git` came from a
// command quoted in a bool flag's text.
func TestFlagValueNames(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(fl *pflag.Flag) {
			name, _ := pflag.UnquoteUsage(fl)
			if fl.Value.Type() == "bool" && strings.Contains(fl.Usage, "`") || strings.Contains(name, " ") && !strings.HasPrefix(name, "'") {
				t.Errorf("%s --%s: the help shows the value name %q; quote a command in its usage with \" not `", c.CommandPath(), fl.Name, name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewRootCmd(cmdutil.New(ios, func(string) string { return "" })))
}
