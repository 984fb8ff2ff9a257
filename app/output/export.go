package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"
)

// FieldsAnnotation is the cobra annotation holding a command's known --json
// fields, comma-separated; NormalizeJSONArgs and completion read it.
const FieldsAnnotation = "forge/json-fields"

// allFields is the --json value that means "every field the server sent".
const allFields = "*"

// Exporter implements --json [fields], --jq EXPR and --template TMPL.
type Exporter struct {
	fields   string
	jq       string
	template string
	known    []string
}

// AddJSONFlags registers --json, --jq and --template on cmd. known lists the
// fields forge knows for the command; the server may send more, and --json
// passes every one of them through.
func AddJSONFlags(cmd *cobra.Command, known ...string) *Exporter {
	e := &Exporter{known: known}
	f := cmd.Flags()
	f.Var((*fieldsValue)(&e.fields), "json", "Output JSON with the given `fields` (comma-separated or repeated; none: all fields)")
	f.Lookup("json").NoOptDefVal = allFields
	f.StringVarP(&e.jq, "jq", shorthand(cmd, "q"), "", "Filter JSON output with a jq `expression`")
	f.StringVarP(&e.template, "template", shorthand(cmd, "t"), "", "Format JSON output with a Go `template` (helpers: forge help formatting)")
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[FieldsAnnotation] = strings.Join(known, ",")
	if cmd.Long == "" && len(known) > 0 {
		cmd.Long = cmd.Short // help shows Long instead of Short
	}
	cmd.Long += fieldsHelp(known)
	return e
}

// fieldsHelp is the "JSON fields" paragraph of a command's help (and so of
// its man page and reference page), as gh has: the names --json takes,
// wrapped to fit 80 columns.
func fieldsHelp(known []string) string {
	if len(known) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\nJSON fields (--json alone: every field the service sent):")
	line := 0
	for i, f := range known {
		if i < len(known)-1 {
			f += ","
		}
		if line == 0 || line+1+len(f) > 78 {
			b.WriteString("\n ")
			line = 1
		}
		b.WriteString(" " + f)
		line += 1 + len(f)
	}
	return b.String()
}

// fieldsValue is --json's value: each use adds its fields to the list
// (`--json a --json b` is `--json a,b`), as gh does; a bare --json asks
// for every field, whatever else is named.
type fieldsValue string

func (v *fieldsValue) String() string { return string(*v) }
func (v *fieldsValue) Type() string   { return "string" }
func (v *fieldsValue) Set(s string) error {
	switch {
	case *v == allFields || s == allFields:
		*v = allFields
	case *v == "":
		*v = fieldsValue(s)
	default:
		*v += fieldsValue("," + s)
	}
	return nil
}

// shorthand is s unless cmd already gives it to a flag of its own: on
// create commands -t is --title, as in gh, and --template has none.
func shorthand(cmd *cobra.Command, s string) string {
	if cmd.Flags().ShorthandLookup(s) != nil {
		return ""
	}
	return s
}

// Enabled reports whether the user asked for JSON, jq or template output.
// --jq and --template without --json imply all fields.
func (e *Exporter) Enabled() bool {
	return e != nil && (e.fields != "" || e.jq != "" || e.template != "")
}

// Wants reports whether the output will hold any of the fields: --json
// names one, or asks for all (no list, --jq, --template). A command uses
// it to skip requests that only fill fields nobody asked for.
func (e *Exporter) Wants(fields ...string) bool {
	if !e.Enabled() {
		return false
	}
	want := splitFields(e.fields)
	if e.fields == "" || e.fields == allFields || len(want) == 0 {
		return true
	}
	for _, f := range fields {
		if slices.Contains(want, f) {
			return true
		}
	}
	return false
}

// Validate checks the flags before any request is made: --jq and --template
// exclude each other, the jq expression and the template must parse.
func (e *Exporter) Validate() error {
	if e.jq != "" && e.template != "" {
		return cmdcore.UsageErrorf("--jq and --template cannot be used together")
	}
	if e.jq != "" {
		if _, err := gojq.Parse(e.jq); err != nil {
			return cmdcore.UsageErrorf("bad --jq expression: %v", err)
		}
	}
	if e.template != "" {
		if _, err := parseTemplate(e.template, false); err != nil {
			return cmdcore.UsageErrorf("bad --template: %v", err)
		}
	}
	return nil
}

