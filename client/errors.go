package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/forgehq/forge/internal/authanswer"
	"github.com/forgehq/forge/internal/httpwait"
	"github.com/forgehq/forge/internal/text"
)

// Error is the service's answer to a request that did not succeed: any
// status outside 2xx. Find it with errors.As.
type Error struct {
	// StatusCode is the HTTP status, e.g. 404.
	StatusCode int
	// Message is the server's `error` message, or "" when the body carried
	// none (then Error() describes the body instead).
	Message string
	// Method and URL name the request (the URL without credentials).
	Method string
	URL    string
	// RetryAfter is the wait the server asked for with Retry-After, if any.
	RetryAfter time.Duration
	// Body is the start of the response body (at most 64 KiB), for
	// diagnosis.
	Body []byte

	contentType string
	tokenSent   bool
	tokenFix    string // what to do about a rejected token, if not the default
	sent        int    // bytes of the request body
	atRoot      bool   // the request was for an endpoint every service has
}

// HTTPStatus returns the status code; cmdcore.ExitCode maps 401 to exit
// code 4 through it.
func (e *Error) HTTPStatus() int { return e.StatusCode }

// TokenRejected reports whether the request carried a token and the server
// refused it: a 401, or a 403 saying the token is invalid, expired or
// revoked (authanswer.Refused): the token is wrong, expired or revoked.
func (e *Error) TokenRejected() bool {
	return e.tokenSent && authanswer.Refused(e.StatusCode, e.Message)
}

// CredentialsRefused is TokenRejected: cmdcore.ExitCode makes it exit
// code 4, as a 401.
func (e *Error) CredentialsRefused() bool { return e.TokenRejected() }

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP %d: ", e.StatusCode)
	// Each answer is said once, with one fix: when forge has a better
	// sentence than the server's (a rejected token, a body too large), it
	// replaces the server's, which often carries advice of its own ("log
	// in again") that would otherwise be said twice.
	switch {
	case e.TokenRejected() && !mentionsTwoFactor(e.Message) && !e.serverForgot():
		b.WriteString("the service rejected the token: it expired or was revoked")
	case e.StatusCode == http.StatusRequestEntityTooLarge:
		b.WriteString(e.tooLarge())
	case e.Message != "":
		b.WriteString(e.Message)
	default:
		b.WriteString(statusText(e.StatusCode))
	}
	if e.URL != "" {
		fmt.Fprintf(&b, " (%s %s)", e.Method, e.URL)
	}
	if e.Message == "" && e.StatusCode != http.StatusRequestEntityTooLarge {
		if s := e.describeBody(); s != "" {
			b.WriteString("; the server sent " + s)
		}
	}
	switch {
	case e.TokenRejected() && !mentionsTwoFactor(e.Message):
		fix := e.tokenFix
		if fix == "" {
			fix = "run `forge auth login`"
		}
		b.WriteString("; " + fix)
	case e.StatusCode == http.StatusNotFound && e.atRoot:
		b.WriteString("; the base URL must be the service's API root, ending in /api/v2 (check it with `forge profile show`)")
	}
	if e.RetryAfter > 0 && !saysWhen(e.Message) {
		fmt.Fprintf(&b, "; retry after %s", e.RetryAfter.Round(time.Second))
	}
	return b.String()
}

// serverForgot reports that a 401's message says the server keeps its
// state in memory (the reference server run with --memory): it restarted
// and forgot the token, which its message says better than forge can.
func (e *Error) serverForgot() bool {
	return strings.Contains(e.Message, "keeps its state in memory")
}

// tooLarge says a 413: the service's own words when it sent some (which
// may name its limit), and the size that was sent. The spec documents no
// limit, so forge names none of its own.
func (e *Error) tooLarge() string {
	var b strings.Builder
	switch {
	case strings.ContainsAny(e.Message, "0123456789"):
		b.WriteString(e.Message) // it names its limit
	case e.Message != "":
		b.WriteString("the request body is larger than the service takes: " + e.Message)
	default:
		b.WriteString("the request body is larger than the service takes")
	}
	if e.sent > 0 {
		fmt.Fprintf(&b, "; this one was %s", text.Bytes(int64(e.sent)))
	}
	return b.String()
}

