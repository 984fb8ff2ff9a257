package seamtest

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// Verbs are the command paths of every verb of root's tree: each
// runnable command but root itself and the groups.
func Verbs(root *cobra.Command) []string {
	var paths []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && c != root && !cmdcore.IsGroup(c) {
			paths = append(paths, c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return paths
}

// A Factory is what a tree's commands are built from: forge's Factory
// (cmd.Run), or the Globals alone in forge-server, whose serve uses no
// client of the service (serve.Run).
type Factory interface {
	*cmdutil.Factory | *cmdcore.Globals
}

// CheckVerb runs the verb at path ("forge issue close") with args under
// cmdcore.CaptureRuns, in an empty environment and configuration, through
// run (a tree's Run, taking its Factory), and fails unless it reached
// cmdcore.Seam with options that embed the Deps that Factory gives
// (cmdutil.Deps; from Globals, cmdcore.Deps) and hold neither the Factory
// nor the Globals (docs/DESIGN.md "How a command is built"). A verb built
// another way runs its own code instead.
func CheckVerb[F Factory](t *testing.T, run func(ctx context.Context, f F, args []string) int, path string, args ...string) {
	t.Helper()
	ios, _, _, errOut := iostreams.Test()
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "FORGE_CONFIG_DIR": dir, "XDG_CACHE_HOME": dir}
	f := cmdutil.New(ios, func(k string) string { return env[k] })
	var factory F
	deps := depsType
	switch p := any(&factory).(type) {
	case **cmdutil.Factory:
		*p = f
	case **cmdcore.Globals:
		*p, deps = &f.Globals, coreDepsType
	}
	var opts any
	ctx := cmdcore.CaptureRuns(context.Background(), func(o any) { opts = o })
	line := append(strings.Fields(path)[1:], args...)
	if code := run(ctx, factory, line); opts == nil {
		t.Fatalf("`%s` did not reach cmdcore.Seam (exit %d, stderr %q): build it as newXCmd(f, runF) with runF = cmdcore.Seam(runF, runX), or give it the arguments it needs", strings.Join(append([]string{path}, args...), " "), code, errOut)
	}
	checkOptions(t, path, reflect.TypeOf(opts), deps)
}

var (
	depsType     = reflect.TypeFor[cmdutil.Deps]()
	coreDepsType = reflect.TypeFor[cmdcore.Deps]()
	factoryTypes = []reflect.Type{reflect.TypeFor[cmdutil.Factory](), reflect.TypeFor[cmdcore.Globals]()}
)

// checkOptions: the options are a pointer to a struct embedding deps, and
// nothing in them is the Factory or the Globals.
func checkOptions(t *testing.T, path string, typ, deps reflect.Type) {
	t.Helper()
	if typ.Kind() != reflect.Pointer || typ.Elem().Kind() != reflect.Struct {
		t.Fatalf("`%s`'s options are a %s, not a pointer to a struct", path, typ)
	}
	st := typ.Elem()
	if f, ok := st.FieldByName("Deps"); !ok || !f.Anonymous || f.Type != deps {
		t.Errorf("`%s`'s %s does not embed %s", path, st, deps)
	}
	if where := holdsFactory(st, st.Name(), map[reflect.Type]bool{}); where != "" {
		t.Errorf("`%s`'s options hold the Factory (%s): give the run function what it uses through %s", path, where, deps)
	}
}

// holdsFactory names a field of typ (at any depth) that is the Factory or
// the Globals.
func holdsFactory(typ reflect.Type, at string, seen map[reflect.Type]bool) string {
	if slices.Contains(factoryTypes, typ) {
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
