// Package timestamp is forge's one reader of the service's timestamps, for
// all three interfaces (the REST API's records, the agent's usage, the
// registry's answers): the spec shows RFC 3339, and services also send
// them without a zone, with a space for the T, as a date alone, or as Unix
// seconds or milliseconds. A time without a zone is read as UTC.
package timestamp

import (
	"strconv"
	"strings"
	"time"
)

var layouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05Z0700",
	"2006-01-02 15:04:05 -0700 MST",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02",
}

// Parse reads s, a timestamp in any of the forms above (surrounding space
// ignored); ok is false for anything else.
func Parse(s string) (t time.Time, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n > 1e12 {
			return time.UnixMilli(n).UTC(), true
		}
		return time.Unix(n, 0).UTC(), true
	}
	for _, layout := range layouts {
		if v, err := time.Parse(layout, s); err == nil {
			return v, true
		}
	}
	return time.Time{}, false
}
