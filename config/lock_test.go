package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Concurrent updates lose nothing: each adds its own profile, and every
// one is there at the end. A failed update leaves no file of any kind in
// the directory (no config.yaml.lock either).
func TestConcurrentUpdatesAndNoLockFileLeft(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	if err := Update(path, func(*File) error { return fmt.Errorf("refused") }); err == nil {
		t.Fatal("the update's error was lost")
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Fatalf("a failed update left %v", names)
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := Update(path, func(f *File) error {
				f.SetProfile(fmt.Sprintf("p%d", i), &Profile{BaseURL: "https://forge.example.com/api/v2"})
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.ProfileNames()); n != 16 {
		t.Errorf("%d profiles after 16 concurrent updates: %v", n, f.ProfileNames())
	}
	names, _ := os.ReadDir(dir)
	if len(names) != 1 {
		t.Errorf("directory holds %v, want config.yaml alone", names)
	}
}
