package text

import (
	"fmt"
	"time"
)

// Since says how long ago t was in a few cells, for the columns of the
// TUI: "now", "5m ago", "3h ago", "12d ago", then the date.
func Since(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	case d < 60*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	}
	return t.UTC().Format("2006-01-02")
}

// Ago says how long ago t was (d before now) the way people say it, for
// command output: "about 1 hour ago", then the date.
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
