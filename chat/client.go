// Package chat is the client of the service's agent chat API, version 1
// ({agent_url}/api/v1): one-shot replies (Send), streamed replies over
// Server-Sent Events (Stream), the key's usage, and a Session that keeps a
// conversation's history and model and answers the in-session commands.
//
// A chat POST is never sent twice: not retried, not reconnected (a second
// POST would be a second message, billed twice).
//
// # Attached context
//
// An attachment (an issue, a CI run, a file, a commit) travels inside the
// message it goes with, before the user's text, as a fenced block whose
// opening line names it:
//
//	```forge-context run:57
//	CI run 57 (CI #12) on main: completed, failure
//	job test (ID 9): failure; failed step 3: Test
//	@@ job test (failure): log @@
//	[forge: cut 120 of 160 lines from the top to fit the token budget]
//	2026-01-02T03:04:05.000Z ##[error]Process completed with exit code 1.
//	```
//
// The fence is a run of backticks longer than any run of backticks in the
// block (at least three), so the block's text cannot end it early. The
// opening line is the fence, "forge-context", one space and the REF the
// attachment was made from; the first line inside is its title. A line
// "@@ TITLE @@" starts a section (a job's log, the comments, the changed
// files). When the budget forced a cut, the section says so on its first
// line: "[forge: cut N of M lines from the top to fit the token budget]"
// (or "from the end"). Blocks are separated by a blank line, and the
// user's text follows the last one after a blank line. The agent reads
// this like any markdown; the reference agent (refserver/agent) finds the
// blocks and refers to them in its replies.
//
// Attachments are made by app/agentctx (Build turns a REF into one);
// Session.AttachContext queues them for the next message, Fit cuts them to
// the budget: the smaller of the per-message cap (Session.ContextLimit) and
// the key's remaining quota less ReplyReserve and the rest of the prompt
// (only the cap when the service does not report usage).
package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/authanswer"
	"github.com/forgehq/forge/internal/httpwait"
	"github.com/forgehq/forge/internal/origin"
	"github.com/forgehq/forge/internal/timestamp"
	"github.com/forgehq/forge/internal/wire"
)

// Message is one item of a conversation: Role is "user" or "assistant".
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is a chat message with the conversation before it. An empty
// Model lets the service choose its default.
type Request struct {
	Model   string    `json:"model,omitempty"`
	Message string    `json:"message"`
	History []Message `json:"history"`
}

// Usage is the token count of one reply. FinishReason, when the service
// sends one, is "stop" for a complete reply and "quota" for one cut off at
// the key's quota.
type Usage struct {
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	TotalTokens      int    `json:"total_tokens"`
	FinishReason     string `json:"-"`
}

// Reply is the answer of Send. Raw is the service's whole JSON object,
// fields this package does not know included.
type Reply struct {
	Reply        string          `json:"reply"`
	Model        string          `json:"model"`
	Usage        Usage           `json:"usage"`
	FinishReason string          `json:"finish_reason"`
	Raw          json.RawMessage `json:"-"`
}

// AgentUsage is a key's standing in the current quota period.
type AgentUsage struct {
	Tier         string          `json:"tier"`
	UsedTokens   int             `json:"used_tokens"`
	QuotaTokens  int             `json:"quota_tokens"`
	Remaining    int             `json:"remaining"`
	PeriodResets string          `json:"period_resets"`
	Raw          json.RawMessage `json:"-"`
}

// Resets parses PeriodResets (internal/timestamp: the REST API's forms
// too); ok is false when the service sent none or something that is not a
// timestamp.
func (u *AgentUsage) Resets() (t time.Time, ok bool) {
	return timestamp.Parse(u.PeriodResets)
}

// Client talks to one agent API with one key. It is safe for concurrent
// use.
type Client struct {
	base      string // agent_url, without /api/v1
	key       string
	http      *http.Client
	userAgent string
	// Wait is how long hc waits for an answer (FORGE_HTTP_TIMEOUT), for
	// the error when it runs out; 0 when not known.
	Wait time.Duration
}

// New returns a client of the agent API at agentURL (the service's address;
// a trailing /api/v1 is accepted too). hc is the HTTP client to use; nil
// means one on internal/wire's default transport. It must not have a timeout shorter than a
// streamed reply.
func New(agentURL, key string, hc *http.Client, userAgent string) *Client {
	base := strings.TrimRight(agentURL, "/")
	base = strings.TrimSuffix(base, "/api/v1")
	if hc == nil {
		hc = &http.Client{Transport: wire.Default()}
	}
	// A copy with forge's redirect rule: the key goes only to the origin
	// it was sent to first (net/http would forward it to another port of
	// the same host).
	cp := *hc
	cp.CheckRedirect = origin.CheckRedirect
	return &Client{base: base, key: key, http: &cp, userAgent: userAgent}
}

// Error is a response of the agent API other than 2xx.
type Error struct {
	StatusCode int
	Message    string        // the service's {"error": ...}, or a summary of the body
	RetryAfter time.Duration // from Retry-After, when given
}

func (e *Error) Error() string {
	msg := e.Message
	if e.StatusCode == http.StatusTooManyRequests && e.RetryAfter > 0 && !strings.Contains(msg, "reset") {
		msg += fmt.Sprintf("; try again in %s", e.RetryAfter.Round(time.Second))
	}
	return fmt.Sprintf("agent API: %s (HTTP %d)", msg, e.StatusCode)
}

