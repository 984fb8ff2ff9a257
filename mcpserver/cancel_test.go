package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeConn reads the messages it was given and keeps what is written.
type fakeConn struct {
	in      []jsonrpc.Message
	written []jsonrpc.Message
}

func (f *fakeConn) Read(context.Context) (jsonrpc.Message, error) {
	m := f.in[0]
	f.in = f.in[1:]
	return m, nil
}
func (f *fakeConn) Write(_ context.Context, m jsonrpc.Message) error {
	f.written = append(f.written, m)
	return nil
}
func (f *fakeConn) Close() error      { return nil }
func (f *fakeConn) SessionID() string { return "" }

type fakeTransport struct{ c *fakeConn }

func (t fakeTransport) Connect(context.Context) (mcp.Connection, error) { return t.c, nil }

// TestCancelledCallsAreNotAnswered: after notifications/cancelled the
// answer to that call is not sent (the SDK answers every call: forge's
// connection drops it); other answers are, and an ID cancelled after its
// answer, or reused later, is answered.
func TestCancelledCallsAreNotAnswered(t *testing.T) {
	id := func(v any) jsonrpc.ID { i, _ := jsonrpc.MakeID(v); return i }
	cancelled := func(v any) *jsonrpc.Request {
		p, _ := json.Marshal(map[string]any{"requestId": v, "reason": "the user stopped it"})
		return &jsonrpc.Request{Method: "notifications/cancelled", Params: p}
	}
	fake := &fakeConn{in: []jsonrpc.Message{
		&jsonrpc.Request{ID: id(float64(2)), Method: "tools/call"},
		&jsonrpc.Request{ID: id("three"), Method: "tools/call"},
		cancelled(float64(2)),
		cancelled("four"), // never asked
	}}
	conn, err := quietCancel{fakeTransport{fake}}.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if _, err := conn.Read(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []any{float64(2), "three", "four"} {
		if err := conn.Write(context.Background(), &jsonrpc.Response{ID: id(v), Result: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	var got []any
	for _, m := range fake.written {
		got = append(got, m.(*jsonrpc.Response).ID.Raw())
	}
	if len(got) != 2 || got[0] != "three" || got[1] != "four" {
		t.Errorf("answered %v; want three and four, not the cancelled 2", got)
	}
	// ID 2 again, a new call: answered.
	fake.in = []jsonrpc.Message{&jsonrpc.Request{ID: id(float64(2)), Method: "tools/call"}}
	conn.Read(context.Background())
	conn.Write(context.Background(), &jsonrpc.Response{ID: id(float64(2)), Result: json.RawMessage(`{}`)})
	if len(fake.written) != 3 {
		t.Errorf("a reused ID was not answered")
	}
}
