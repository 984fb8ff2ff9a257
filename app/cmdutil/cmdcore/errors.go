package cmdcore

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
)

// Exit codes of forge, documented in `forge help exit-codes`.
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2
	ExitAuth        = 4
	ExitPending     = 8 // gh's code for checks still running
	ExitInterrupted = 130
)

// UsageError is a mistake in how forge was called: a bad flag or argument,
// or a missing value that cannot be prompted for. Exit code 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// UsageErrorf formats a UsageError. Name the flag or argument that fixes it.
func UsageErrorf(format string, a ...any) error {
	return &UsageError{Err: fmt.Errorf(format, a...)}
}

// AuthError means forge is not logged in or the service refused the
// credentials. Exit code 4.
type AuthError struct{ Err error }

func (e *AuthError) Error() string { return e.Err.Error() }
func (e *AuthError) Unwrap() error { return e.Err }

// AuthErrorf formats an AuthError.
func AuthErrorf(format string, a ...any) error {
	return &AuthError{Err: fmt.Errorf(format, a...)}
}

// KeptError is a failure after which forge kept what the user typed (an
// issue body, a comment) in a file: Note says where and how to send it
// again. It is said even when the failure is Ctrl-C, whose message is
// otherwise only "interrupted".
type KeptError struct {
	Err  error
	Note string
}

func (e *KeptError) Error() string { return e.Err.Error() + "; " + e.Note }
func (e *KeptError) Unwrap() error { return e.Err }

// InterruptedMessage is what forge says when Ctrl-C (or SIGTERM) ended
// err's command: "interrupted", and where typed text was kept.
func InterruptedMessage(err error) string {
	var kept *KeptError
	if errors.As(err, &kept) {
		return "interrupted; " + kept.Note
	}
	return "interrupted"
}

// ErrSilent ends a command with exit code 1 after it has already told the
// user what went wrong.
var ErrSilent = errors.New("silent error")

// ExitError carries an explicit exit code without a message, for commands
// like `run watch --exit-status` whose result is the code itself.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// httpStatuser is implemented by the error types of client/, chat/ and
// regclient/, so their HTTP status decides the exit code here, in one place.
type httpStatuser interface{ HTTPStatus() int }

// ExitCode maps an error returned by a command to forge's exit code.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var (
		usage  *UsageError
		auth   *AuthError
		exit   *ExitError
		status httpStatuser
		// refused: a 403 refusing the credentials (client.Error,
		// chat.Error), as a 401.
		refused interface{ CredentialsRefused() bool }
	)
	switch {
	case errors.As(err, &exit):
		return exit.Code
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &usage):
		return ExitUsage
	case errors.As(err, &auth):
		return ExitAuth
	case errors.As(err, &status) && status.HTTPStatus() == http.StatusUnauthorized:
		return ExitAuth
	case errors.As(err, &refused) && refused.CredentialsRefused():
		return ExitAuth
	case isCobraUsage(err):
		return ExitUsage
	}
	return ExitFailure
}

// isCobraUsage recognises the errors cobra itself returns for unknown
// commands and flags, which have no type of their own.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "required flag", "accepts ", "requires at least", "requires at most", "if any flags in the group"} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}

// ShouldPrint reports whether the error still needs to be shown.
func ShouldPrint(err error) bool {
	var exit *ExitError
	return err != nil && !errors.Is(err, ErrSilent) && !errors.As(err, &exit)
}

// ErrorMessage is err's message as forge prints it on stderr: sanitized
// when stderr is a terminal, since it often quotes the server (a hostile
// one could otherwise retitle the window or write the clipboard), and as
// it is when stderr is a file, which then gets the server's exact words.
func ErrorMessage(ios *iostreams.IOStreams, err error) string {
	if ios.IsStderrTTY() {
		return text.Sanitize(err.Error())
	}
	return err.Error()
}
