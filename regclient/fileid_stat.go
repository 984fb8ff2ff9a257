//go:build linux || darwin

package regclient

import (
	"fmt"
	"os"
	"syscall"
)

// fileID identifies a file's content as the digest cache needs it.
func fileID(fi os.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d:%d:%d:%d:%d", st.Dev, st.Ino, fi.Size(), fi.ModTime().UnixNano(), ctimeNano(st)), true
}
