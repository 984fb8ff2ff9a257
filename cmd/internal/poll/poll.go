// Package poll holds what the commands that wait on the service share
// (run watch, pr checks --watch): the --interval flag's reading and a wait
// that Ctrl-C ends.
package poll

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
)

// ParseInterval reads --interval: a number of seconds or a Go duration, at
// most a day.
func ParseInterval(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if secs, ferr := strconv.ParseFloat(s, 64); ferr == nil {
		d, err = time.Duration(secs*float64(time.Second)), nil
		if !(secs > 0 && secs <= 86400) { // also refuses NaN
			d = 0
		}
	}
	if err != nil || d <= 0 {
		return 0, cmdcore.UsageErrorf("--interval must be a positive number of seconds or a duration such as 500ms, not %q", s)
	}
	return d, nil
}

// Sleep waits d; it ends early with the context's error on Ctrl-C.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
