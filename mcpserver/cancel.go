package mcpserver

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// quietCancel is a transport that answers no request the client
// cancelled: the spec says a receiver of notifications/cancelled should
// not respond to the request, and a client may report the answer as an
// error (the TypeScript SDK does). The SDK's JSON-RPC layer answers every
// call, so the connection drops the answer to a request cancelled while
// it ran. Over --http the SDK's transport is its own: there the client
// gets the answer ("interrupted"), which it ignores when it aborted the
// request.
type quietCancel struct{ mcp.Transport }

func (t quietCancel) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &quietConn{Connection: c, running: map[any]bool{}, cancelled: map[any]bool{}}, nil
}

type quietConn struct {
	mcp.Connection
	mu        sync.Mutex
	running   map[any]bool // calls read and not answered, by ID
	cancelled map[any]bool // of those, the ones the client cancelled
}

func (c *quietConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	req, ok := msg.(*jsonrpc.Request)
	if err != nil || !ok {
		return msg, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case req.ID.IsValid():
		c.running[req.ID.Raw()] = true
	case req.Method == "notifications/cancelled":
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			if id, err := jsonrpc.MakeID(p.RequestID); err == nil && c.running[id.Raw()] {
				c.cancelled[id.Raw()] = true
			}
		}
	}
	return msg, nil
}

func (c *quietConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		id := resp.ID.Raw()
		drop := c.cancelled[id]
		delete(c.running, id)
		delete(c.cancelled, id)
		c.mu.Unlock()
		if drop {
			return nil
		}
	}
	return c.Connection.Write(ctx, msg)
}
