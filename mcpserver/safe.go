package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	// DirPage is a page of a directory's entries.
	DirPage = 500
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
	// ExcerptBytes cuts a body shown in a list (issues_list with bodies).
	ExcerptBytes = 1 << 10
	// MaxString cuts any other string from the service.
	MaxString = 4 << 10
	// MaxResult bounds every result as sent: its JSON text.
	MaxResult = 64 << 10
)

// MaxProse is how much of a body the prose filter reads: a body is shown
// to TextPage bytes at most, and the filter's work stays bounded.
const MaxProse = 256 << 10

// out makes a result safe for the model: every string in it, at any
// depth — struct fields, slices, maps (keys too), interfaces — goes through
// the text filter, the redactor (secrets) and a bound. The filter is
// text.ForModel (the data as it is, controls made visible) for every
// string but the fields tagged `mcp:"prose"` (a body, cut at TextPage),
// `mcp:"comment"` (cut at CommentBytes) or `mcp:"excerpt"` (cut at
// ExcerptBytes): rendered markdown, which passes
// text.ProseForModel (what the page hides taken out). Fields tagged
// `mcp:"paged"` are bounded by their page; every other string is cut at
// MaxString.
func (s *Server) out(v any) { s.walk(reflect.ValueOf(v), "") }

func (s *Server) walk(v reflect.Value, tag string) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			s.walk(v.Elem(), tag)
		}
	case reflect.Interface:
		// What an interface holds cannot be set in place: a copy is.
		if !v.IsNil() && v.CanSet() {
			c := reflect.New(v.Elem().Type()).Elem()
			c.Set(v.Elem())
			s.walk(c, tag)
			v.Set(c)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				s.walk(v.Field(i), t.Field(i).Tag.Get("mcp"))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			s.walk(v.Index(i), tag)
		}
	case reflect.Map:
		s.walkMap(v, tag)
	case reflect.String:
		if v.CanSet() {
			v.SetString(s.clean(v.String(), tag))
		}
	}
}

// walkMap cleans a map's keys and values: neither can be set in place,
// so each entry is cleaned in a copy and put back.
func (s *Server) walkMap(v reflect.Value, tag string) {
	if v.IsNil() {
		return
	}
	t := v.Type()
	keys := v.MapKeys()
	entries := make([][2]reflect.Value, 0, len(keys))
	for _, k := range keys {
		nk, nv := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
		nk.Set(k)
		nv.Set(v.MapIndex(k))
		s.walk(nk, "")
		s.walk(nv, tag)
		entries = append(entries, [2]reflect.Value{nk, nv})
		v.SetMapIndex(k, reflect.Value{})
	}
	for _, e := range entries {
		v.SetMapIndex(e[0], e[1])
	}
}

func (s *Server) clean(str, tag string) string {
	limit := MaxString
	switch tag {
	case "prose", "comment", "excerpt":
		limit = map[string]int{"prose": TextPage, "comment": CommentBytes, "excerpt": ExcerptBytes}[tag]
		all := len(str)
		str = s.opts.Redactor.Text(text.ProseForModel(cutBytes(str, MaxProse)))
		if all > MaxProse {
			limit = min(limit, len(str)) // what the filter did not read is cut too
		}
		return cutAt(str, limit, all)
	case "paged":
		return s.opts.Redactor.Text(text.ForModel(str))
	}
	all := len(str)
	return cutAt(s.opts.Redactor.Text(text.ForModel(str)), limit, all)
}

// cutAt cuts s at limit bytes, saying where and how long the text was
// (all bytes as the service sent it).
func cutAt(s string, limit, all int) string {
	if len(s) <= limit && all <= limit {
		return s
	}
	return cutBytes(s, limit) + fmt.Sprintf(" [truncated: %d bytes in all]", all)
}

// result is out (a pointer) as the model gets it: made safe (out), as
// JSON text without HTML escaping (a "<" is one byte, not six), sent once
// (not again as structured content), and cut to MaxResult however the
// tool filled it — the longest strings first, then the longest lists,
// each marked where it was cut, and the note (when the result has one)
// saying so.
func (s *Server) result(out any) *mcp.CallToolResult {
	s.out(out)
	b := marshal(out)
	for cuts := 0; len(b) > MaxResult && cuts < 64; cuts++ {
		if !shrink(reflect.ValueOf(out), len(b)-MaxResult) {
			break
		}
		b = marshal(out)
	}
	if len(b) > MaxResult { // cannot be: shrink cuts every string and list
		b = marshal(map[string]string{"note": fmt.Sprintf("the result (%d bytes) is over the %d-byte bound; ask for less", len(b), MaxResult)})
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}

func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte(fmt.Sprintf(`{"note":%q}`, "the result could not be encoded: "+err.Error()))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// shrink takes about excess bytes out of v: from its longest string when
// one is over 1 KiB, else from its longest list (by half at least); it
// says so in v's note. false: nothing left to cut.
func shrink(v reflect.Value, excess int) bool {
	var str, list reflect.Value
	find(v, &str, &list)
	noted := ""
	switch {
	case str.IsValid() && str.Len() > 1<<10:
		all := str.Len()
		keep := max(all-excess-64, all/2)
		str.SetString(cutBytes(str.String(), keep) + fmt.Sprintf(" [result bound: cut at %d of %d bytes]", keep, all))
		noted = "a long text is cut (marked where)"
	case list.IsValid() && list.Len() > 1:
		n := list.Len()
		list.Set(list.Slice(0, n/2))
		noted = fmt.Sprintf("a list is cut to its first %d of %d entries: ask for a smaller page", n/2, n)
	default:
		return false
	}
	if note := v.Elem().FieldByName("Note"); note.IsValid() && note.Kind() == reflect.String && !strings.Contains(note.String(), noted) {
		note.SetString(strings.TrimPrefix(note.String()+"; "+fmt.Sprintf("cut to the %d-byte bound: %s", MaxResult, noted), "; "))
	}
	return true
}

// find sets str to the longest settable string in v and list to the
// longest slice.
func find(v reflect.Value, str, list *reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			find(v.Elem(), str, list)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				find(v.Field(i), str, list)
			}
		}
	case reflect.Slice:
		if v.CanSet() && (!list.IsValid() || v.Len() > list.Len()) {
			*list = v
		}
		for i := range v.Len() {
			find(v.Index(i), str, list)
		}
	case reflect.String:
		if v.CanSet() && (!str.IsValid() || v.Len() > str.Len()) {
			*str = v
		}
	}
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
	return errors.New(s.clean(text.Flatten(msg), ""))
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

