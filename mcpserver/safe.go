package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/text"
)

// Limits bound every result, so no answer floods the model's context (a
// CI log can be megabytes). A result stays under about 64 KiB of JSON.
const (
	// PerPage is a list's page when the call names none; MaxPerPage the
	// most a call may ask for.
	PerPage    = 30
	MaxPerPage = 100
	// MaxListPages is how far into a list a call may page (× per_page
	// records read to get there).
	MaxListPages = 50
	// MaxScan is how many records a filtered list reads at most looking
	// for matches.
	MaxScan = MaxListPages * MaxPerPage
	// TextPage is the size of a page of a file or of a body.
	TextPage = 24 << 10
	// LogLines is a page of a job's log, counted from its end; LogBytes
	// bounds the page whatever its lines hold.
	LogLines = 200
	LogBytes = 24 << 10
	// CommentsPerPage is the comments issue_view shows at a time, each
	// cut at CommentBytes.
	CommentsPerPage = 10
	CommentBytes    = 3 << 10
	// MaxString cuts any other string from the service.
	MaxString = 4 << 10
)

// out makes a result safe for the model: every string in it, at any
// depth, goes through text.ForModel (hidden text and escapes), the
// redactor (secrets) and the MaxString bound — except the few fields
// already paged (tagged `mcp:"paged"`), which are bounded by their page.
func (s *Server) out(v any) { s.walk(reflect.ValueOf(v), false) }

func (s *Server) walk(v reflect.Value, paged bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			s.walk(v.Elem(), paged)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				s.walk(v.Field(i), t.Field(i).Tag.Get("mcp") == "paged")
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			s.walk(v.Index(i), paged)
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(s.clean(v.String(), paged))
		}
	}
}

func (s *Server) clean(str string, paged bool) string {
	str = s.opts.Redactor.Text(text.ForModel(str))
	if !paged && len(str) > MaxString {
		str = cutBytes(str, MaxString) + fmt.Sprintf(" [truncated: %d bytes in all]", len(str))
	}
	return str
}

// toolError is err as the model sees it: forge's one-line sentence (the
// message forge prints after "forge: "), sanitized and redacted.
func (s *Server) toolError(err error) error {
	if errors.Is(err, context.Canceled) {
		return errors.New("interrupted")
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return errors.New(s.clean(text.Flatten(msg), false))
}

// cutBytes is s's first n bytes, not splitting a character.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Paging is the input every list tool takes.
type Paging struct {
	Page    int `json:"page,omitempty" jsonschema:"page of results, from 1 (default 1)"`
	PerPage int `json:"per_page,omitempty" jsonschema:"results per page, at most 100 (default 30)"`
}

func (p Paging) norm() (page, per int, err error) {
	page, per = max(p.Page, 1), p.PerPage
	if per <= 0 {
		per = PerPage
	}
	if per > MaxPerPage {
		per = MaxPerPage
	}
	if page > MaxListPages {
		return 0, 0, fmt.Errorf("page %d is too far: ask for page %d or less, or a larger per_page", page, MaxListPages)
	}
	return page, per, nil
}

// each is f of every record, in order; never nil, so an empty list is
// [] in JSON, not null.
func each[T, U any](records []T, f func(T) U) []U {
	out := make([]U, 0, len(records))
	for _, r := range records {
		out = append(out, f(r))
	}
	return out
}

// pageOf reads page p (of per records) from seq: the records, and a note
// saying which page to ask for next when there are more.
func pageOf[T any](seq iter.Seq2[T, error], in Paging) ([]T, string, error) {
	page, per, err := in.norm()
	if err != nil {
		return nil, "", err
	}
	skip := (page - 1) * per
	var out []T
	more := false
	for v, err := range seq {
		if err != nil {
			return nil, "", err
		}
		switch {
		case skip > 0:
			skip--
		case len(out) < per:
			out = append(out, v)
		default:
			more = true
		}
		if more {
			break
		}
	}
	if more {
		return out, fmt.Sprintf("truncated: page %d of %d results shown; ask with page %d for more", page, per, page+1), nil
	}
	if out == nil {
		out = []T{}
	}
	return out, "", nil
}

// textPage cuts page p (from 1) of TextPage bytes out of s, with a note
// when there is more.
func textPage(s string, page int) (string, string) {
	page = max(page, 1)
	start := min((page-1)*TextPage, len(s))
	for start > 0 && start < len(s) && !utf8.RuneStart(s[start]) {
		start--
	}
	chunk := cutBytes(s[start:], TextPage)
	end := start + len(chunk)
	if end < len(s) {
		return chunk, fmt.Sprintf("truncated: bytes %d-%d of %d shown; ask with page %d for more", start, end, len(s), page+1)
	}
	if start > 0 || page > 1 {
		return chunk, fmt.Sprintf("page %d: bytes %d-%d of %d, the end", page, start, end, len(s))
	}
	return chunk, ""
}
