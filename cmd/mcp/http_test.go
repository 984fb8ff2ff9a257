package mcp_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer runs `forge mcp serve --http 127.0.0.1:0 ARGS` in-process
// and returns the URL and token it printed.
func httpServer(t *testing.T, h *harness, args ...string) (url, token string) {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	errOut := &lockedBuffer{}
	ios.ErrOut = errOut
	env := maps(h.Env)
	f := cmdutil.New(ios, func(k string) string { return env[k] })
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() { code <- cmd.Run(ctx, f, append([]string{"mcp", "serve", "--http", "127.0.0.1:0"}, args...)) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-code:
		case <-time.After(30 * time.Second):
			t.Error("forge mcp serve --http did not stop")
		}
	})
	re := regexp.MustCompile(`Serving MCP at (http://\S+) until Ctrl-C\nAuthorization: Bearer (\S+)\n`)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(errOut.String()); m != nil {
			return m[1], m[2]
		}
		select {
		case c := <-code:
			t.Fatalf("forge mcp serve --http exited %d: %s", c, errOut)
		default:
		}
	}
	t.Fatalf("no address printed: %q", errOut)
	return "", ""
}

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func TestHTTPTransportWantsTheToken(t *testing.T) {
	h := world(t)
	h.Env["FORGE_MCP_TOOLSETS"] = "account"
	url, token := httpServer(t, h)
	if len(token) != 48 {
		t.Errorf("token %q", token)
	}
	connect := func(tok string) (*mcp.ClientSession, error) {
		c := mcp.NewClient(&mcp.Implementation{Name: "forge-test", Version: "1"}, nil)
		return c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerTransport{tok}}, MaxRetries: -1}, nil)
	}
	for _, bad := range []string{"", "wrong", token + "x"} {
		if cs, err := connect(bad); err == nil {
			cs.Close()
			t.Errorf("connected with token %q", bad)
		}
	}
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("without a token: %s, %q", resp.Status, resp.Header.Get("WWW-Authenticate"))
	}
	cs, err := connect(token)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami"})
	if err != nil || res.IsError || !strings.Contains(resultText(res), `"login":"alice"`) {
		t.Fatalf("whoami over HTTP: %v %+v", err, res)
	}
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "whoami" {
		t.Errorf("tools over HTTP: %v", names)
	}
}

func TestHTTPOnlyOnLoopbackUnlessTold(t *testing.T) {
	h := world(t)
	r := h.run("mcp", "serve", "--http", "0.0.0.0:0")
	if r.Code != 2 || !strings.Contains(r.Err, "--http 0.0.0.0:0 is not a loopback address") || !strings.Contains(r.Err, "--listen-any") {
		t.Errorf("exit %d, %q", r.Code, r.Err)
	}
	h.Env["FORGE_MCP_TOKEN"] = "a-token-given-by-the-user"
	_, token := httpServer(t, h)
	if token != "a-token-given-by-the-user" {
		t.Errorf("FORGE_MCP_TOKEN: printed %q", token)
	}
}
