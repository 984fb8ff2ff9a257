package serve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/cmd/serve"
	"github.com/forgehq/forge/internal/iostreams"
)

// TestPathFlags: a path-valued flag of serve given another flag as its
// value (`--env-file --help`) is a one-line usage error naming the fix,
// exit 2, before anything starts; a path that starts with "-" is written
// ./-NAME. --ci-tick 0 makes a run that gets past parsing end at once.
func TestPathFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--env-file", "--help"}, `forge: --env-file takes a path, not "--help": put the path after it (a name that starts with "-" as ./--help)` + "\n"},
		{[]string{"--data", "--demo"}, `forge: --data takes a path, not "--demo": put the path after it (a name that starts with "-" as ./--demo)` + "\n"},
		{[]string{"--data=-"}, `forge: --data takes a path, not "-": put the path after it (a name that starts with "-" as ./-)` + "\n"},
		{[]string{"--env-file", "./--help"}, "forge: --ci-tick must be positive, as in --ci-tick 1s\n"},
	} {
		ios, _, out, errOut := iostreams.Test()
		f := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
		args := append([]string{"serve", "--addr", "127.0.0.1:0", "--ci-tick", "0"}, c.args...)
		code := serve.Run(context.Background(), f, args)
		if code != cmdcore.ExitUsage || errOut.String() != c.want || out.Len() != 0 {
			t.Errorf("forge %s: exit %d, stdout %q, stderr %q, want %q", strings.Join(args, " "), code, out.String(), errOut.String(), c.want)
		}
	}
}

// TestListenAnyFlag: without --listen-any a non-loopback --addr is a usage
// error naming it, exit 2.
func TestListenAnyFlag(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	f := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
	code := serve.Run(context.Background(), f, []string{"serve", "--addr", "0.0.0.0:0"})
	want := "forge: --addr 0.0.0.0:0 is not a loopback address: other machines could reach the reference server, which is meant for tests and demos on this one; use 127.0.0.1:PORT, or pass --listen-any\n"
	if code != cmdcore.ExitUsage || errOut.String() != want || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
