package cmdutil

import "path/filepath"

// CacheDir is forge's cache directory: $XDG_CACHE_HOME/forge, else
// ~/.cache/forge; "" (nothing cached) without a home.
func (f *Factory) CacheDir() string {
	dir := f.Getenv("XDG_CACHE_HOME")
	if dir == "" {
		home := f.Getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".cache")
	}
	return filepath.Join(dir, "forge")
}
