package output

import (
	"time"

	"github.com/forgehq/forge/internal/text"
)

// now is replaced in tests for stable relative times.
var now = time.Now

// FormatTime renders t for a terminal (relative: "3 minutes ago") or for a
// pipe (ISO 8601 UTC). The zero time is empty.
func FormatTime(t time.Time, tty bool) string {
	if t.IsZero() {
		return ""
	}
	if !tty {
		return t.UTC().Format(time.RFC3339)
	}
	return text.Ago(now().Sub(t), t)
}
