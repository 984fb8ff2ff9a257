package seamtest

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// Verbs are the command paths of every verb of root's tree: each
// runnable command but root itself and the groups.
func Verbs(root *cobra.Command) []string {
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

// Runner runs a command line of a tree with a Factory (cmd.Run).
type Runner func(ctx context.Context, f *cmdutil.Factory, args []string) int

// CheckVerb runs the verb at path ("forge issue close") with args under
// cmdutil.CaptureRuns, in an empty environment and configuration, and
// fails unless it reached cmdutil.Seam with options that embed
// cmdutil.Deps and hold no Factory (docs/DESIGN.md "How a command is
// built"). A verb built another way runs its own code instead.
func CheckVerb(t *testing.T, run Runner, path string, args ...string) {
	t.Helper()
	ios, _, _, errOut := iostreams.Test()
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "FORGE_CONFIG_DIR": dir, "XDG_CACHE_HOME": dir}
	f := cmdutil.New(ios, func(k string) string { return env[k] })
	var opts any
	ctx := cmdutil.CaptureRuns(context.Background(), func(o any) { opts = o })
	line := append(strings.Fields(path)[1:], args...)
	if code := run(ctx, f, line); opts == nil {
		t.Fatalf("`%s` did not reach cmdutil.Seam (exit %d, stderr %q): build it as newXCmd(f, runF) with runF = cmdutil.Seam(runF, runX), or give it the arguments it needs", strings.Join(append([]string{path}, args...), " "), code, errOut)
	}
	checkOptions(t, path, reflect.TypeOf(opts))
}

var (
	depsType    = reflect.TypeFor[cmdutil.Deps]()
	factoryType = reflect.TypeFor[cmdutil.Factory]()
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
	if typ == factoryType {
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
