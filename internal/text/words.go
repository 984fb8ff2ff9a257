package text

import (
	"fmt"
	"strings"
)

// Flatten keeps a value on one line of piped output, one record per line:
// runs of tabs, newlines and spaces in a value with a tab or line break
// become one space. Nothing else changes: piped output is the data.
func Flatten(s string) string {
	if !strings.ContainsAny(s, "\t\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// Capitalize writes a state as a label: "closed" becomes "Closed".
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Plural is "1 issue", "2 issues".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Count says "1 layer" or "3 layers": n and a noun made plural with s.
func Count(n int, noun string) string { return Plural(n, noun, noun+"s") }

// Bytes says a size for people in binary units: 512 B, 4.0 KiB, 1.2 MiB.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

// ShortSHA is a commit hash's first seven characters, as git abbreviates
// it; the server's bytes as they are (callers drawing it on a terminal
// pass it through OneLine, as any server text).
func ShortSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// ShortDigest is "sha256:" and the first 12 hex digits, for tables and
// views on a terminal; piped output keeps whole digests.
func ShortDigest(d string) string {
	if alg, hex, ok := strings.Cut(d, ":"); ok && len(hex) > 12 {
		return alg + ":" + hex[:12]
	}
	return d
}

// ShellQuote quotes s as one word for a POSIX shell: as it is when it
// holds only characters no shell treats specially, else in single quotes.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@,+=%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShellUnquote undoes ShellQuote: the word a shell would make of q, for
// the words ShellQuote writes (bare, or in single quotes, each quote
// inside closing them, escaped, and opening them again); false for
// anything else.
func ShellUnquote(q string) (string, bool) {
	if q != "" && ShellQuote(q) == q {
		return q, true
	}
	if len(q) < 2 || q[0] != '\'' || q[len(q)-1] != '\'' {
		return "", false
	}
	s := strings.ReplaceAll(q[1:len(q)-1], `'\''`, "'")
	// Only the form ShellQuote writes: "'a'b" or "'it's'" are not.
	return s, ShellQuote(s) == q
}
