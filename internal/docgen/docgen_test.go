package docgen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd/withserver"
	"github.com/forgehq/forge/internal/docgen"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

func root() *cobra.Command {
	ios, _, _, _ := iostreams.Test()
	return withserver.NewRootCmd(cmdutil.New(ios, func(string) string { return "" }))
}

// TestDocsUpToDate fails when the committed man pages or command reference
// differ from what the command tree gives now: a command, flag or help
// text changed without regenerating them.
func TestDocsUpToDate(t *testing.T) {
	pages, err := docgen.Pages(root())
	if err != nil {
		t.Fatal(err)
	}
	fix := "docs/ is stale: run `" + docgen.RegenerateCommand + "` at the module root and commit docs/"
	var committed []string
	for _, sub := range []string{"man", "reference"} {
		files, err := filepath.Glob(filepath.Join("../../docs", sub, "forge*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			committed = append(committed, sub+"/"+filepath.Base(f))
		}
	}
	for _, name := range committed {
		if _, ok := pages[name]; !ok {
			t.Errorf("docs/%s is of a command that no longer exists; %s", name, fix)
		}
	}
	for name, want := range pages {
		got, err := os.ReadFile(filepath.Join("../../docs", name))
		if err != nil {
			t.Errorf("docs/%s is missing; %s", name, fix)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("docs/%s differs from the command tree's help; %s", name, fix)
		}
	}
}

// TestPagesAreReproducible: two renderings are byte for byte the same
// (no clock, no map order), and the man pages carry the fixed header.
func TestPagesAreReproducible(t *testing.T) {
	a, err := docgen.Pages(root())
	if err != nil {
		t.Fatal(err)
	}
	b, err := docgen.Pages(root())
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatalf("%d pages, then %d", len(a), len(b))
	}
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between two renderings", name)
		}
	}
	man := string(a["man/forge-issue-close.1"])
	if !strings.Contains(man, `.TH "FORGE-ISSUE-CLOSE" "1" "Jan 2026" "forge" "forge manual"`) {
		t.Errorf("man page header:\n%s", strings.SplitN(man, "\n", 3)[:2])
	}
	for _, want := range []string{".SH EXAMPLE", "forge issue close 12", ".SH SEE ALSO"} {
		if !strings.Contains(man, want) {
			t.Errorf("forge-issue-close.1 lacks %q", want)
		}
	}
	forge := string(a["man/forge.1"])
	for _, want := range []string{".SH ENVIRONMENT", "FORGE_TOKEN", ".SH EXIT STATUS", "130"} {
		if !strings.Contains(forge, want) {
			t.Errorf("forge.1 lacks %q", want)
		}
	}
	// Hidden commands (help topics, the docker credential helper's own
	// name) have no page of their own.
	for name := range a {
		if strings.Contains(name, "environment") || strings.Contains(name, "__complete") {
			t.Errorf("page for a hidden command: %s", name)
		}
	}
}

// TestGenerateRemovesStalePages: a page of a command that is gone is
// deleted, other files are kept.
func TestGenerateRemovesStalePages(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "man"), 0o755)
	os.WriteFile(filepath.Join(dir, "man", "forge-gone.1"), []byte("old"), 0o644)
	os.WriteFile(filepath.Join(dir, "man", "README"), []byte("keep"), 0o644)
	if err := docgen.Generate(root(), dir); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "man", "*"))
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	if slices.Contains(names, "forge-gone.1") || !slices.Contains(names, "README") || !slices.Contains(names, "forge-issue-close.1") {
		t.Errorf("man/ holds %v", names)
	}
}