// Write prints data — raw JSON ([]byte or json.RawMessage, ideally what the
// server sent) or anything that marshals to a JSON object or array —
// filtered to the requested fields and then through jq or the template.
// On a terminal what the server sent is sanitized (text.Sanitize): JSON and
// jq output as it is written, a template's data before it runs, so the
// template's own colours stay. Piped, the output is the exact data.
func (e *Exporter) Write(ios *iostreams.IOStreams, data any) error {
	v, err := toGeneric(data)
	if err != nil {
		return err
	}
	if e.fields != "" && e.fields != allFields {
		if v, err = e.pick(v); err != nil {
			return err
		}
	}
	tty := ios.IsStdoutTTY()
	if e.template != "" && e.jq == "" {
		if tty {
			v = sanitizeStrings(v)
		}
		return runTemplate(ios.Out, tty, ios.ColorEnabled(), e.template, v)
	}
	out := ios.Out
	if tty {
		w := text.NewWriter(out)
		defer w.Flush()
		out = w
	}
	if e.jq != "" {
		return runJQ(out, tty, e.jq, v)
	}
	return writeJSON(out, v, "  ")
}

// sanitizeStrings sanitizes every string and key of v, a JSON value as
// toGeneric gives it.
func sanitizeStrings(v any) any {
	switch t := v.(type) {
	case string:
		return text.Sanitize(t)
	case []any:
		for i := range t {
			t[i] = sanitizeStrings(t[i])
		}
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[text.Sanitize(k)] = sanitizeStrings(x)
		}
		return out
	}
	return v
}

// toGeneric turns data into maps, slices and json.Numbers, the shapes
// field picking, jq and templates work on.
func toGeneric(data any) (any, error) {
	var raw []byte
	switch d := data.(type) {
	case json.RawMessage:
		raw = d
	case []byte:
		raw = d
	default:
		var err error
		if raw, err = json.Marshal(data); err != nil {
			return nil, fmt.Errorf("encoding JSON: %w", err)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	return v, nil
}

// pick keeps the requested fields of an object, or of each object in an
// array. A field is available if forge knows it or the server sent it.
func (e *Exporter) pick(v any) (any, error) {
	want := splitFields(e.fields)
	avail := map[string]bool{}
	for _, k := range e.known {
		avail[k] = true
	}
	var objs []map[string]any
	switch t := v.(type) {
	case map[string]any:
		objs = []map[string]any{t}
	case []any:
		for _, it := range t {
			if m, ok := it.(map[string]any); ok {
				objs = append(objs, m)
			}
		}
	default:
		return v, nil
	}
	for _, m := range objs {
		for k := range m {
			avail[k] = true
		}
	}
	for _, f := range want {
		if !avail[f] {
			return nil, cmdcore.UsageErrorf("unknown JSON field %q; available fields: %s", f, strings.Join(sortedKeys(avail), ", "))
		}
	}
	project := func(m map[string]any) map[string]any {
		out := make(map[string]any, len(want))
		for _, f := range want {
			out[f] = m[f] // a field forge knows but the server left out is null
		}
		return out
	}
	if m, ok := v.(map[string]any); ok {
		return project(m), nil
	}
	list := make([]any, 0, len(objs))
	for _, m := range objs {
		list = append(list, project(m))
	}
	return list, nil
}

func splitFields(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// writeJSON prints v as JSON without escaping <, > and &.
func writeJSON(w io.Writer, v any, indent string) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	return enc.Encode(v)
}

// runJQ prints each result of the expression: strings raw, like `jq -r`,
// everything else as JSON (indented on a terminal, compact when piped).
func runJQ(out io.Writer, tty bool, expr string, v any) error {
	q, err := gojq.Parse(expr)
	if err != nil {
		return cmdcore.UsageErrorf("bad --jq expression: %v", err)
	}
	indent := ""
	if tty {
		indent = "  "
	}
	iter := q.Run(v)
	for {
		r, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, ok := r.(error); ok {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return nil
			}
			return fmt.Errorf("jq: %v", err)
		}
		if s, ok := r.(string); ok {
			fmt.Fprintln(out, s)
			continue
		}
		if err := writeJQValue(out, r, indent); err != nil {
			return err
		}
	}
}

func writeJQValue(w io.Writer, r any, indent string) error {
	b, err := gojq.Marshal(r)
	if err != nil {
		return fmt.Errorf("jq: %v", err)
	}
	if indent != "" {
		var buf bytes.Buffer
		if json.Indent(&buf, b, "", indent) == nil {
			b = buf.Bytes()
		}
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func runTemplate(out io.Writer, tty, color bool, src string, v any) error {
	tbl := &tplTable{tty: tty}
	t, err := newTemplate(src, color, tbl)
	if err != nil {
		return cmdcore.UsageErrorf("bad --template: %v", err)
	}
	if err := t.Execute(out, v); err != nil {
		return fmt.Errorf("template: %v", err)
	}
	// Rows never rendered are printed at the end, as gh does.
	_, err = io.WriteString(out, tbl.render())
	return err
}
