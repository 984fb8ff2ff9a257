package mcpserver

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/forgehq/forge/mcpserver/mcpservertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func TestHTTPTransportWantsTheToken(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	url, token := serveOverHTTP(t, h, toolsets("account"))
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
	if err != nil || res.IsError || !strings.Contains(mcpservertest.Text(res), `"login":"alice"`) {
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
