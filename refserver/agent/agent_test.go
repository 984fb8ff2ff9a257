package agent_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver/agent"
)

// fixture is an agent API on a loopback listener with one key.
type fixture struct {
	svc *agent.Service
	url string
	key string
	// streamed receives a value each time the handler of a stream
	// request has returned: its billing is final then.
	streamed chan struct{}
}

func newFixture(t *testing.T, tier string) *fixture {
	t.Helper()
	svc := agent.New()
	key, err := svc.CreateKey(tier)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{svc: svc, key: key, streamed: make(chan struct{}, 100)}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		svc.ServeHTTP(w, r)
		if r.URL.Path == "/api/v1/chat/stream" {
			f.streamed <- struct{}{}
		}
	}))
	t.Cleanup(ts.Close)
	f.url = ts.URL
	return f
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (f *fixture) do(t *testing.T, method, path string, body any, header ...string) response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		js, _ := json.Marshal(b)
		rd = bytes.NewReader(js)
	}
	req, err := http.NewRequest(method, f.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if len(header) == 0 {
		header = []string{"Authorization", "Bearer " + f.key}
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{resp.StatusCode, resp.Header, data}
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body %q is not a JSON object: %v", r.body, err)
	}
	return m
}

// wantError checks the status and that the body is {"error": msg} with msg
// containing every part.
func (r response) wantError(t *testing.T, status int, parts ...string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	m := r.json(t)
	msg, ok := m["error"].(string)
	if !ok || len(m) != 1 {
		t.Fatalf("error body %s, want exactly {\"error\": string}", r.body)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not mention %q", msg, p)
		}
	}
}

func num(t *testing.T, v any) int {
	t.Helper()
	f, ok := v.(float64)
	if !ok || f != float64(int(f)) {
		t.Fatalf("%v (%T) is not an integer", v, v)
	}
	return int(f)
}

func TestUsage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "free")
	r := f.do(t, "GET", "/api/v1/usage", nil)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Fatalf("status %d, content type %q", r.status, r.header.Get("Content-Type"))
	}
	m := r.json(t)
	if m["tier"] != "free" || num(t, m["used_tokens"]) != 0 || num(t, m["quota_tokens"]) != 25000 || num(t, m["remaining"]) != 25000 {
		t.Errorf("usage %s", r.body)
	}
	resets, err := time.Parse(time.RFC3339, m["period_resets"].(string))
	if err != nil || resets.Day() != 1 || !resets.After(time.Now()) || time.Until(resets) > 32*24*time.Hour {
		t.Errorf("period_resets %v (%v): want the first of next month", m["period_resets"], err)
	}
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "free")
	ok := map[string][]string{
		"bearer":          {"Authorization", "Bearer " + f.key},
		"bearer any case": {"Authorization", "bearer " + f.key},
		"x-api-key":       {"X-API-Key", f.key},
	}
	for name, h := range ok {
		if r := f.do(t, "GET", "/api/v1/usage", nil, h...); r.status != 200 {
			t.Errorf("%s: status %d: %s", name, r.status, r.body)
		}
	}
	bad := []struct {
		name   string
		header []string
		want   string
	}{
		{"no key", []string{"Accept", "application/json"}, "missing API key"},
		{"unknown key", []string{"Authorization", "Bearer agk_0000000000000000"}, "invalid API key"},
		{"no prefix", []string{"X-API-Key", "sk-123456789012345"}, `start with "agk_"`},
		{"basic auth", []string{"Authorization", "Basic dXNlcjpwYXNz"}, "unsupported Authorization scheme"},
	}
	for _, c := range bad {
		for _, path := range []string{"/api/v1/usage", "/api/v1/chat", "/api/v1/chat/stream"} {
			method := "POST"
			if path == "/api/v1/usage" {
				method = "GET"
			}
			r := f.do(t, method, path, map[string]string{"message": "hi"}, c.header...)
			r.wantError(t, 401, c.want)
			if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("%s %s: WWW-Authenticate %q", c.name, path, r.header.Get("WWW-Authenticate"))
			}
		}
	}
	f.svc.RemoveKey(f.key)
	f.do(t, "GET", "/api/v1/usage", nil).wantError(t, 401, "invalid API key")
}

func TestRoutes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "free")
	r := f.do(t, "GET", "/api/v1/chat", nil)
	r.wantError(t, 405, "use POST")
	if r.header.Get("Allow") != "POST" {
		t.Errorf("Allow %q", r.header.Get("Allow"))
	}
	f.do(t, "POST", "/api/v1/usage", nil).wantError(t, 405, "use GET")
	f.do(t, "GET", "/api/v1/nope", nil).wantError(t, 404, "/api/v1/chat")
	m := f.do(t, "GET", "/api/v1/models", nil).json(t)
	if m["default"] != "ref-1" || len(m["models"].([]any)) != 2 {
		t.Errorf("models %v", m)
	}
}

