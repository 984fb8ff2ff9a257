package forge_test

// The house's map (docs/DESIGN.md, "The house") as a test: which layer may
// import which, read from `go list`, so the map and the code cannot drift.

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/forgehq/forge/"

// layer names the layer a package of the module belongs to, by its path.
func layer(pkg string) string {
	p := strings.TrimPrefix(pkg, module)
	if strings.HasSuffix(p, "test") {
		return "testkit" // a harness for tests: refservertest, tuitest, seamtest, ...
	}
	first, _, _ := strings.Cut(p, "/")
	switch first {
	case "internal":
		return "leaf"
	case "config":
		return "config"
	case "client", "chat", "regclient":
		return "interface"
	case "app":
		return "app"
	case "cmd", "tui", "mcpserver", "completions":
		return "face"
	case "refserver":
		return "server"
	case "testkit":
		return "testkit"
	case "bench", "tools":
		return "tool"
	}
	return "other"
}

// may lists, for each layer, the layers its packages may import (their own
// included). A face may import any layer below it; which faces may import
// which is checked apart (TestFacesStayApart).
var may = map[string][]string{
	"leaf":      {"leaf"},
	"config":    {"leaf", "config"},
	"interface": {"leaf"},
	"app":       {"leaf", "config", "interface", "app"},
	"face":      {"leaf", "config", "interface", "app", "face", "server"},
	"server":    {"server"},
	"testkit":   {"leaf", "config", "interface", "app", "face", "server", "testkit"},
	"tool":      {"leaf", "config", "interface", "app", "face", "server", "testkit", "tool"},
}

// imports maps each package of the module to the module's packages it
// imports directly (tests not counted).
func imports(t *testing.T) map[string][]string {
	t.Helper()
	statSources(t)
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		var own []string
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, module) {
				own = append(own, imp)
			}
		}
		graph[fields[0]] = own
	}
	return graph
}

func TestLayersImportOnlyDownwards(t *testing.T) {
	for pkg, deps := range imports(t) {
		if pkg == strings.TrimSuffix(module, "/") {
			continue // this test's own package
		}
		from := layer(pkg)
		allowed, known := may[from]
		if !known {
			t.Errorf("%s is in no layer of DESIGN's map: place it, and say where in docs/DESIGN.md", pkg)
			continue
		}
		for _, dep := range deps {
			if to := layer(dep); !contains(allowed, to) {
				t.Errorf("%s (%s) imports %s (%s): the %s layer may import only %v", pkg, from, dep, to, from, allowed)
			}
		}
	}
}

// TestInterfacesStayApart: the three interfaces never import each other.
func TestInterfacesStayApart(t *testing.T) {
	for pkg, deps := range imports(t) {
		if layer(pkg) != "interface" {
			continue
		}
		for _, dep := range deps {
			if layer(dep) == "interface" && top(dep) != top(pkg) {
				t.Errorf("%s imports %s: the interfaces never import each other", pkg, dep)
			}
		}
	}
}

// TestCmdcoreIsLeafEnough: app/cmdutil/cmdcore, what forge-server's root
// and serve are built from, imports only leaf utilities: importing the
// rest of the application layer would link the service's clients into
// forge-server (cmd/serve's TestForgeServerLinksNoOtherCommand).
func TestCmdcoreIsLeafEnough(t *testing.T) {
	const cmdcore = module + "app/cmdutil/cmdcore"
	deps, ok := imports(t)[cmdcore]
	if !ok {
		t.Fatalf("no package %s: say where it went here and in docs/DESIGN.md", cmdcore)
	}
	for _, dep := range deps {
		if layer(dep) != "leaf" {
			t.Errorf("%s imports %s: it may import only leaf utilities (internal/)", cmdcore, dep)
		}
	}
}

// TestFacesStayApart: the TUI and the MCP server import neither each other
// nor the CLI; the CLI reaches the MCP server and the reference server only
// from the companions' own trees (cmd/forge-mcp; cmd/serve, which
// forge-server is, and cmd/withserver, the documented tree that holds it).
func TestFacesStayApart(t *testing.T) {
	companion := map[string]bool{}
	for _, p := range []string{"cmd/forge-mcp", "cmd/withserver", "cmd/serve"} {
		companion[module+p] = true
	}
	for pkg, deps := range imports(t) {
		if layer(pkg) != "face" {
			continue
		}
		for _, dep := range deps {
			switch {
			case top(pkg) == "tui" && (top(dep) == "cmd" || top(dep) == "mcpserver"),
				top(pkg) == "mcpserver" && (top(dep) == "cmd" || top(dep) == "tui"),
				(top(dep) == "mcpserver" || layer(dep) == "server") && !companion[pkg] && top(pkg) != top(dep):
				t.Errorf("%s imports %s: faces stay apart (DESIGN, \"The house\")", pkg, dep)
			}
		}
	}
}

// TestForgeLinksNeitherServerNorSDK: forge itself links no reference server,
// no MCP server and no MCP SDK; its companions do.
func TestForgeLinksNeitherServerNorSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./cmd/forge").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		own := strings.HasPrefix(dep, module)
		if own && (layer(dep) == "server" || top(dep) == "mcpserver" || layer(dep) == "testkit") ||
			strings.HasPrefix(dep, "github.com/modelcontextprotocol/") {
			t.Errorf("forge links %s: it belongs in a companion (forge-server, forge-mcp) or in tests", dep)
		}
	}
}

func top(pkg string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(pkg, module), "/")
	return first
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// statSources stats every Go file of the module: go test caches a result by
// the files a test touched, and `go list` runs in another process, so without
// this an import added elsewhere would find this test's old pass cached.
func statSources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && filepath.Ext(path) == ".go" {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
