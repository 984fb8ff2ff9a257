package config

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// A profile's secrets (SecretKeys) live in the OS keyring — the Secret
// Service on Linux, the macOS Keychain, the Windows Credential Manager —
// through go-keyring, as gh keeps its tokens: one entry per profile (service
// "forge", user the profile's random keyring_id, so two configuration
// directories never share one) holding a JSON object of its secrets, so
// loading a profile costs one keyring lookup, not one per secret. The
// profile records which secrets are there (in_keyring); the file itself
// holds none of them. When no keyring service answers (a headless CI
// machine), or the command was given --insecure-storage, a secret is kept
// in the file (mode 0600) instead.
//
// Load fills the profile's fields from the keyring, so resolution never
// sees where a secret is stored; Save puts a new or changed secret in the
// keyring and, after the file is written, deletes the entries the file no
// longer refers to (logout, profile removal, a secret moved to the file).

// SecretKeys are the settings that are secrets, by YAML key.
var SecretKeys = []string{"token", "registry_password", "agent_key"}

// Where a stored secret lives.
const (
	InKeyring = "keyring"
	InFile    = "config file"
)

// InsecureStorageUsage is the help of the --insecure-storage flag of the
// commands that store a secret.
const InsecureStorageUsage = "Store the secret in the config file (mode 0600) instead of the OS keyring"

const keyringService = "forge"

// keyringTimeout bounds each keyring call: a session bus that never answers
// must not hang forge.
var keyringTimeout = 3 * time.Second

// store is the keyring; tests replace it to simulate a hung service.
var store keyring.Keyring = libKeyring{}

// libKeyring calls go-keyring's package functions, so keyring.MockInit
// takes effect in tests.
type libKeyring struct{}

func (libKeyring) Set(service, user, pw string) error       { return keyring.Set(service, user, pw) }
func (libKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (libKeyring) Delete(service, user string) error        { return keyring.Delete(service, user) }
func (libKeyring) DeleteAll(service string) error           { return keyring.DeleteAll(service) }

var (
	// callMu serialises keyring calls: one at a time is all forge needs,
	// and go-keyring's mock provider is not safe for concurrent use.
	callMu sync.Mutex
	downMu sync.Mutex
	// down is set once the keyring failed to answer in time: asking again
	// in this process would only cost another timeout.
	down error
)

// keyringCall runs fn with the timeout.
func keyringCall(fn func() error) error {
	downMu.Lock()
	err := down
	downMu.Unlock()
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		callMu.Lock()
		defer callMu.Unlock()
		done <- fn()
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(keyringTimeout):
		err := fmt.Errorf("no keyring service answered within %v", keyringTimeout)
		downMu.Lock()
		down = err
		downMu.Unlock()
		return err
	}
}

func keyringGet(entry string) (string, error) {
	var v string
	err := keyringCall(func() (err error) {
		v, err = store.Get(keyringService, entry)
		return err
	})
	return v, err
}

func keyringSet(entry, value string) error {
	return keyringCall(func() error { return store.Set(keyringService, entry, value) })
}

func keyringDelete(entry string) error {
	err := keyringCall(func() error { return store.Delete(keyringService, entry) })
	if errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return err
}

func newKeyringID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// secret returns a pointer to the profile's field for a secret key.
func (p *Profile) secret(key string) *string {
	switch key {
	case "token":
		return &p.Token
	case "agent_key":
		return &p.AgentKey
	case "registry_password":
		return &p.RegistryPassword
	}
	panic("config: not a secret: " + key)
}

// SecretLocation says where the profile keeps a secret: InKeyring, InFile,
// or "" when it holds none.
func (p *Profile) SecretLocation(key string) string {
	switch {
	case slices.Contains(p.InKeyring, key):
		return InKeyring
	case *p.secret(key) != "":
		return InFile
	}
	return ""
}

// SecretError is why a secret the profile keeps in the keyring could not be
// read, or nil.
func (p *Profile) SecretError(key string) error { return p.unread[key] }

// PlainTextNotice is the warning for the user when Save kept a secret in
// the file because the keyring did not take it, or "".
func (f *File) PlainTextNotice() string {
	if f.KeyringErr == nil {
		return ""
	}
	return fmt.Sprintf("Stored in plain text in the config file (mode 0600): the OS keyring did not take it (%v)", f.KeyringErr)
}

// SecretName is how forge names a secret key to people: "agent key".
func SecretName(key string) string { return strings.ReplaceAll(key, "_", " ") }

