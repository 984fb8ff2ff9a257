package companion

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// sourceRoot is the directory of the clone forge was built from, or "".
// The compiler records each source file's name in the binary: absolute
// when the build kept paths (`go run`, `go build` in a clone), module-
// relative with -trimpath (every release and package) and in the module
// cache for `go install ...@v`, whose tree the user never stands in. So
// forge learns where its own source is from itself, never from the
// directory it runs in. A variable for the package's tests.
var sourceRoot = func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Path != module {
		return ""
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	// file is ROOT/cmd/companion/clone.go.
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// ownClone is the root of the clone forge was built from when the working
// directory is inside it and it holds cmd/binary, or "".
func ownClone(binary string) string {
	root := sourceRoot()
	if root == "" {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	if !within(wd, root) {
		return ""
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	first, _, _ := bytes.Cut(mod, []byte("\n"))
	if string(bytes.TrimSpace(first)) != "module "+module {
		return ""
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", binary, "main.go")); err != nil {
		return ""
	}
	return root
}

// within says whether dir is root or below it, links resolved.
func within(dir, root string) bool {
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	root, err = filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
