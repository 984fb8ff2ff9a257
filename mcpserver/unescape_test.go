package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The unescaper writes what encoding/json escaped for HTML as it is,
// however the writes are cut, and keeps every other escape.
func TestUnescaperKeepsTheJSON(t *testing.T) {
	v := map[string]string{"text": "a < b && c > d; \"<\" \\u003c \u2028 \\", "<key>": "\\\"&"}
	in, _ := json.Marshal(v)
	for size := 1; size <= len(in); size++ {
		var out bytes.Buffer
		u := &unescaper{w: &out}
		for rest := in; len(rest) > 0; rest = rest[min(size, len(rest)):] {
			u.Write(rest[:min(size, len(rest))])
		}
		var back map[string]string
		if err := json.Unmarshal(out.Bytes(), &back); err != nil || back["text"] != v["text"] || back["<key>"] != v["<key>"] {
			t.Fatalf("in pieces of %d: %s (%v)", size, out.Bytes(), err)
		}
		if !bytes.Contains(out.Bytes(), []byte(`a < b && c > d`)) || !bytes.Contains(out.Bytes(), []byte(`"<key>"`)) {
			t.Fatalf("in pieces of %d: still escaped: %s", size, out.Bytes())
		}
	}
}
