// Package atomicfile writes a file whole or not at all: the bytes go to a
// temporary file beside it (mode 0600 from the start, so nobody else reads
// a draft or a cache even for a moment) that is then renamed over it. A
// crash leaves the old file or the new one, never half of either.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// Write replaces path with data, mode 0600. The directory must exist.
// It does not fsync: what it keeps (drafts, caches, state) may be lost to
// a power cut, never torn by a crash of forge.
func Write(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	err = errors.Join(err, tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
