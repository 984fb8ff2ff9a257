package mcpserver

import (
	"io"
	"net/http"
)

// unescaper undoes the SDK's HTML escaping of the JSON it writes: the
// SDK marshals text content with encoding/json, which writes "<", ">"
// and "&" as \u003c, \u003e and \u0026 — six bytes for one, in source
// code, logs and diffs (+10% on Go). JSON allows them as they are. It
// follows the JSON through strings and escapes, so a "\\u003c" written
// as text stays as it is; it holds back at most the 6 bytes of an
// escape between writes.
type unescaper struct {
	w     io.Writer
	inStr bool
	esc   []byte // an escape begun: "\" and up to 5 more bytes
	buf   []byte
}

func (u *unescaper) Write(p []byte) (int, error) {
	u.buf = u.buf[:0]
	for _, c := range p {
		switch {
		case len(u.esc) > 0:
			u.esc = append(u.esc, c)
			if len(u.esc) == 2 && c != 'u' || len(u.esc) == 6 {
				u.buf = append(u.buf, unescaped(u.esc)...)
				u.esc = u.esc[:0]
			}
		case !u.inStr:
			u.inStr = c == '"'
			u.buf = append(u.buf, c)
		case c == '\\':
			u.esc = append(u.esc, c)
		default:
			u.inStr = c != '"'
			u.buf = append(u.buf, c)
		}
	}
	if _, err := u.w.Write(u.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// unescaped is the escape esc as written, or the character it stands
// for when that is one encoding/json escapes for HTML.
func unescaped(esc []byte) []byte {
	switch string(esc) {
	case `\u003c`, `\u003C`:
		return []byte("<")
	case `\u003e`, `\u003E`:
		return []byte(">")
	case `\u0026`:
		return []byte("&")
	}
	return esc
}

// unescapeResponses writes h's responses through an unescaper.
func unescapeResponses(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&unescapedResponse{ResponseWriter: w, u: &unescaper{w: w}}, r)
	})
}

type unescapedResponse struct {
	http.ResponseWriter
	u *unescaper
}

func (r *unescapedResponse) Write(p []byte) (int, error) { return r.u.Write(p) }

// Unwrap lets http.ResponseController flush the response beneath.
func (r *unescapedResponse) Unwrap() http.ResponseWriter { return r.ResponseWriter }
