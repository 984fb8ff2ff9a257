package cmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd/internal/seamtest"
	"github.com/forgehq/forge/internal/iostreams"
)

// verbArgs are the arguments a verb needs to get past its argument and
// flag checks; a verb not named here takes none.
var verbArgs = map[string][]string{
	"forge admin invite create":      {"bob", "--email", "bob@example.com"},
	"forge admin user delete":        {"alice"},
	"forge admin user disable":       {"alice"},
	"forge admin user enable":        {"alice"},
	"forge alias delete":             {"co"},
	"forge alias set":                {"co", "pr checkout"},
	"forge api":                      {"/me"},
	"forge auth 2fa disable":         {"--code", "123456"},
	"forge auth git-credential":      {"get"},
	"forge completion":               {"bash"},
	"forge image copy":               {"a:1", "b:1"},
	"forge image delete":             {"a:1"},
	"forge image inspect":            {"a:1"},
	"forge image pull":               {"a:1", "a.tar"},
	"forge image push":               {"a.tar", "a:1"},
	"forge image tags":               {"a"},
	"forge issue close":              {"1"},
	"forge issue comment":            {"1", "--body", "x"},
	"forge issue create":             {"--title", "t", "--body", "b"},
	"forge issue edit":               {"1", "--title", "t"},
	"forge issue reopen":             {"1"},
	"forge issue view":               {"1"},
	"forge job logs":                 {"1"},
	"forge pr checkout":              {"1"},
	"forge pr checks":                {"1"},
	"forge pr diff":                  {"1"},
	"forge pr view":                  {"1"},
	"forge profile add":              {"dev", "--base-url", "http://127.0.0.1:1/api/v2"},
	"forge profile remove":           {"dev"},
	"forge profile use":              {"dev"},
	"forge release view":             {"v1"},
	"forge repo clone":               {"alice/demo"},
	"forge repo collaborator add":    {"bob", "-R", "alice/demo"},
	"forge repo collaborator list":   {"-R", "alice/demo"},
	"forge repo collaborator remove": {"bob", "-R", "alice/demo"},
	"forge repo create":              {"demo"},
	"forge repo delete":              {"alice/demo"},
	"forge repo edit":                {"alice/demo", "--description", "d"},
	"forge repo set-default":         {"alice/demo"},
	"forge run cancel":               {"1"},
	"forge run explain":              {"1"},
	"forge run logs":                 {"1"},
	"forge run rerun":                {"1"},
	"forge run view":                 {"1"},
	"forge run watch":                {"1"},
	"forge ssh-key add":              {"key.pub"},
	"forge ssh-key delete":           {"1"},
}

// forwarded are the verbs whose arguments another program parses: forge
// runs the forge-server companion with them (cmd/companion), whose serve
// cmd/withserver's test checks.
var forwarded = map[string]bool{"forge serve": true}

// TestEveryVerbIsBuiltOneWay walks the command tree and runs every verb
// (every command with a run function but the help topics) with its run
// captured: each must reach cmdcore.Seam, the runF seam of
// newXCmd(f, runF), with options that embed cmdutil.Deps and hold no
// Factory (seamtest.CheckVerb). A verb built another way runs its own
// code instead and fails here.
func TestEveryVerbIsBuiltOneWay(t *testing.T) {
	topics := map[string]bool{"forge help": true}
	for _, h := range helpTopics {
		topics["forge "+h.name] = true
	}
	root, _ := testRoot(t)
	root.InitDefaultHelpCmd()
	seen := map[string]bool{}
	for _, path := range seamtest.Verbs(root) {
		if topics[path] {
			continue
		}
		seen[path] = true
		t.Run(strings.ReplaceAll(strings.TrimPrefix(path, "forge "), " ", "_"), func(t *testing.T) {
			if !forwarded[path] {
				seamtest.CheckVerb(t, Run, path, verbArgs[path]...)
				return
			}
			if c, _, _ := root.Find(strings.Fields(path)[1:]); !c.DisableFlagParsing {
				t.Errorf("`%s` is forwarded to forge-server, yet parses flags", path)
			}
		})
	}
	for path := range verbArgs {
		if !seen[path] {
			t.Errorf("verbArgs names %q, which is no verb", path)
		}
	}
}

// TestSeamIsTheConstructorsRunF: every cmdcore.Seam call in cmd/
// (forge's verbs and forge-server's serve) passes on a runF its constructor takes as a parameter, so a test can give the verb
// its own run function.
func TestSeamIsTheConstructorsRunF(t *testing.T) {
	fset := token.NewFileSet()
	calls := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			params := map[string]bool{}
			for _, p := range fn.Type.Params.List {
				for _, n := range p.Names {
					params[n.Name] = true
				}
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || !isSeam(call.Fun) {
					return true
				}
				calls++
				if id, ok := call.Args[0].(*ast.Ident); !ok || !params[id.Name] {
					t.Errorf("%s: cmdcore.Seam's first argument is not a parameter of %s: pass the constructor's runF", fset.Position(call.Pos()), fn.Name.Name)
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 {
		t.Fatal("found no cmdcore.Seam call under cmd/")
	}
}

func isSeam(fun ast.Expr) bool {
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Seam" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "cmdcore"
}

// BenchmarkVerbTree builds the whole command tree, every verb's options
// taking the Factory's Deps, as each forge start does before cobra reads
// a word (bench/README.md).
func BenchmarkVerbTree(b *testing.B) {
	ios, _, _, _ := iostreams.Test()
	b.ReportAllocs()
	for b.Loop() {
		NewRootCmd(cmdutil.New(ios, func(string) string { return "" }))
	}
}