func TestChatValidation(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "free")
	cases := []struct {
		name   string
		body   any
		status int
		want   []string
	}{
		{"no message", map[string]any{"model": "ref-1"}, 400, []string{"message is required"}},
		{"blank message", map[string]any{"message": " \n\t"}, 400, []string{"message is required"}},
		{"not json", "message=hi", 400, []string{"not valid JSON"}},
		{"message not a string", map[string]any{"message": 42}, 400, []string{"not valid JSON"}},
		{"unknown model", map[string]any{"message": "hi", "model": "gpt-9"}, 400, []string{`unknown model "gpt-9"`, "ref-1, ref-1-mini"}},
		{"bad role", map[string]any{"message": "hi", "history": []map[string]string{{"role": "user", "content": "a"}, {"role": "system", "content": "b"}}}, 400, []string{`history[1].role is "system"`, `"user" or "assistant"`}},
		{"too large", `{"message":"` + strings.Repeat("a", 1<<20) + `"}`, 413, []string{"over 1048576 bytes"}},
	}
	for _, c := range cases {
		for _, path := range []string{"/api/v1/chat", "/api/v1/chat/stream"} {
			t.Run(c.name+path, func(t *testing.T) {
				f.do(t, "POST", path, c.body).wantError(t, c.status, c.want...)
			})
		}
	}
	if u, _ := f.svc.Usage(f.key); u.UsedTokens != 0 {
		t.Errorf("refused requests billed %d tokens", u.UsedTokens)
	}
}

type chatReply struct {
	Reply string `json:"reply"`
	Model string `json:"model"`
	Usage struct {
		Prompt     int `json:"prompt_tokens"`
		Completion int `json:"completion_tokens"`
		Total      int `json:"total_tokens"`
	} `json:"usage"`
	FinishReason string `json:"finish_reason"`
}

func (f *fixture) chat(t *testing.T, body any) chatReply {
	t.Helper()
	r := f.do(t, "POST", "/api/v1/chat", body)
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	var c chatReply
	if err := json.Unmarshal(r.body, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestChatDeterministicWithHistory(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "free")
	first := map[string]any{"message": "How do I rotate my SSH keys?"}
	a, b := f.chat(t, first), f.chat(t, first)
	if a.Reply != b.Reply || a.Usage != b.Usage {
		t.Fatalf("same input, different replies:\n%q\n%q", a.Reply, b.Reply)
	}
	if a.Model != "ref-1" || a.FinishReason != "stop" || !strings.Contains(a.Reply, "**How do I rotate my SSH keys?**") || !strings.Contains(a.Reply, "turn 1") {
		t.Errorf("reply %+v", a)
	}
	if strings.Count(a.Reply, ". ") < 3 || !strings.Contains(a.Reply, "\n- ") {
		t.Errorf("reply is not several sentences of markdown: %q", a.Reply)
	}
	if a.Usage.Total != a.Usage.Prompt+a.Usage.Completion || a.Usage.Completion != agent.CountTokens(a.Reply) {
		t.Errorf("usage %+v does not add up for a reply of %d tokens", a.Usage, agent.CountTokens(a.Reply))
	}

	second := map[string]any{"message": "And GPG keys?", "history": []map[string]string{
		{"role": "user", "content": "How do I rotate my SSH keys?"},
		{"role": "assistant", "content": a.Reply},
	}}
	c := f.chat(t, second)
	if !strings.Contains(c.Reply, "turn 2") || !strings.Contains(c.Reply, "began with *How do I rotate my SSH keys?*") {
		t.Errorf("reply does not show the history arrived: %q", c.Reply)
	}
	if c.Usage.Prompt <= a.Usage.Prompt+a.Usage.Completion {
		t.Errorf("prompt tokens %d did not grow with a history of %d+%d", c.Usage.Prompt, a.Usage.Prompt, a.Usage.Completion)
	}
	mini := f.chat(t, map[string]any{"message": "How do I rotate my SSH keys?", "model": "ref-1-mini"})
	if mini.Model != "ref-1-mini" || mini.Reply == a.Reply || len(mini.Reply) >= len(a.Reply) {
		t.Errorf("ref-1-mini reply %q", mini.Reply)
	}
	u, _ := f.svc.Usage(f.key)
	if want := 2*a.Usage.Total + c.Usage.Total + mini.Usage.Total; u.UsedTokens != want || u.Remaining != 25000-want {
		t.Errorf("used %d remaining %d, want used %d", u.UsedTokens, u.Remaining, want)
	}
}

func TestQuota(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "free")
	full := f.chat(t, map[string]any{"message": "hello there"})
	f.svc.SetUsed(f.key, 0)

	// A reply that would pass the quota is cut off at it.
	quota := full.Usage.Prompt + 5
	f.svc.SetQuota(f.key, quota)
	cut := f.chat(t, map[string]any{"message": "hello there"})
	if cut.FinishReason != "quota" || cut.Usage.Completion != 5 || cut.Usage.Total != quota || !strings.HasPrefix(full.Reply, cut.Reply) || agent.CountTokens(cut.Reply) != 5 {
		t.Errorf("cut reply %+v", cut)
	}
	if u, _ := f.svc.Usage(f.key); u.UsedTokens != quota || u.Remaining != 0 {
		t.Errorf("usage after cut %+v", u)
	}

	// Nothing left: 429 before any work, saying when the period resets.
	for _, path := range []string{"/api/v1/chat", "/api/v1/chat/stream"} {
		r := f.do(t, "POST", path, map[string]any{"message": "hello there"})
		u, _ := f.svc.Usage(f.key)
		r.wantError(t, 429, "quota exhausted", "resets at "+u.PeriodResets.Format(time.RFC3339))
		if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s <= 0 {
			t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
		}
		if u.UsedTokens != quota {
			t.Errorf("429 billed: used %d", u.UsedTokens)
		}
	}

	// A prompt larger than what remains is refused too.
	f.svc.SetQuota(f.key, quota+3)
	f.do(t, "POST", "/api/v1/chat", map[string]any{"message": "hello there"}).wantError(t, 429, "need", "only 3 remain")

	// A new period starts with nothing used.
	f.svc.SetClock(func() time.Time { return time.Now().AddDate(0, 1, 1) })
	if u, _ := f.svc.Usage(f.key); u.UsedTokens != 0 || !u.PeriodResets.After(time.Now().AddDate(0, 1, 0)) {
		t.Errorf("after the period ended: %+v", u)
	}
}

