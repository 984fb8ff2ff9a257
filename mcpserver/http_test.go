package mcpserver

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

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

// post sends one JSON-RPC body to the server with the token and headers.
func post(t *testing.T, url, token, body string, header map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestHTTPIsBounded: another site's page cannot reach the server (Origin),
// the scheme of Authorization is any case, and a client cannot open
// sessions or send batches without end. On main an Origin of another
// site was served, "bearer" refused, sessions unlimited and a batch of
// 2,000 calls accepted.
func TestHTTPIsBounded(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	url, token := serveOverHTTP(t, h, toolsets("account"))
	if resp := post(t, url, token, initialize, map[string]string{"Origin": "http://evil.example"}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("from another origin: %s", resp.Status)
	}
	self := strings.TrimSuffix(url, "/mcp")
	if resp := post(t, url, token, initialize, map[string]string{"Origin": self}); resp.StatusCode != http.StatusOK {
		t.Errorf("from its own origin: %s", resp.Status)
	}
	batch := "[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","method":"notifications/initialized"},`, 2000), ",") + "]"
	if resp := post(t, url, token, batch, nil); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a batch of 2,000: %s", resp.Status)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "forge-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: headerTransport{"Authorization", "bearer " + token}}}, nil)
	if err != nil {
		t.Fatalf("a lower-case bearer: %v", err)
	}
	cs.Close()
	// Sessions: the one opened above may still be ending; open up to the
	// bound, then one more is refused until one ends.
	var ids []string
	for range MaxSessions + 1 {
		resp := post(t, url, token, initialize, nil)
		if resp.StatusCode != http.StatusOK {
			if resp.StatusCode != http.StatusServiceUnavailable {
				t.Fatalf("initialize: %s", resp.Status)
			}
			break
		}
		ids = append(ids, resp.Header.Get("Mcp-Session-Id"))
	}
	if len(ids) > MaxSessions || len(ids) < MaxSessions-2 {
		t.Fatalf("%d sessions opened; the bound is %d", len(ids), MaxSessions)
	}
	if resp := post(t, url, token, initialize, nil); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a session past %d: %s", MaxSessions, resp.Status)
	}
	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", ids[0])
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode >= 300 {
		t.Fatalf("ending a session: %v %v", err, resp)
	}
	if resp := post(t, url, token, initialize, nil); resp.StatusCode != http.StatusOK {
		t.Errorf("after a session ended: %s", resp.Status)
	}
}

type headerTransport struct{ name, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// TestHTTPIdleConnectionsDoNotStarveTheClient: MaxConns connections that
// send nothing are closed after the header timeout, and a client with the
// token is then served. On main they stayed open forever.
func TestHTTPIdleConnectionsDoNotStarveTheClient(t *testing.T) {
	defer func(d time.Duration) { headerTimeout = d }(headerTimeout)
	headerTimeout = 200 * time.Millisecond
	h := mcpservertest.NewWorld(t)
	url, token := serveOverHTTP(t, h, toolsets("account"))
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	for range MaxConns + 10 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "forge-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearerTransport{token}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami"}); err != nil || res.IsError {
		t.Fatalf("whoami: %v", err)
	}
}
