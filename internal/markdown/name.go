package markdown

import (
	"path"
	"strings"
)

// IsFile reports whether a file's name says it is markdown, by its
// extension (gh's list), so that forge repo view's README and the TUI's
// file view render the same files. A name without one (README, LICENSE)
// is plain text, as the service's web pages show it.
func IsFile(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".mdown", ".mkdown":
		return true
	}
	return false
}
