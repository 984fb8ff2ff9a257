package mcpserver

import (
	"context"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/mcptools"
	"github.com/forgehq/forge/mcpserver/mcpservertest"
)

// serve runs Serve over stdio with the options set, connected to the
// SDK's client.
func serve(t testing.TB, w *mcpservertest.World, set ...func(*mcptools.ServeOptions)) *mcpservertest.Session {
	t.Helper()
	return mcpservertest.Connect(t, w, runServe(set...))
}

// serveHTTP runs Serve over streamable HTTP on 127.0.0.1:0 with the
// options set: its URL and token.
func serveOverHTTP(t *testing.T, w *mcpservertest.World, set ...func(*mcptools.ServeOptions)) (url, token string) {
	t.Helper()
	return mcpservertest.HTTP(t, w, runServe(append(set, func(o *mcptools.ServeOptions) { o.HTTPAddr = "127.0.0.1:0" })...))
}

func runServe(set ...func(*mcptools.ServeOptions)) mcpservertest.Run {
	var opts mcptools.ServeOptions
	for _, f := range set {
		f(&opts)
	}
	return func(ctx context.Context, f *cmdutil.Factory) int { return cmdcore.ExitCode(Serve(ctx, f, opts)) }
}

func allowWrite(o *mcptools.ServeOptions) { o.AllowWrite = true }
func lockdown(o *mcptools.ServeOptions)   { o.Lockdown = true }

func toolsets(names ...string) func(*mcptools.ServeOptions) {
	return func(o *mcptools.ServeOptions) { o.Toolsets = names }
}
