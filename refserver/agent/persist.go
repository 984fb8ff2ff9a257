package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"time"
)

// savedAccount is a key's standing as kept on disk, under the SHA-256 of
// the key (the key itself is not repeated there).
type savedAccount struct {
	Tier   string    `json:"tier"`
	Quota  int       `json:"quota"`
	Used   int       `json:"used"`
	Resets time.Time `json:"resets"`
}

func keyID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// SaveUsage encodes every key's tier, quota and usage, for LoadUsage after
// a restart.
func (s *Service) SaveUsage() ([]byte, error) {
	s.mu.Lock()
	out := make(map[string]savedAccount, len(s.keys))
	for key, a := range s.keys {
		out[keyID(key)] = savedAccount{Tier: a.tier, Quota: a.quota, Used: a.used, Resets: a.resets}
	}
	s.mu.Unlock()
	return json.Marshal(out)
}

// LoadUsage gives the keys already added the standing SaveUsage kept for
// them; kept standings of unknown keys are ignored.
func (s *Service) LoadUsage(b []byte) error {
	var in map[string]savedAccount
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, a := range s.keys {
		if v, ok := in[keyID(key)]; ok && v.Tier != "" {
			a.tier, a.quota, a.used, a.resets = v.Tier, v.Quota, v.Used, v.Resets
		}
	}
	return nil
}

// OnUsage sets fn, called after each request that changed a key's usage
// has been served (its stream ended), and after SetTier, SetQuota and
// SetUsed: the server keeps the usage on disk from there.
func (s *Service) OnUsage(fn func()) {
	s.mu.Lock()
	s.onUsage = fn
	s.mu.Unlock()
}

// notifyUsage calls the OnUsage hook if usage changed since before.
func (s *Service) notifyUsage(before int64) {
	if s.changes.Load() == before {
		return
	}
	s.mu.Lock()
	fn := s.onUsage
	s.mu.Unlock()
	if fn != nil {
		fn()
	}
}

// ServeHTTP serves the agent API under /api/v1/.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	before := s.changes.Load()
	s.handler.ServeHTTP(w, r)
	s.notifyUsage(before)
}
