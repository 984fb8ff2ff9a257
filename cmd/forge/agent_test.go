package main

import (
	"strconv"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/rogpeppe/go-internal/testscript"
)

const agentUsage = `usage:
	agent quota N         set the agent key's quota per period to N tokens
	agent used N          set the tokens the agent key has used this period
	agent delay DURATION  pause before each streamed chunk (e.g. 20ms)`

// agentCmd is the script builtin that changes the per-script server's
// agent API: its key's quota and usage, and the stream's pace.
func agentCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("%s", agentUsage)
	}
	srv, _ := ts.Value(srvKey{}).(*refserver.Server)
	if srv == nil {
		ts.Fatalf("agent: no reference server in this script")
	}
	a, key := srv.Agent(), srv.AgentKey()
	switch args[0] {
	case "quota", "used":
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		if args[0] == "quota" {
			ts.Check(a.SetQuota(key, n))
		} else {
			ts.Check(a.SetUsed(key, n))
		}
	case "delay":
		d, err := time.ParseDuration(args[1])
		ts.Check(err)
		a.SetChunkDelay(d)
	default:
		ts.Fatalf("%s", agentUsage)
	}
}
