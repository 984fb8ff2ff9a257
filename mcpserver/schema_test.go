package mcpserver

import (
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/forgehq/forge/mcpserver/mcpservertest"
)

var update = flag.Bool("update", false, "rewrite testdata/tools.json")

// TestToolsSnapshot: every tool as a client lists it — name, title,
// description, hints, input schema — against testdata/tools.json, so a
// change to one is seen in review (go test ./mcpserver -run
// TestToolsSnapshot -update rewrites it). The server advertises only
// what it does: tools, resources and prompts, whose lists never change.
func TestToolsSnapshot(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	s := serve(t, h, allowWrite)
	got, err := json.MarshalIndent(s.Tools(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const golden = "testdata/tools.json"
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("the tools changed; review the difference and run with -update:\n%s", got)
	}
	caps, _ := json.Marshal(s.InitializeResult().Capabilities)
	if string(caps) != `{"prompts":{},"resources":{},"tools":{}}` {
		t.Errorf("capabilities %s", caps)
	}
}
