package store

import (
	"sort"
	"time"
)

// SSHKey is a user's public key.
type SSHKey struct {
	ID          int64     `json:"id"`
	UserID      int64     `json:"user_id"`
	Title       string    `json:"title"`
	Key         string    `json:"key"`
	Fingerprint string    `json:"fingerprint"`
	CreatedAt   time.Time `json:"created_at"`
}

// AddKey stores a key; a fingerprint already in use by anyone is a
// conflict, as a key identifies one account.
func (s *Store) AddKey(userID int64, title, key, fingerprint string) (SSHKey, error) {
	var out SSHKey
	err := s.update(func(t *tx) error {
		for _, k := range s.d.Keys {
			if k.Fingerprint == fingerprint {
				return Conflict("key %s is already in use", fingerprint)
			}
		}
		k := &SSHKey{ID: s.id(), UserID: userID, Title: title, Key: key, Fingerprint: fingerprint, CreatedAt: s.Now()}
		s.d.Keys[k.ID] = k
		t.put("key", k.ID, k)
		out = *k
		return nil
	})
	return out, err
}

// Keys lists a user's keys, oldest first.
func (s *Store) Keys(userID int64) []SSHKey {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []SSHKey
	for _, k := range s.d.Keys {
		if k.UserID == userID {
			out = append(out, *k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// DeleteKey removes one of the user's keys.
func (s *Store) DeleteKey(userID, id int64) error {
	return s.update(func(t *tx) error {
		k, ok := s.d.Keys[id]
		if !ok || k.UserID != userID {
			return NotFound("you have no SSH key %d", id)
		}
		delete(s.d.Keys, id)
		t.del("key", id)
		return nil
	})
}
