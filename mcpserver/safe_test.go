package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/text"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type inner struct{ Text string }

// walked holds a string every way a result can: the walk must reach each.
type walked struct {
	Plain   string
	Body    string `mcp:"prose"`
	Labels  map[string]string
	ByName  map[string]inner
	Ptrs    map[string]*inner
	Any     any
	AnyList []any
	Nested  [][]string
	private string
}

// TestOutReachesEveryString: maps (keys and values), interfaces and
// nested lists pass the filter like fields do. On main a map's strings
// and a struct held in an interface went to the model as they were.
func TestOutReachesEveryString(t *testing.T) {
	const bad = "x\x1b]0;t\a<!-- hidden -->\u202e"
	data := text.ForModel(bad)
	v := walked{Plain: bad, Body: bad, Labels: map[string]string{bad: bad}, ByName: map[string]inner{"k": {bad}},
		Ptrs: map[string]*inner{"p": {bad}}, Any: inner{bad}, AnyList: []any{inner{bad}, bad}, Nested: [][]string{{bad}}, private: bad}
	(&Server{}).out(&v)
	b, _ := json.Marshal(v)
	if strings.Contains(string(b), `\u001b`) || strings.Contains(string(b), `\u202e`) {
		t.Fatalf("a string skipped the filter: %s", b)
	}
	if v.Labels[data] != data || v.ByName["k"].Text != data || v.Ptrs["p"].Text != data || v.Any.(inner).Text != data ||
		v.AnyList[1] != data || v.Nested[0][0] != data || v.Plain != data {
		t.Errorf("%+v", v)
	}
	if v.Body != text.ProseForModel(bad) || strings.Contains(v.Body, "hidden -->") {
		t.Errorf("prose: %q", v.Body)
	}
}

// page is a field the walk does not cut (bounded by its page, as a
// file's text).
type page struct {
	Text string `mcp:"paged"`
}

type wide struct {
	Items []page `json:"items"`
	Note  string `json:"note,omitempty"`
}

// TestResultIsBoundOnceForEveryTool: whatever a tool puts in its result,
// what is sent is at most MaxResult bytes of JSON, cut where it is
// longest and saying so.
func TestResultIsBoundOnceForEveryTool(t *testing.T) {
	s := &Server{}
	many := wide{}
	for range 3000 {
		many.Items = append(many.Items, page{strings.Repeat("n", 80)})
	}
	long := wide{Items: []page{{strings.Repeat("<b>", 20000)}, {strings.Repeat("l", 30000)}, {strings.Repeat("m", 30000)}}}
	for name, v := range map[string]*wide{"many": &many, "long": &long} {
		res := s.result(v)
		txt := res.Content[0].(*mcp.TextContent).Text
		var back wide
		if len(txt) > MaxResult || json.Unmarshal([]byte(txt), &back) != nil || !strings.Contains(back.Note, "cut to the 65536-byte bound") {
			t.Errorf("%s: %d bytes, note %q", name, len(txt), back.Note)
		}
		if res.StructuredContent != nil || strings.Contains(txt, `\u003c`) {
			t.Errorf("%s: sent twice or escaped", name)
		}
	}
	if !strings.Contains(long.Items[0].Text, "[result bound: cut at ") {
		t.Errorf("the cut is not marked: %q", long.Items[0].Text[len(long.Items[0].Text)-60:])
	}
}