// saysWhen reports whether the server's message already says when to try
// again, so the Retry-After wait is not said a second time.
func saysWhen(msg string) bool {
	m := strings.ToLower(msg)
	for _, w := range []string{"try again", "retry", "wait"} {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}

func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return t
	}
	return "unexpected status"
}

// describeBody summarises a body that is not the service's error JSON: a
// proxy's HTML page, a line of text, or nothing.
func (e *Error) describeBody() string {
	body := strings.TrimSpace(string(e.Body))
	if body == "" {
		return ""
	}
	mt, _, _ := mime.ParseMediaType(e.contentType)
	lower := strings.ToLower(body)
	if mt == "text/html" || strings.HasPrefix(lower, "<!doctype html") || strings.HasPrefix(lower, "<html") {
		return "an HTML page, not JSON (a proxy or load balancer answering?)"
	}
	line, _, _ := strings.Cut(body, "\n")
	line = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, line)
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return fmt.Sprintf("%q", line)
}

// errorMessage finds the message in an error body: the spec's
// {"error": "..."}, and, tolerantly, {"message": "..."},
// {"error": {"message": "..."}} and {"errors": ["...", ...]}. The reasons
// of an errors array (GitHub's validation errors: {"field": "title",
// "code": "missing_field"} or a "message") follow the message, which
// alone ("Validation Failed") would not say what to fix.
func errorMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Errors  json.RawMessage `json:"errors"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	msg := v.Message
	var s string
	var nested struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(v.Error, &s) == nil && s != "" {
		msg = s
	} else if json.Unmarshal(v.Error, &nested) == nil && nested.Message != "" {
		msg = nested.Message
	}
	reasons := errorReasons(v.Errors)
	switch {
	case reasons == "" || strings.Contains(msg, reasons):
		return msg
	case msg == "":
		return reasons
	}
	return msg + ": " + reasons
}

// errorReasons reads an errors array: strings, or objects with a message,
// or with a field and a code ("title: missing_field"); "" for none.
func errorReasons(raw json.RawMessage) string {
	var list []any
	if json.Unmarshal(raw, &list) != nil {
		return ""
	}
	parts := make([]string, 0, len(list))
	for _, it := range list {
		switch t := it.(type) {
		case string:
			parts = append(parts, t)
		case map[string]any:
			m, _ := t["message"].(string)
			field, _ := t["field"].(string)
			code, _ := t["code"].(string)
			switch {
			case m != "":
				parts = append(parts, m)
			case field != "" && code != "":
				parts = append(parts, field+": "+code)
			case field != "" || code != "":
				parts = append(parts, field+code)
			}
		}
	}
	return strings.Join(parts, "; ")
}

// NetworkError means the service could not be reached or the connection
// broke: no HTTP answer was received.
type NetworkError struct {
	Method string
	URL    string
	Err    error
}

func (e *NetworkError) Error() string {
	return fmt.Sprintf("cannot reach the service at %s: %v; is it running, and is the base URL right (`forge profile show`)?", e.URL, e.Err)
}

func (e *NetworkError) Unwrap() error { return e.Err }

// TimeoutError means an attempt got no complete answer within the client's
// timeout.
type TimeoutError struct {
	Method  string
	URL     string
	Timeout time.Duration
}

func (e *TimeoutError) Error() string {
	return (&httpwait.Error{What: e.Method + " " + e.URL, Wait: e.Timeout}).Error()
}

// Unanswered reports whether a request that failed with err may have
// been carried out all the same: it was sent (or may have been), and no
// answer came back — a timeout, a connection that broke after the
// request left. A refusal to connect, or any answer of the service's
// (an HTTP error), means it was not. What sent something (an issue, a
// comment) reads the service again, or says to, before it calls it not
// sent or sends it twice: the TUI's forms, `forge issue create`.
func Unanswered(err error) bool {
	if err == nil {
		return false
	}
	var te *TimeoutError
	if errors.As(err, &te) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne *NetworkError
	if !errors.As(err, &ne) {
		return false
	}
	var op *net.OpError
	return !errors.As(err, &op) || op.Op != "dial"
}

// IsNotFound reports whether err is the service's 404.
func IsNotFound(err error) bool { return HasStatus(err, http.StatusNotFound) }

// HasStatus reports whether err is an *Error with the given status.
func HasStatus(err error, status int) bool {
	var e *Error
	return errors.As(err, &e) && e.StatusCode == status
}