// HTTPStatus lets forge map 401 to its authentication exit code.
func (e *Error) HTTPStatus() int { return e.StatusCode }

// CredentialsRefused reports whether the service refused the key: a 401,
// or a 403 saying the key or token is invalid, expired or revoked
// (authanswer.Refused). forge exits 4 for it, as for a 401.
func (e *Error) CredentialsRefused() bool { return authanswer.Refused(e.StatusCode, e.Message) }

func (c *Client) newRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		js, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(js)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+"/api/v1"+path, rd)
	if err != nil {
		return nil, fmt.Errorf("agent URL %q: %w", c.base, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	return req, nil
}

// do sends a request and returns the response when its status is 2xx;
// otherwise it reads the body into an *Error.
func (c *Client) do(req *http.Request) (*http.Response, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return nil, ctxErr
		}
		if httpwait.IsTimeout(err) {
			return nil, &httpwait.Error{What: req.Method + " " + req.URL.Redacted(), Wait: c.Wait}
		}
		return nil, fmt.Errorf("agent API at %s: %w", c.base, unwrapURLError(err))
	}
	if resp.StatusCode/100 == 2 {
		return resp, nil
	}
	defer resp.Body.Close()
	return nil, readError(resp)
}

// unwrapURLError drops net/url's "Post URL:" prefix; the message names
// the address already.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func readError(resp *http.Response) error {
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	e := &Error{StatusCode: resp.StatusCode}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	var body struct {
		Error any `json:"error"`
	}
	if json.Unmarshal(data, &body) == nil {
		switch v := body.Error.(type) {
		case string:
			e.Message = v
		case map[string]any: // {"error": {"message": ...}}, as some services send
			if m, ok := v["message"].(string); ok {
				e.Message = m
			}
		}
	}
	if e.Message == "" {
		e.Message = http.StatusText(resp.StatusCode)
		if text := strings.TrimSpace(string(data)); text != "" && len(text) <= 200 && !strings.ContainsAny(text, "<\n") {
			e.Message += ": " + text
		}
	}
	return e
}

// Send asks for a whole reply at once (POST /api/v1/chat).
func (c *Client) Send(ctx context.Context, r Request) (*Reply, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	req, err := c.newRequest(ctx, http.MethodPost, "/chat", r.body())
	if err != nil {
		return nil, err
	}
	resp, err := c.do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var reply Reply
	if err := decodeBody(ctx, resp, &reply); err != nil {
		return nil, err
	}
	reply.Usage.FinishReason = reply.FinishReason
	return &reply, nil
}

// Usage returns the key's tier, quota and usage (GET /api/v1/usage).
func (c *Client) Usage(ctx context.Context) (*AgentUsage, error) {
	req, err := c.newRequest(ctx, http.MethodGet, "/usage", nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var u AgentUsage
	return &u, decodeBody(ctx, resp, &u)
}

// ErrNoModelList means the service does not list its models.
var ErrNoModelList = errors.New("the agent API does not list its models")

// Models lists the service's models and its default one (GET
// /api/v1/models, which the reference server offers but the service's
// specification does not promise: a 404 is ErrNoModelList).
func (c *Client) Models(ctx context.Context) (names []string, def string, err error) {
	req, err := c.newRequest(ctx, http.MethodGet, "/models", nil)
	if err != nil {
		return nil, "", err
	}
	resp, err := c.do(req)
	var he *Error
	if errors.As(err, &he) && (he.StatusCode == http.StatusNotFound || he.StatusCode == http.StatusMethodNotAllowed) {
		return nil, "", ErrNoModelList
	}
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	var body struct {
		Default string `json:"default"`
		Models  []any  `json:"models"`
	}
	if err := decodeBody(ctx, resp, &body); err != nil {
		return nil, "", err
	}
	for _, m := range body.Models {
		switch v := m.(type) {
		case string:
			names = append(names, v)
		case map[string]any: // [{"id": ...}] or [{"name": ...}]
			for _, k := range []string{"id", "name"} {
				if s, ok := v[k].(string); ok {
					names = append(names, s)
					break
				}
			}
		}
	}
	return names, body.Default, nil
}

// maxAnswer is the largest JSON answer read into memory.
const maxAnswer = 64 << 20

// decodeBody decodes a JSON response into v and keeps the raw bytes in v's
// Raw field when it has one.
func decodeBody(ctx context.Context, resp *http.Response, v any) error {
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("agent API: reading the response: %w", err)
	}
	if len(data) > maxAnswer {
		return fmt.Errorf("agent API: the answer is larger than %d MiB", maxAnswer>>20)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "" && mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		return fmt.Errorf("agent API: expected JSON, got %s", mt)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("agent API: malformed JSON response: %w", err)
	}
	switch r := v.(type) {
	case *Reply:
		r.Raw = data
	case *AgentUsage:
		r.Raw = data
	}
	return nil
}

// ErrEmptyMessage refuses a blank message before anything is sent.
var ErrEmptyMessage = errors.New("empty message: type something to send")

func (r *Request) check() error {
	if strings.TrimSpace(r.Message) == "" {
		return ErrEmptyMessage
	}
	return nil
}

// body is the request as sent: history always an array.
func (r *Request) body() Request {
	b := *r
	if b.History == nil {
		b.History = []Message{}
	}
	return b
}
