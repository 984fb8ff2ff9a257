package regclient_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/regclient"
)

// A directory is a layout only by the layout's own files: a site's
// index.json alone leaves it a directory of files.
func TestOpenAnyDirectoryOrLayout(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.json"), []byte(`{"title":"my site"}`), 0o644)
	src, err := regclient.OpenAny(dir, regclient.OpenOptions{})
	if err != nil {
		t.Fatalf("a site with index.json: %v", err)
	}
	if !strings.HasPrefix(src.Desc, "directory ") || src.Image() == nil {
		t.Errorf("opened as %q, want a directory's image", src.Desc)
	}
	os.Mkdir(filepath.Join(dir, "blobs"), 0o755)
	if _, err := regclient.OpenAny(dir, regclient.OpenOptions{}); err == nil || !strings.Contains(err.Error(), "layout") {
		t.Errorf("index.json beside blobs/: %v, want the layout's error", err)
	}
}

// The same files copied elsewhere, later, are the same image.
func TestOpenDirDeterministic(t *testing.T) {
	digest := func(dir string) string {
		os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
		os.WriteFile(filepath.Join(dir, "a", "b", "c.txt"), []byte("c\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "z.txt"), []byte("z\n"), 0o600)
		os.Symlink("z.txt", filepath.Join(dir, "link"))
		src, err := regclient.OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		d, err := src.Digest()
		if err != nil {
			t.Fatal(err)
		}
		return d.String()
	}
	if a, b := digest(t.TempDir()), digest(t.TempDir()); a != b {
		t.Errorf("two copies: %s and %s", a, b)
	}
}
