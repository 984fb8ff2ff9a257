package cmd

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
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
	"forge auth 2fa disable":         {"--code", "123456"},
}

// forwarded are the verbs whose arguments another program parses: forge
// runs the forge-server companion with them (cmd/companion).
var forwarded = map[string]bool{"forge serve": true, "forge demo": true}

// TestEveryVerbIsBuiltOneWay walks the command tree and runs every verb
// (every command with a run function) with its run captured: each must
// reach cmdutil.Seam, the runF seam of newXCmd(f, runF), with options
// that embed cmdutil.Deps and hold no Factory (docs/DESIGN.md "How a
// command is built"). A verb built another way runs its own code instead
// and fails here.
func TestEveryVerbIsBuiltOneWay(t *testing.T) {
	topics := map[string]bool{"forge help": true}
	for _, h := range helpTopics {
		topics["forge "+h.name] = true
	}
	seen := map[string]bool{}
	for _, path := range verbPaths(t) {
		if topics[path] {
			continue
		}
		seen[path] = true
		t.Run(strings.ReplaceAll(strings.TrimPrefix(path, "forge "), " ", "_"), func(t *testing.T) {
			if forwarded[path] {
				return
			}
			opts, code, stderr := captureVerb(t, path)
			if opts == nil {
				t.Fatalf("`%s` did not reach cmdutil.Seam (exit %d, stderr %q): build it as newXCmd(f, runF) with runF = cmdutil.Seam(runF, runX), or give it arguments in verbArgs", strings.Join(append([]string{path}, verbArgs[path]...), " "), code, stderr)
			}
			checkOptions(t, path, reflect.TypeOf(opts))
		})
	}
	for path := range verbArgs {
		if !seen[path] {
			t.Errorf("verbArgs names %q, which is no verb", path)
		}
	}
}

// verbPaths are the command paths of every runnable command of the tree.
func verbPaths(t *testing.T) []string {
	t.Helper()
	root, _ := testRoot(t)
	root.InitDefaultHelpCmd()
	var paths []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && c != root && !cmdutil.IsGroup(c) {
			paths = append(paths, c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return paths
}

// captureVerb runs the verb at path, with its arguments, under a context
// where cmdutil.Seam hands over the options instead of running.
func captureVerb(t *testing.T, path string) (opts any, code int, stderr string) {
	t.Helper()
	ios, _, _, errOut := iostreams.Test()
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "FORGE_CONFIG_DIR": dir, "XDG_CACHE_HOME": dir}
	f := cmdutil.New(ios, func(k string) string { return env[k] })
	ctx := cmdutil.CaptureRuns(context.Background(), func(o any) { opts = o })
	args := append(strings.Fields(strings.TrimPrefix(path, "forge")), verbArgs[path]...)
	code = Run(ctx, f, args)
	return opts, code, errOut.String()
}

var (
	depsType    = reflect.TypeFor[cmdutil.Deps]()
	factoryType = reflect.TypeFor[*cmdutil.Factory]()
)

// checkOptions: the options are a pointer to a struct embedding
// cmdutil.Deps, and nothing in them is the Factory.
func checkOptions(t *testing.T, path string, typ reflect.Type) {
	t.Helper()
	if typ.Kind() != reflect.Pointer || typ.Elem().Kind() != reflect.Struct {
		t.Fatalf("`%s`'s options are a %s, not a pointer to a struct", path, typ)
	}
	st := typ.Elem()
	if f, ok := st.FieldByName("Deps"); !ok || !f.Anonymous || f.Type != depsType {
		t.Errorf("`%s`'s %s does not embed cmdutil.Deps", path, st)
	}
	if where := holdsFactory(st, st.Name(), map[reflect.Type]bool{}); where != "" {
		t.Errorf("`%s`'s options hold the Factory (%s): give the run function what it uses through cmdutil.Deps", path, where)
	}
}

// holdsFactory names a field of typ (at any depth) that is the Factory.
func holdsFactory(typ reflect.Type, at string, seen map[reflect.Type]bool) string {
	if typ == factoryType || typ == factoryType.Elem() {
		return at
	}
	if seen[typ] {
		return ""
	}
	seen[typ] = true
	switch typ.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return holdsFactory(typ.Elem(), at, seen)
	case reflect.Struct:
		for i := range typ.NumField() {
			f := typ.Field(i)
			if w := holdsFactory(f.Type, at+"."+f.Name, seen); w != "" {
				return w
			}
		}
	}
	return ""
}

// TestSeamIsTheConstructorsRunF: every cmdutil.Seam call in cmd/ passes
// on a runF its constructor takes as a parameter, so a test can give the
// verb its own run function.
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
					t.Errorf("%s: cmdutil.Seam's first argument is not a parameter of %s: pass the constructor's runF", fset.Position(call.Pos()), fn.Name.Name)
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
		t.Fatal("found no cmdutil.Seam call under cmd/")
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
	return ok && pkg.Name == "cmdutil"
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
