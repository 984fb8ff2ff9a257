//go:build !linux && !darwin

package regclient

import "os"

// fileID is unknown here: the digest cache is not used.
func fileID(os.FileInfo) (string, bool) { return "", false }