// event is one parsed Server-Sent Event.
type event struct{ name, data string }

// readEvents is a minimal LF-only SSE reader, independent of forge's.
func readEvents(t *testing.T, r io.Reader, each func(event) bool) {
	t.Helper()
	sc := bufio.NewScanner(r)
	var ev event
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if !each(ev) {
				return
			}
			ev = event{}
		case strings.HasPrefix(line, "event: "):
			ev.name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			ev.data = line[len("data: "):]
		default:
			t.Errorf("unexpected line %q", line)
		}
	}
}

func (f *fixture) stream(ctx context.Context, t *testing.T, body any) *http.Response {
	t.Helper()
	js, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", f.url+"/api/v1/chat/stream", bytes.NewReader(js))
	req.Header.Set("X-API-Key", f.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return resp
}

func TestStream(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "free")
	body := map[string]any{"message": "Tell me about <tags> & \"quotes\"", "history": []map[string]string{{"role": "user", "content": "first"}, {"role": "assistant", "content": "ok"}}}
	want := f.chat(t, body)
	resp := f.stream(context.Background(), t, body)
	defer resp.Body.Close()
	var got strings.Builder
	var names []string
	deltas := 0
	readEvents(t, resp.Body, func(ev event) bool {
		if len(names) == 0 || names[len(names)-1] != ev.name {
			names = append(names, ev.name)
		}
		switch ev.name {
		case "delta":
			var s string
			if err := json.Unmarshal([]byte(ev.data), &s); err != nil {
				t.Fatalf("delta data %q: %v", ev.data, err)
			}
			got.WriteString(s)
			deltas++
		case "usage":
			var u map[string]int
			json.Unmarshal([]byte(ev.data), &u)
			if u["prompt_tokens"] != want.Usage.Prompt || u["completion_tokens"] != want.Usage.Completion || u["total_tokens"] != want.Usage.Total {
				t.Errorf("usage event %s, want %+v", ev.data, want.Usage)
			}
		case "done":
			if ev.data != `{"finish_reason":"stop"}` {
				t.Errorf("done data %q", ev.data)
			}
		}
		return true
	})
	if got.String() != want.Reply {
		t.Errorf("streamed reply\n%q\nwant\n%q", got.String(), want.Reply)
	}
	if strings.Join(names, ",") != "delta,usage,done" || deltas != want.Usage.Completion {
		t.Errorf("events %v, %d deltas for %d tokens", names, deltas, want.Usage.Completion)
	}
}

