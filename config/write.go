package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// afterTempWrite, when set by a test, runs after the temporary file is
// written and before it replaces the real one.
var afterTempWrite func()

// Save writes f to path atomically with mode 0600, creating the directory
// with mode 0700 if needed. New or changed secrets go to the keyring first
// (see keyring.go), so neither the file nor its temporary copy holds them.
func (f *File) Save(path string) error {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(f.placeSecrets()); err != nil {
		return fmt.Errorf("encoding config: %w", err)
	}
	if err := writeAtomic(path, buf.Bytes()); err != nil {
		f.dropNewEntries()
		return err
	}
	f.deleteStaleEntries()
	return nil
}

func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return dirError(dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".config-*.yaml.tmp")
	if err != nil {
		return dirError(dir, err)
	}
	tmpName := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	// CreateTemp makes the file 0600 already; Chmod guards against an
	// unusual umask-free filesystem.
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	if afterTempWrite != nil {
		afterTempWrite()
	}
	if err := os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	ok = true
	syncDir(dir)
	return nil
}

func dirError(dir string, err error) error {
	if errors.Is(err, os.ErrPermission) {
		return fmt.Errorf("cannot write the config directory %s: permission denied; fix its permissions or set FORGE_CONFIG_DIR to a writable directory", dir)
	}
	return fmt.Errorf("cannot write the config directory %s: %w; set FORGE_CONFIG_DIR to a writable directory", dir, err)
}

// syncDir makes the rename durable; failure is harmless, so it is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Update loads the file at path, lets fn change it and saves it, holding an
// exclusive lock so two forge processes never lose each other's changes.
// If fn returns an error nothing is written.
func Update(path string, fn func(*File) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return dirError(dir, err)
	}
	unlock, err := lock(path)
	if err != nil {
		return dirError(dir, err)
	}
	defer unlock()
	removeStaleTemps(dir)
	f, err := Load(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		return err
	}
	return f.Save(path)
}

// removeStaleTemps deletes temporary files a killed forge left behind: with
// the lock held no other write is under way, so every one is stale, and
// one may hold a secret kept in the file.
func removeStaleTemps(dir string) {
	stale, _ := filepath.Glob(filepath.Join(dir, ".config-*.yaml.tmp"))
	for _, name := range stale {
		os.Remove(name)
	}
}
