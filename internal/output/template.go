package output

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/template"

	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
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
func parseTemplate(src string, color bool) (*template.Template, error) {
	cs := iostreams.NewColorScheme(color)
	funcs := template.FuncMap{
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
			t := ParseTime(fmt.Sprint(v))
			if t.IsZero() {
				return ""
			}
			return text.Ago(now().Sub(t), t)
		},
		"timefmt": func(layout string, v any) string {
			t := ParseTime(fmt.Sprint(v))
			if t.IsZero() {
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
			return cs.Named(name, fmt.Sprint(v))
		},
	}
	return template.New("template").Funcs(funcs).Parse(src)
}
