package common

import (
	"context"
	"errors"
	"net"

	"github.com/forgehq/forge/client"
)

// Unanswered reports whether a request that failed with err may have
// been carried out all the same: it was sent (or may have been), and no
// answer came back — a timeout, a connection that broke after the
// request left. A refusal to connect, or any answer of the service's
// (an HTTP error), means it was not. A view that sent something (a
// comment) reads the service again before it says "not sent" or offers
// to send it twice.
func Unanswered(err error) bool {
	if err == nil {
		return false
	}
	var te *client.TimeoutError
	if errors.As(err, &te) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne *client.NetworkError
	if !errors.As(err, &ne) {
		return false
	}
	var op *net.OpError
	return !errors.As(err, &op) || op.Op != "dial"
}
