// Package httpwait is forge's one rule for how long it waits for the
// service, on all three interfaces (REST, agent, registry), and the one
// sentence it says when the wait runs out.
//
// FORGE_HTTP_TIMEOUT (seconds, or a Go duration; 0 for no bound; default
// 30s) bounds each REST request attempt whole, and on every interface the
// wait for an answer's headers and each wait for more of its body (a chat
// stream and an image download run as long as they keep coming; silence
// ends them). internal/wire, the one transport, applies it.
package httpwait

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// Default is the wait without FORGE_HTTP_TIMEOUT.
const Default = 30 * time.Second

// Var is the environment variable that sets the wait.
const Var = "FORGE_HTTP_TIMEOUT"

// Parse reads FORGE_HTTP_TIMEOUT's value ("" for Default).
func Parse(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return Default, nil
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
		return time.Duration(secs * float64(time.Second)), nil
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return d, nil
	}
	return 0, fmt.Errorf("%s=%q is not a duration; use seconds (45) or a Go duration (45s, 2m)", Var, v)
}

// Error is a request that got no answer within the wait.
type Error struct {
	// What names the request: "GET http://host/api/v2/repos", "the agent
	// API at http://host", "the registry at host".
	What string
	Wait time.Duration // 0 when not known
}

func (e *Error) Error() string {
	within := "in time"
	if e.Wait > 0 {
		within = "within " + e.Wait.String()
	}
	return fmt.Sprintf("%s: no answer %s; the service is slow or stuck (%s sets a longer wait)", e.What, within, Var)
}

// IsTimeout reports whether err is a transport's timeout (net/http's
// "timeout awaiting response headers", a dial or read deadline, a
// context deadline, or the *Error a client made of one), not the
// caller's cancellation.
func IsTimeout(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var we *Error
	var ne net.Error
	return errors.As(err, &we) || errors.As(err, &ne) && ne.Timeout()
}
