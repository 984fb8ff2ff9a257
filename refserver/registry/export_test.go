package registry

import "time"

// Hooks for the tests of package registry_test, which run against the
// whole reference server.

// HasBlob reports whether repo may read the blob.
func (r *Registry) HasBlob(repo, digest string) bool { return r.state.hasBlob(repo, digest) }

// SharedWithUser reports whether repo is shared with user.
func (r *Registry) SharedWithUser(repo, user string) bool { return r.state.sharedWith(repo, user) }

// KeyID is the signing key's libtrust ID.
func (r *Registry) KeyID() string { return r.signer.kid }

// IssueForTest signs a token issued at now with the registry's key, for
// the account holding user now.
func (r *Registry) IssueForTest(user, repo string, actions []string, ttl time.Duration, now time.Time) (string, error) {
	acct := account{Login: user}
	if r.opts.AccountID != nil {
		acct.ID = r.opts.AccountID(user)
	}
	return r.signer.issue(r.opts.Issuer, r.opts.Service, acct, []access{{Type: "repository", Name: repo, Actions: actions}}, ttl, now)
}

// UploadsInProgress is how many uploads the registry holds.
func (r *Registry) UploadsInProgress() int { return r.uploads.count() }

// SetClock replaces the registry's clock, which upload expiry reads.
func (r *Registry) SetClock(now func() time.Time) { r.now = now }

// ExpireUploads runs the expiry of abandoned uploads now.
func (r *Registry) ExpireUploads() { r.expireUploads() }

// Dir is the directory holding blobs, manifests and uploads.
func (r *Registry) Dir() string { return r.dir }

// FailWrites makes the registry's file layer fail each write for which
// fail returns an error (a full disk, say); nil makes writes work again.
func (r *Registry) FailWrites(fail func(op, path string) error) {
	if fail == nil {
		r.disk.fail.Store(nil)
		return
	}
	r.disk.fail.Store(&fail)
}

// TokenChecks is how many token signatures the registry has checked.
func (r *Registry) TokenChecks() int64 { return r.verified.checks.Load() }
