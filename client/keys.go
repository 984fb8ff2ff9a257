package client

import (
	"context"
	"iter"
	"net/http"
	"strconv"
)

// SSHKey is a public key on the caller's account.
type SSHKey struct {
	Raw
	ID          int64  `json:"id"`
	Title       string `json:"title"`
	Fingerprint string `json:"fingerprint"` // SHA256:... form
	Key         string `json:"key"`         // the public key line
	CreatedAt   Time   `json:"created_at"`  // not in the spec; GitHub's name
}

// KeysService covers the caller's SSH keys (/me/keys).
type KeysService struct{ c *Client }

// List iterates over the caller's SSH keys.
func (s *KeysService) List(ctx context.Context, opts ListOptions) iter.Seq2[*SSHKey, error] {
	return list[SSHKey](s.c, ctx, "/me/keys", opts.values(nil), opts.Pages)
}

// Add uploads a public key line under a title (POST /me/keys).
func (s *KeysService) Add(ctx context.Context, title, key string) (*SSHKey, error) {
	return sendOne[SSHKey](s.c, ctx, http.MethodPost, "/me/keys", map[string]string{"title": title, "key": key})
}

// Delete removes a key by its ID (DELETE /me/keys/{id}).
func (s *KeysService) Delete(ctx context.Context, id int64) error {
	_, err := s.c.Delete(ctx, "/me/keys/"+strconv.FormatInt(id, 10), nil)
	return err
}
