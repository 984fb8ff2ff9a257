package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxBody limits a chat request's JSON body.
const maxBody = 1 << 20

var errUnknownKey = errors.New("invalid API key")

func (s *Service) routes() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch strings.TrimSuffix(r.URL.Path, "/") {
		case "/api/v1/chat":
			s.serve(w, r, http.MethodPost, s.handleChat)
		case "/api/v1/chat/stream":
			s.serve(w, r, http.MethodPost, s.handleStream)
		case "/api/v1/usage":
			s.serve(w, r, http.MethodGet, s.handleUsage)
		case "/api/v1/models":
			s.serve(w, r, http.MethodGet, s.handleModels)
		default:
			writeError(w, http.StatusNotFound, "not found: the agent API serves /api/v1/chat, /api/v1/chat/stream, /api/v1/usage and /api/v1/models")
		}
	})
}

// serve checks the method and the key, then calls h with the key.
func (s *Service) serve(w http.ResponseWriter, r *http.Request, method string, h func(http.ResponseWriter, *http.Request, string)) {
	if r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead) {
		w.Header().Set("Allow", method)
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed; use %s", r.Method, method))
		return
	}
	key, err := s.authenticate(r)
	if err != nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="agent"`)
		writeError(w, http.StatusUnauthorized, err.Error())
		return
	}
	h(w, r, key)
}

// authenticate finds the key in "Authorization: Bearer KEY", else in
// "X-API-Key: KEY", and checks that it exists.
func (s *Service) authenticate(r *http.Request) (string, error) {
	var key string
	if auth := r.Header.Get("Authorization"); auth != "" {
		scheme, rest, _ := strings.Cut(auth, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return "", fmt.Errorf("unsupported Authorization scheme %q: send \"Authorization: Bearer %s...\" or \"X-API-Key: %s...\"", scheme, KeyPrefix, KeyPrefix)
		}
		key = strings.TrimSpace(rest)
	} else {
		key = strings.TrimSpace(r.Header.Get("X-API-Key"))
	}
	switch {
	case key == "":
		return "", fmt.Errorf("missing API key: send \"Authorization: Bearer %s...\" or \"X-API-Key: %s...\"", KeyPrefix, KeyPrefix)
	case !strings.HasPrefix(key, KeyPrefix):
		return "", fmt.Errorf("invalid API key: agent API keys start with %q", KeyPrefix)
	case !s.knownKey(key) && s.unknownHint != "":
		return "", fmt.Errorf("%w; %s", errUnknownKey, s.unknownHint)
	case !s.knownKey(key):
		return "", errUnknownKey
	}
	return key, nil
}

func (s *Service) handleUsage(w http.ResponseWriter, r *http.Request, key string) {
	u, ok := s.Usage(key)
	if !ok {
		writeError(w, http.StatusUnauthorized, errUnknownKey.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"tier":          u.Tier,
		"used_tokens":   u.UsedTokens,
		"quota_tokens":  u.QuotaTokens,
		"remaining":     u.Remaining,
		"period_resets": u.PeriodResets.UTC().Format(time.RFC3339),
	})
}

func (s *Service) handleModels(w http.ResponseWriter, r *http.Request, key string) {
	names, def := s.Models()
	writeJSON(w, http.StatusOK, map[string]any{"default": def, "models": names})
}

// chatRequest is the body of /chat and /chat/stream.
type chatRequest struct {
	Model   string    `json:"model"`
	Message string    `json:"message"`
	History []Message `json:"history"`
}

// turn is a validated request: what the model needs and what it costs.
type turn struct {
	key     string
	model   string
	reply   []string // the reply's tokens
	prompt  int
	request chatRequest
}

// prepare reads and validates a chat request, produces the reply and bills
// the prompt. It writes the error response itself and returns nil when the
// request cannot go on.
func (s *Service) prepare(w http.ResponseWriter, r *http.Request, key string) *turn {
	var req chatRequest
	body := http.MaxBytesReader(w, r.Body, maxBody)
	dec := json.NewDecoder(body)
	if err := dec.Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", maxBody))
		} else {
			writeError(w, http.StatusBadRequest, "request body is not valid JSON of the form {\"model\", \"message\", \"history\"}: "+err.Error())
		}
		return nil
	}
	if strings.TrimSpace(req.Message) == "" {
		writeError(w, http.StatusBadRequest, "message is required and must not be empty")
		return nil
	}
	for i, m := range req.History {
		if m.Role != "user" && m.Role != "assistant" {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("history[%d].role is %q; it must be \"user\" or \"assistant\"", i, m.Role))
			return nil
		}
	}
	model, name, ok := s.model(req.Model)
	if !ok {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown model %q; valid models: %s", req.Model, s.modelNames()))
		return nil
	}
	t := &turn{key: key, model: name, prompt: promptTokens(req.History, req.Message), request: req}
	if err := s.chargePrompt(key, t.prompt); err != nil {
		var qe *quotaError
		if errors.As(err, &qe) {
			w.Header().Set("Retry-After", strconv.Itoa(int(qe.retryAfter.Seconds()+0.999)))
			writeError(w, http.StatusTooManyRequests, qe.msg)
		} else {
			writeError(w, http.StatusUnauthorized, err.Error())
		}
		return nil
	}
	t.reply = Tokenize(model(req.History, req.Message))
	return t
}

func usageObject(prompt, completion int) map[string]int {
	return map[string]int{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
}

func (s *Service) handleChat(w http.ResponseWriter, r *http.Request, key string) {
	t := s.prepare(w, r, key)
	if t == nil {
		return
	}
	n := s.chargeCompletion(key, len(t.reply))
	finish := "stop"
	if n < len(t.reply) {
		finish = "quota"
	}
	writeJSON(w, http.StatusOK, struct {
		Reply        string         `json:"reply"`
		Model        string         `json:"model"`
		Usage        map[string]int `json:"usage"`
		FinishReason string         `json:"finish_reason"`
	}{strings.Join(t.reply[:n], ""), t.model, usageObject(t.prompt, n), finish})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// jsonString encodes s as a JSON string without HTML escaping.
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
