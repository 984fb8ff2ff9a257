package api

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
)

// field is one -f or -F: its key path ("labels[]" is labels and an
// append, "a[b]" is a and b) and its value.
type field struct {
	path  []string // "" stands for [] (append)
	value any
}

// parseFields reads the -f (raw) and -F (typed) flags in gh's syntax.
// Typed values: true, false and null become JSON's; a JSON number becomes a
// number; @FILE becomes the file's content (@- standard input); anything
// else stays a string. expand fills {owner} and {repo} in typed values.
func parseFields(raw, typed []string, stdin io.Reader, expand func(string) (string, error)) ([]field, error) {
	var out []field
	for _, kv := range raw {
		f, err := splitField("-f", kv)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	stdinUsed := false
	for _, kv := range typed {
		f, err := splitField("-F", kv)
		if err != nil {
			return nil, err
		}
		s := f.value.(string)
		switch {
		case strings.HasPrefix(s, "@"):
			if s == "@-" {
				if stdinUsed {
					return nil, cmdcore.UsageErrorf("only one field can read standard input (@-)")
				}
				stdinUsed = true
			}
			b, err := readFileArg(s[1:], stdin)
			if err != nil {
				return nil, err
			}
			f.value = string(b)
		case s == "true":
			f.value = true
		case s == "false":
			f.value = false
		case s == "null":
			f.value = nil
		case isJSONNumber(s):
			f.value = json.Number(s)
		default:
			if f.value, err = expand(s); err != nil {
				return nil, err
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// splitField parses KEY=VALUE with an optional path in brackets.
func splitField(flag, kv string) (field, error) {
	key, value, ok := strings.Cut(kv, "=")
	if !ok || key == "" {
		return field{}, cmdcore.UsageErrorf("%s %q: give a field as key=value", flag, kv)
	}
	name, rest, _ := strings.Cut(key, "[")
	path := []string{name}
	if rest != "" || strings.Contains(key, "[") {
		rest = "[" + rest
		for rest != "" {
			if !strings.HasPrefix(rest, "[") {
				return field{}, cmdcore.UsageErrorf("%s %q: bad key; write name, name[] or name[key]", flag, kv)
			}
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return field{}, cmdcore.UsageErrorf("%s %q: bad key; write name, name[] or name[key]", flag, kv)
			}
			path = append(path, rest[1:end])
			rest = rest[end+1:]
		}
	}
	if name == "" {
		return field{}, cmdcore.UsageErrorf("%s %q: the key has no name", flag, kv)
	}
	return field{path: path, value: value}, nil
}

// isJSONNumber reports whether s is a number as JSON writes it (so "007"
// and "1." stay strings).
func isJSONNumber(s string) bool {
	if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return false
	}
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return false
	}
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil
}

// readFileArg reads a file named on the command line; "-" is stdin.
func readFileArg(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, cmdcore.UsageErrorf("no such file: %s", name)
		}
		return nil, err
	}
	return b, nil
}

// bodyOf builds the JSON object the fields describe.
func bodyOf(fields []field) (map[string]any, error) {
	root := map[string]any{}
	for _, f := range fields {
		if err := place(root, f.path, f.value); err != nil {
			return nil, err
		}
	}
	return root, nil
}

// place sets value at path inside obj, creating objects and arrays on the
// way: a[b]=1 makes {"a":{"b":1}}, a[]=1 a[]=2 makes {"a":[1,2]}, and
// a[][b]=1 appends {"b":1}.
func place(obj map[string]any, path []string, value any) error {
	key := path[0]
	if len(path) == 1 {
		obj[key] = value
		return nil
	}
	next := path[1]
	if next == "" { // an array
		list, _ := obj[key].([]any)
		if _, isList := obj[key].([]any); obj[key] != nil && !isList {
			return cmdcore.UsageErrorf("field %s is both a value and a list", key)
		}
		if len(path) == 2 {
			obj[key] = append(list, value)
			return nil
		}
		child := map[string]any{}
		if err := place(child, path[2:], value); err != nil {
			return err
		}
		obj[key] = append(list, child)
		return nil
	}
	child, ok := obj[key].(map[string]any)
	if !ok {
		if obj[key] != nil {
			return cmdcore.UsageErrorf("field %s is both a value and an object", key)
		}
		child = map[string]any{}
		obj[key] = child
	}
	return place(child, path[1:], value)
}

// addQuery puts the fields into a URL query instead (GET, or a body given
// with --input): key=value, and key[]=value for each element of a list.
func addQuery(path string, fields []field) (string, error) {
	q := url.Values{}
	for _, f := range fields {
		key := f.path[0]
		switch {
		case len(f.path) == 1:
		case len(f.path) == 2 && f.path[1] == "":
			key += "[]"
		default:
			return "", cmdcore.UsageErrorf("field %s: nested keys only make sense in a JSON body; add -X POST (or the method you want)", strings.Join(f.path, "."))
		}
		q.Add(key, queryValue(f.value))
	}
	if len(q) == 0 {
		return path, nil
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + q.Encode(), nil
}

func queryValue(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	}
	return fmt.Sprint(v)
}
