package gitstore

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxRefName bounds a ref's full name (git has no limit of its own; a
// file system's name limit is 255 bytes per component).
const maxRefName = 1024

// CheckRefName refuses a ref name (refs/heads/x, refs/tags/v1) that git's
// check-ref-format refuses, and more: names that are not UTF-8 or that
// hold a control or format character (U+202E RIGHT-TO-LEFT OVERRIDE and
// the other bidirectional controls, zero-width characters), which git
// accepts but which make a branch look like another one on a terminal.
// Every ref the server writes passes through it.
func CheckRefName(name string) error {
	if err := RefNameProblem(name); err != "" {
		return fmt.Errorf("invalid ref name %q: %s", name, err)
	}
	return nil
}

// RefNameProblem says what is wrong with a ref name ("" when nothing is), by
// git's rules (git help check-ref-format) in their order.
func RefNameProblem(name string) string {
	switch {
	case !strings.HasPrefix(name, "refs/") || len(name) == len("refs/"):
		return "a ref is named refs/heads/BRANCH or refs/tags/TAG"
	case len(name) > maxRefName:
		return fmt.Sprintf("longer than %d bytes", maxRefName)
	case !utf8.ValidString(name):
		return "not UTF-8"
	case strings.HasSuffix(name, "/"):
		return "ends with /"
	case strings.HasSuffix(name, "."):
		return "ends with ."
	case strings.Contains(name, ".."):
		return "holds .."
	case strings.Contains(name, "@{"):
		return "holds @{"
	}
	for _, part := range strings.Split(name, "/") {
		switch {
		case part == "":
			return "holds //"
		case strings.HasPrefix(part, "."):
			return "a component starts with ."
		case strings.HasSuffix(part, ".lock"):
			return "a component ends with .lock"
		}
	}
	for _, c := range name {
		switch {
		case c < 0x20 || c == 0x7f || c == ' ':
			return "holds a space or a control character"
		case strings.ContainsRune("~^:?*[\\", c):
			return fmt.Sprintf("holds %q", c)
		case unicode.Is(unicode.Cc, c) || unicode.Is(unicode.Cf, c) || unicode.Is(unicode.Zl, c) || unicode.Is(unicode.Zp, c):
			return fmt.Sprintf("holds the invisible character U+%04X", c)
		}
	}
	return ""
}
