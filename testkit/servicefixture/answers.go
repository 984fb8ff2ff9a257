package servicefixture

import (
	"encoding/json"
	"io"
	"net/http"
)

// The secrets and the digest of Options.LogTokens.
const (
	LogToken  = "vtok_ci_9fK2mQ7xZp4RtL8wB3nY6cV1"
	LogKey    = "hsa_live_4eC39HqLyjWDarjtT1zdp7dc"
	LogDigest = "sha256_e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
)

// comment adds a comment, its text read from Options.CommentField.
func (s *Server) comment(w http.ResponseWriter, r *http.Request) {
	field := s.opts.CommentField
	if field == "" {
		field = "body"
	}
	b, _ := io.ReadAll(r.Body)
	if len(b) > 200<<10 { // a limit of its own, not said
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		return
	}
	var in map[string]any
	json.Unmarshal(b, &in)
	text, _ := in[field].(string)
	if text == "" && !s.opts.StoreEmptyComments {
		s.json(w, 422, map[string]any{"message": "Validation Failed", "errors": []map[string]any{{"resource": "IssueComment", "field": field, "code": "missing_field"}}})
		return
	}
	s.json(w, 201, map[string]any{"id": 9, "body": s.str(text), "user": s.user(Login, 1), "html_url": s.str(s.URL + "/c/9"), "created_at": "2026-01-02T03:04:05Z"})
}