// FieldsArg narrows the records of a wide list to the fields the model
// needs (GitHub's fields-style trimming).
type FieldsArg struct {
	Fields []string `json:"fields,omitempty" jsonschema:"only these fields of each record, as the result names them (number, title, ...); default all"`
}

func (f FieldsArg) selected() []string { return f.Fields }

// trimFields keeps, in every list of records in res's JSON text, only the
// fields named (a name no record has is ignored).
func trimFields(res *mcp.CallToolResult, fields []string) {
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return
	}
	var top map[string]json.RawMessage
	if json.Unmarshal([]byte(tc.Text), &top) != nil {
		return
	}
	for k, v := range top {
		var records []map[string]json.RawMessage
		if json.Unmarshal(v, &records) != nil {
			continue
		}
		for _, r := range records {
			for name := range r {
				if !slices.Contains(fields, name) {
					delete(r, name)
				}
			}
		}
		top[k] = marshal(records)
	}
	tc.Text = string(marshal(top))
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

// listOptions ask the service for its largest pages, following where
// the list stands (for its total).
func listOptions() client.ListOptions {
	return client.ListOptions{PerPage: MaxPerPage, Pages: &client.Pages{}}
}

// pageOf reads page in.Page (of in.PerPage records) from seq: the records,
// and a note saying which ones they are when the list goes on (with the
// list's total when pages — the list's, nil for a filtered one — tells
// it) or the page is past its end.
func pageOf[T any](ctx context.Context, seq iter.Seq2[T, error], in Paging, pages *client.Pages) ([]T, string, error) {
	page, per, err := in.norm()
	if err != nil {
		return nil, "", err
	}
	total := func() (int, bool) { return 0, false }
	if pages != nil {
		total = func() (int, bool) { return pages.Total(ctx) }
	}
	return pageWithTotal(seq, page, per, total)
}

// pageOfSlice is pageOf for a list read whole.
func pageOfSlice[T any](s []T, in Paging) ([]T, string, error) {
	page, per, err := in.norm()
	if err != nil {
		return nil, "", err
	}
	return pageWithTotal(withNoError(s), page, per, func() (int, bool) { return len(s), true })
}

func pageWithTotal[T any](seq iter.Seq2[T, error], page, per int, total func() (int, bool)) ([]T, string, error) {
	skip := (page - 1) * per
	out := []T{}
	read, more := 0, false
	for v, err := range seq {
		if err != nil {
			return nil, "", err
		}
		if len(out) == per {
			more = true
			break
		}
		if read++; read > skip {
			out = append(out, v)
		}
	}
	first, last := skip+1, skip+len(out)
	switch {
	case more:
		of := "more"
		if n, ok := total(); ok {
			of = strconv.Itoa(n)
		}
		return out, fmt.Sprintf("truncated: results %d-%d of %s shown; ask with page %d for more", first, last, of, page+1), nil
	case len(out) == 0 && page > 1:
		return out, fmt.Sprintf("page %d is past the end: the list holds %d results, %d a page (the last page is %d)", page, read, per, max(1, (read+per-1)/per)), nil
	case page > 1:
		return out, fmt.Sprintf("results %d-%d of %d shown, the last page", first, last, read), nil
	}
	return out, "", nil
}

// textPage cuts page p (from 1) of TextPage bytes out of s, with a note
// when there is more.
func textPage(s string, page int) (string, string) { return pageText(s, page, TextPage) }

// pageText cuts page p (from 1) of size bytes out of s, with a note
// when there is more, or when the page is past the end.
func pageText(s string, page, size int) (string, string) {
	page = max(page, 1)
	start := min((page-1)*size, len(s))
	for start > 0 && start < len(s) && !utf8.RuneStart(s[start]) {
		start--
	}
	chunk := cutBytes(s[start:], size)
	end := start + len(chunk)
	switch {
	case end < len(s):
		return chunk, fmt.Sprintf("truncated: bytes %d-%d of %d shown; ask with page %d for more", start, end, len(s), page+1)
	case chunk == "" && page > 1:
		return chunk, fmt.Sprintf("page %d is past the end: the text is %d bytes, %d a page", page, len(s), size)
	case start > 0 || page > 1:
		return chunk, fmt.Sprintf("page %d: bytes %d-%d of %d, the end", page, start, end, len(s))
	}
	return chunk, ""
}
