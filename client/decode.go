package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/timestamp"
)

// Raw keeps the exact JSON the server sent for a record. Every resource
// type embeds it, so `--json` can print fields forge has no name for.
type Raw struct{ raw json.RawMessage }

// RawJSON returns the record as the server sent it, or nil for a record
// built by hand.
func (r *Raw) RawJSON() json.RawMessage { return r.raw }

func (r *Raw) setRaw(b []byte) { r.raw = b }

type rawSetter interface{ setRaw([]byte) }

// decode unmarshals a JSON answer tolerantly: a field whose JSON type does
// not match its Go type is left zero instead of failing the record
// (encoding/json skips it and reports an *UnmarshalTypeError, which is
// dropped here); unknown fields are ignored. Only JSON that does not parse
// at all is an error. A record that embeds Raw keeps a copy of body.
func decode(body []byte, out any) error {
	err := json.Unmarshal(body, out)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("the answer is not valid JSON: %w", err)
	}
	if r, ok := out.(rawSetter); ok {
		r.setRaw(bytes.Clone(body))
	}
	if f, ok := out.(fixer); ok {
		f.fix()
	}
	return nil
}

// fixer is a record that reconciles alternative spellings of its fields
// after decoding.
type fixer interface{ fix() }

// decodeNew decodes one record into a new T.
func decodeNew[T any](body []byte) (*T, error) {
	v := new(T)
	if err := decode(body, v); err != nil {
		return nil, err
	}
	return v, nil
}

// listItems splits a list answer into its records. The spec's lists are
// JSON arrays; tolerantly, an object wrapping one array (GitHub's
// {"total_count": 2, "items": [...]}, or {"repos": [...]}) is accepted too.
func listItems(body []byte) ([]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return nil, nil
	}
	var items []json.RawMessage
	if trimmed[0] == '[' {
		if err := json.Unmarshal(trimmed, &items); err != nil {
			return nil, fmt.Errorf("the answer is not a valid JSON list: %w", err)
		}
		return items, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &obj); err != nil {
		return nil, fmt.Errorf("the answer is not a JSON list: %w", err)
	}
	for _, key := range []string{"items", "data", "results", "values"} {
		if v, ok := obj[key]; ok && json.Unmarshal(v, &items) == nil {
			return items, nil
		}
	}
	var found []json.RawMessage
	arrays := 0
	for _, v := range obj {
		if t := bytes.TrimSpace(v); len(t) > 0 && t[0] == '[' && json.Unmarshal(t, &items) == nil {
			found = items
			arrays++
		}
	}
	if arrays == 1 {
		return found, nil
	}
	return nil, fmt.Errorf("the answer is a JSON object, not the list expected")
}

// Time is a timestamp from the service. The spec promises ISO 8601 UTC;
// decoding also accepts RFC 3339 with any offset or fraction, a space
// instead of the T, a date alone, and Unix seconds or milliseconds. A value
// in none of these forms is left zero rather than failing the record.
type Time struct{ time.Time }

// UnmarshalJSON implements json.Unmarshaler; it never fails.
func (t *Time) UnmarshalJSON(b []byte) error {
	t.Time = time.Time{}
	s := strings.TrimSpace(string(b))
	if s == "null" || s == `""` {
		return nil
	}
	if unq, err := strconv.Unquote(s); err == nil {
		s = unq
	}
	if v, ok := timestamp.Parse(s); ok {
		t.Time = v
	}
	return nil
}

// MarshalJSON writes RFC 3339, or null for a zero time.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.Time.Format(time.RFC3339Nano))
}
