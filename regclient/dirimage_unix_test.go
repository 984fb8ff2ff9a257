//go:build unix

package regclient_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/forgehq/forge/regclient"
)

// What a layer cannot hold fails at open, before any request.
func TestOpenDirRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	_, err := regclient.OpenDir(dir)
	if err == nil || !strings.Contains(err.Error(), "pipe is a") || !strings.Contains(err.Error(), "regular files, directories and symbolic links") {
		t.Errorf("a named pipe: %v", err)
	}
}
