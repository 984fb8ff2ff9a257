package serve

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
)

// TestServeAgentFlags: --agent-key is the key printed and accepted, and
// --agent-delay paces the stream; bad values are usage errors.
func TestServeAgentFlags(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	f := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
	srv, stop := serving(t, &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", AdminUser: "admin", CITick: time.Second,
		AgentKey: "agk_chosen_by_flag", AgentDelay: 7 * time.Millisecond})
	if !strings.Contains(out.String(), "\nAGENT_API_KEY=agk_chosen_by_flag\n") || srv.AgentKey() != "agk_chosen_by_flag" {
		t.Errorf("printed %q, key %q", out.String(), srv.AgentKey())
	}
	if _, ok := srv.Agent().Usage("agk_chosen_by_flag"); !ok {
		t.Error("the server does not accept the key")
	}
	if d := srv.Agent().ChunkDelay(); d != 7*time.Millisecond {
		t.Errorf("chunk delay %v", d)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	var usage *cmdcore.UsageError
	for _, o := range []*Options{
		{Deps: f.Deps(), Addr: "127.0.0.1:0", CITick: time.Second, AgentKey: "sk-not-ours-123456"},
		{Deps: f.Deps(), Addr: "127.0.0.1:0", CITick: time.Second, AgentDelay: -time.Second},
	} {
		if err := runServe(context.Background(), o); !errors.As(err, &usage) || !strings.Contains(err.Error(), "--agent-") {
			t.Errorf("%+v: %v", o, err)
		}
	}
}