// StoredSecrets names the secrets the profile stores, as in "token and
// agent key", or "" when it holds none.
func (p *Profile) StoredSecrets() string {
	var names []string
	for _, k := range SecretKeys {
		if p.SecretLocation(k) != "" {
			names = append(names, SecretName(k))
		}
	}
	if len(names) > 1 {
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return strings.Join(names, "")
}

// HasSecrets reports whether the profile stores any secret.
func (p *Profile) HasSecrets() bool {
	for _, k := range SecretKeys {
		if p.SecretLocation(k) != "" {
			return true
		}
	}
	return false
}

// ClearSecrets forgets every secret of the profile; Save deletes them
// wherever they are stored.
func (p *Profile) ClearSecrets() {
	for _, k := range SecretKeys {
		*p.secret(k) = ""
		delete(p.unread, k)
	}
}

// readSecrets fills each profile's secrets from the keyring and remembers
// what was loaded, so Save knows what changed and which entries it may
// delete.
func (f *File) readSecrets() {
	f.loadedEntries = nil
	for _, p := range f.Profiles {
		if len(p.InKeyring) > 0 {
			f.loadedEntries = append(f.loadedEntries, p.KeyringID)
			p.readEntry()
		}
		p.loaded = map[string]string{}
		for _, k := range SecretKeys {
			p.loaded[k] = *p.secret(k)
		}
	}
}

// readEntry fills the secrets the profile keeps in the keyring from its
// entry. A missing entry or key leaves the secret empty; an entry that
// cannot be read marks them all unread.
func (p *Profile) readEntry() {
	v, err := keyringGet(p.KeyringID)
	if errors.Is(err, keyring.ErrNotFound) {
		return
	}
	var secrets map[string]string
	if err == nil {
		if jerr := json.Unmarshal([]byte(v), &secrets); jerr != nil {
			err = fmt.Errorf("keyring entry %s:%s is not forge's", keyringService, p.KeyringID)
		}
	}
	for _, k := range p.InKeyring {
		if err != nil {
			if p.unread == nil {
				p.unread = map[string]error{}
			}
			p.unread[k] = err
		} else if slices.Contains(SecretKeys, k) {
			*p.secret(k) = secrets[k]
		}
	}
}

// placeSecrets decides where each secret goes before the file is written:
// a new or changed secret into the keyring (unless InsecureStorage, or the
// keyring does not answer: then the file), an unchanged one where it was,
// an emptied one nowhere. It returns the file to encode: a copy without the
// secrets kept in the keyring.
func (f *File) placeSecrets() *File {
	out := *f
	out.Profiles = make(map[string]*Profile, len(f.Profiles))
	for name, p := range f.Profiles {
		f.placeProfileSecrets(p)
		c := *p
		for _, k := range c.InKeyring {
			*c.secret(k) = ""
		}
		if len(c.InKeyring) == 0 {
			c.KeyringID = ""
		}
		out.Profiles[name] = &c
	}
	return &out
}

// placeProfileSecrets writes the profile's keyring entry when a secret in
// it, or one bound for it, changed, and updates in_keyring to match.
func (f *File) placeProfileSecrets(p *Profile) {
	keep, changed, dirty := f.sortSecrets(p)
	if len(p.unread) > 0 {
		// The entry could not be read, so it cannot be rewritten without
		// losing what it holds: new secrets go to the file.
		for _, err := range p.unread {
			if len(changed) > 0 {
				f.KeyringErr = err
				break
			}
		}
		p.InKeyring = slices.DeleteFunc(p.InKeyring, func(k string) bool { return changed[k] != "" })
		return
	}
	if !dirty {
		return
	}
	all := maps.Clone(keep)
	maps.Copy(all, changed)
	if len(all) == 0 {
		p.InKeyring = nil // the entry goes once the file is written
		return
	}
	if p.KeyringID == "" {
		p.KeyringID = newKeyringID()
	}
	blob, _ := json.Marshal(all)
	if err := keyringSet(p.KeyringID, string(blob)); err != nil {
		f.KeyringErr = err
		all = keep // the entry still holds these
	}
	p.InKeyring = nil
	for _, k := range SecretKeys {
		if _, ok := all[k]; ok {
			p.InKeyring = append(p.InKeyring, k)
		}
	}
}

// sortSecrets sorts the profile's secrets: those in the keyring and
// unchanged (keep), the new or changed ones bound for the keyring
// (changed), and whether its entry must change (dirty). Unchanged secrets
// in the file stay there; with InsecureStorage changed ones go there.
func (f *File) sortSecrets(p *Profile) (keep, changed map[string]string, dirty bool) {
	keep, changed = map[string]string{}, map[string]string{}
	for _, k := range SecretKeys {
		v, in := *p.secret(k), slices.Contains(p.InKeyring, k)
		old, known := p.loaded[k]
		switch {
		case p.unread[k] != nil && v == "":
			// its value is unknown: the entry is left alone
		case v == "":
			dirty = dirty || in
		case known && v == old:
			if in {
				keep[k] = v
			}
		case f.InsecureStorage:
			dirty = dirty || in
		default:
			changed[k], dirty = v, true
		}
	}
	return keep, changed, dirty
}

// deleteStaleEntries removes, after the file was written, the keyring
// entries it loaded with and no longer refers to. A failure leaves an
// orphaned entry the file does not name: harmless, so it is ignored.
func (f *File) deleteStaleEntries() {
	now := f.namedEntries()
	for _, e := range f.loadedEntries {
		if !now[e] {
			_ = keyringDelete(e)
		}
	}
	f.loadedEntries = f.loadedEntries[:0]
	for e := range now {
		f.loadedEntries = append(f.loadedEntries, e)
	}
	for _, p := range f.Profiles {
		p.loaded = map[string]string{}
		for _, k := range SecretKeys {
			p.loaded[k] = *p.secret(k)
		}
	}
}

// dropNewEntries removes, when the file could not be written, the entries
// Save created that the file on disk does not name, so no secret is left
// behind in the keyring for nothing.
func (f *File) dropNewEntries() {
	for e := range f.namedEntries() {
		if !slices.Contains(f.loadedEntries, e) {
			_ = keyringDelete(e)
		}
	}
}

// namedEntries are the keyring entries the profiles name now.
func (f *File) namedEntries() map[string]bool {
	now := map[string]bool{}
	for _, p := range f.Profiles {
		if len(p.InKeyring) > 0 {
			now[p.KeyringID] = true
		}
	}
	return now
}
