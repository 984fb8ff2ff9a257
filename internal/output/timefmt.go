package output

import (
	"fmt"
	"time"
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
	return Ago(now().Sub(t), t)
}

// Ago describes a duration in the past the way people say it.
func Ago(d time.Duration, t time.Time) string {
	switch {
	case d < 0:
		return "just now"
	case d < time.Minute:
		return "less than a minute ago"
	case d < 2*time.Minute:
		return "about 1 minute ago"
	case d < time.Hour:
		return fmt.Sprintf("%d minutes ago", int(d.Minutes()))
	case d < 2*time.Hour:
		return "about 1 hour ago"
	case d < 24*time.Hour:
		return fmt.Sprintf("about %d hours ago", int(d.Hours()))
	case d < 48*time.Hour:
		return "about 1 day ago"
	case d < 30*24*time.Hour:
		return fmt.Sprintf("about %d days ago", int(d.Hours()/24))
	}
	return t.Local().Format("Jan 2, 2006")
}

// ParseTime reads an ISO 8601 timestamp as the service sends it; an empty
// or unreadable value is the zero time, so a tolerant reader never fails on
// a field it only displays.
func ParseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
