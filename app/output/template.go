package output

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/template"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/internal/timestamp"
)

// parseTemplate parses a --template with forge's helper functions:
//
//	json VALUE            VALUE as compact JSON
//	join SEP LIST         elements of LIST joined by SEP
//	pluck FIELD LIST      FIELD of each object in LIST
//	timeago TIME          "3 minutes ago"
//	timefmt LAYOUT TIME   TIME in a Go time layout
//	truncate N TEXT       TEXT cut to N columns with an ellipsis
//	color NAME TEXT       TEXT in red, green, yellow, cyan, magenta, gray or bold (when colour is on)
//	tablerow CELLS...     add a row to a table (aligned on a terminal, tab-separated piped)
//	tablerender           print the rows added so far (done at the end if left out)
//
// A TIME is read as the tables read the same field (templateTime). The
// topic `forge help formatting` lists them for users: keep the two
// together.
func parseTemplate(src string, color bool) (*template.Template, error) {
	return newTemplate(src, color, &tplTable{})
}

// newTemplate parses src with its tablerow rows going to tbl.
func newTemplate(src string, color bool, tbl *tplTable) (*template.Template, error) {
	cs := iostreams.NewColorScheme(color)
	funcs := template.FuncMap{
		"tablerow": func(cells ...any) string {
			row := make([]string, len(cells))
			for i, c := range cells {
				row[i] = fmt.Sprint(c)
			}
			tbl.rows = append(tbl.rows, row)
			return ""
		},
		"tablerender": func() string { return tbl.render() },
		"json": func(v any) (string, error) {
			b, err := json.Marshal(v)
			return string(b), err
		},
		"join": func(sep string, list []any) string {
			parts := make([]string, len(list))
			for i, v := range list {
				parts[i] = fmt.Sprint(v)
			}
			return strings.Join(parts, sep)
		},
		"pluck": func(field string, list []any) []any {
			var out []any
			for _, v := range list {
				if m, ok := v.(map[string]any); ok {
					out = append(out, m[field])
				}
			}
			return out
		},
		"timeago": func(v any) string {
			t, ok := templateTime(v)
			if !ok {
				return ""
			}
			return text.Ago(now().Sub(t), t)
		},
		"timefmt": func(layout string, v any) string {
			t, ok := templateTime(v)
			if !ok {
				return ""
			}
			return t.Format(layout)
		},
		"truncate": func(n int, v any) string {
			s := fmt.Sprint(v)
			r := []rune(s)
			if len(r) <= n || n < 1 {
				return s
			}
			return string(r[:n-1]) + "…"
		},
		"color": func(name string, v any) string {
			return string(cs.Named(name, fmt.Sprint(v)))
		},
	}
	return template.New("template").Funcs(funcs).Parse(src)
}

// templateTime reads a timeago or timefmt argument as the tables read the
// same field (internal/timestamp's forms: RFC 3339, zoneless, a space for
// the T, a date alone, Unix seconds or milliseconds). What it cannot read
// is no time: a template only displays, so it prints nothing rather than
// failing. The JSON is decoded with UseNumber, so a Unix time arrives
// as its digits.
func templateTime(v any) (time.Time, bool) {
	if v == nil {
		return time.Time{}, false
	}
	return timestamp.Parse(fmt.Sprint(v))
}

// tplTable holds a template's tablerow rows until tablerender (or the end
// of the template) prints them.
type tplTable struct {
	tty  bool
	rows [][]string
}

// render is the rows so far, aligned with two spaces between columns on
// a terminal, tab-separated when piped (cut and awk read them), and
// forgets them.
func (t *tplTable) render() string {
	rows := t.rows
	t.rows = nil
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			switch {
			case i == len(r)-1:
				b.WriteString(c)
			case t.tty:
				b.WriteString(c + strings.Repeat(" ", widths[i]-ansi.StringWidth(c)+2))
			default:
				b.WriteString(c + "\t")
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