func TestStreamCutAtQuota(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "free")
	full := f.chat(t, map[string]any{"message": "hi"})
	f.svc.SetUsed(f.key, 0)
	f.svc.SetQuota(f.key, full.Usage.Prompt+7)
	resp := f.stream(context.Background(), t, map[string]any{"message": "hi"})
	defer resp.Body.Close()
	deltas, finish := 0, ""
	readEvents(t, resp.Body, func(ev event) bool {
		switch ev.name {
		case "delta":
			deltas++
		case "done":
			finish = ev.data
		}
		return true
	})
	if deltas != 7 || finish != `{"finish_reason":"quota"}` {
		t.Errorf("%d deltas, done %q; want 7 and quota", deltas, finish)
	}
}

// TestStreamDisconnect: a client that goes away stops generation and pays
// only for the prompt and what it was sent. The stream is held after 3
// chunks, so the client leaves in the middle on a machine of any speed.
func TestStreamDisconnect(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "free")
	body := map[string]any{"message": "a long question about many things"}
	full := f.chat(t, body)
	f.svc.SetUsed(f.key, 0)
	defer f.svc.HoldAfter(3)()

	ctx, cancel := context.WithCancel(context.Background())
	resp := f.stream(ctx, t, body)
	received := 0
	readEvents(t, resp.Body, func(ev event) bool {
		received++
		return received < 3
	})
	cancel()
	resp.Body.Close()

	// The bill is final once the stream's handler has returned.
	select {
	case <-f.streamed:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream's handler did not return after the client went away")
	}
	u, _ := f.svc.Usage(f.key)
	billed := u.UsedTokens - full.Usage.Prompt
	if billed != received || billed >= full.Usage.Completion {
		t.Errorf("billed %d completion tokens after receiving %d of %d", billed, received, full.Usage.Completion)
	}
}

// TestStreamHeld: a stream held after 2 chunks goes on, whole, once
// released; the hold ends with the release.
func TestStreamHeld(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "free")
	body := map[string]any{"message": "a long question about many things"}
	full := f.chat(t, body)
	release := f.svc.HoldAfter(2)
	for range 2 {
		resp := f.stream(context.Background(), t, body)
		var got strings.Builder
		deltas := 0
		readEvents(t, resp.Body, func(ev event) bool {
			if ev.name == "delta" {
				var s string
				json.Unmarshal([]byte(ev.data), &s)
				got.WriteString(s)
				if deltas++; deltas == 2 {
					release() // the third chunk waits for it
				}
			}
			return true
		})
		resp.Body.Close()
		if got.String() != full.Reply {
			t.Errorf("held then released stream\n%q\nwant\n%q", got.String(), full.Reply)
		}
	}
}

func TestKeys(t *testing.T) {
	t.Parallel()
	svc := agent.New()
	for _, bad := range []string{"", "sk_1234567890abc", "agk_short", "agk_with space inside"} {
		if err := svc.AddKey(bad, "free"); err == nil {
			t.Errorf("AddKey(%q) accepted", bad)
		}
	}
	if err := svc.AddKey("agk_0123456789abcdef", "platinum"); err == nil || !strings.Contains(err.Error(), "free, pro, enterprise") {
		t.Errorf("unknown tier: %v", err)
	}
	if err := svc.AddKey("agk_0123456789abcdef", "free"); err != nil {
		t.Fatal(err)
	}
	if err := svc.AddKey("agk_0123456789abcdef", "free"); err == nil {
		t.Error("duplicate key accepted")
	}
	if err := svc.SetTier("agk_0123456789abcdef", "enterprise"); err != nil {
		t.Fatal(err)
	}
	if u, _ := svc.Usage("agk_0123456789abcdef"); u.Tier != "enterprise" || u.QuotaTokens != 10_000_000 {
		t.Errorf("after SetTier: %+v", u)
	}
	k, err := svc.CreateKey("pro")
	if err != nil || !strings.HasPrefix(k, agent.KeyPrefix) || len(k) != len(agent.KeyPrefix)+32 {
		t.Errorf("CreateKey: %q, %v", k, err)
	}
}

func TestTokenize(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "Hello, world!", "a\n\n- b `c`\n", "héllo wörld 42x", "  lead", "日本語 テキスト"} {
		toks := agent.Tokenize(s)
		if strings.Join(toks, "") != s || len(toks) != agent.CountTokens(s) {
			t.Errorf("Tokenize(%q) = %q", s, toks)
		}
	}
	if got := agent.Tokenize("Hi, you.\n\nOk"); strings.Join(got, "|") != "Hi|, |you|.|\n\n|Ok" {
		t.Errorf("Tokenize = %q", got)
	}
}
