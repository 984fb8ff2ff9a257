// Package config reads and writes forge's configuration file and resolves
// the settings a command runs with.
//
// The file is YAML at $FORGE_CONFIG_DIR/config.yaml, else
// $XDG_CONFIG_HOME/forge/config.yaml, else ~/.config/forge/config.yaml:
//
//	current_profile: dev
//	profiles:
//	  dev:
//	    base_url: http://127.0.0.1:8080/api/v2
//	    agent_url: http://127.0.0.1:8080
//	    registry_url: http://127.0.0.1:8080
//	    user: alice
//	    keyring_id: 3f9c0a1b2c3d4e5f
//	    in_keyring: [token, agent_key]
//
// The secrets (token, agent_key, registry_password) live in the OS keyring
// when one answers (keyring.go), else in the file. It may hold secrets, so
// it is created with mode 0600 in a 0700 directory and
// written atomically (temp file, fsync, rename) under a lock file, so a crash
// or a concurrent forge never leaves it half-written or loses an update.
// Keys forge does not know are kept when it rewrites the file.
//
// forge reads and writes the file with gopkg.in/yaml.v3: viper cannot
// write a file atomically with mode 0600 and would lower-case the keys of
// profiles written with capitals. viper resolves each setting's
// precedence (see Resolve); profile names are case-insensitive.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"go.yaml.in/yaml/v3"
)

// Profile is one deployment of the service and the credentials for it.
type Profile struct {
	BaseURL          string `yaml:"base_url,omitempty"`
	AgentURL         string `yaml:"agent_url,omitempty"`
	RegistryURL      string `yaml:"registry_url,omitempty"`
	User             string `yaml:"user,omitempty"`
	Token            string `yaml:"token,omitempty"`
	AgentKey         string `yaml:"agent_key,omitempty"`
	RegistryUser     string `yaml:"registry_user,omitempty"`
	RegistryPassword string `yaml:"registry_password,omitempty"`
	// RegistryTokenHost is a host[:port] the user trusted, at `image
	// login`, to receive the registry password: the registry's token
	// service, when it lives on a host of its own. Without it the password
	// goes to the registry and the base URL's host only.
	RegistryTokenHost string `yaml:"registry_token_host,omitempty"`

	// KeyringID files the profile's keyring entries; InKeyring lists the
	// secrets kept there rather than in this file (see keyring.go).
	KeyringID string   `yaml:"keyring_id,omitempty"`
	InKeyring []string `yaml:"in_keyring,omitempty,flow"`

	// Extra keeps keys written by other forge versions.
	Extra map[string]any `yaml:",inline"`

	loaded map[string]string // secrets as loaded, to see what changed
	unread map[string]error  // keyring entries that could not be read
}

// File is the whole configuration file.
type File struct {
	CurrentProfile string              `yaml:"current_profile,omitempty"`
	Profiles       map[string]*Profile `yaml:"profiles,omitempty"`

	Extra map[string]any `yaml:",inline"`

	// InsecureStorage, set by a command given --insecure-storage, keeps the
	// secrets it stores in this file rather than the keyring.
	InsecureStorage bool `yaml:"-"`
	// KeyringErr is why Save kept a secret in the file although the
	// keyring was wanted (no keyring service answered), or nil.
	KeyringErr error `yaml:"-"`

	loadedEntries []string // keyring entries the file named when loaded
}

// ParseError reports a configuration file that is not valid YAML for forge.
type ParseError struct {
	Path string
	Err  error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("config file %s is not valid: %v; fix or move it away (forge will not overwrite it)", e.Path, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Dir returns the configuration directory, from the environment lookup given.
func Dir(getenv func(string) string) (string, error) {
	if d := getenv("FORGE_CONFIG_DIR"); d != "" {
		return d, nil
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "forge"), nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", fmt.Errorf("cannot find the config directory: set FORGE_CONFIG_DIR")
		}
	}
	return filepath.Join(home, ".config", "forge"), nil
}

// Path returns the configuration file's path.
func Path(getenv func(string) string) (string, error) {
	dir, err := Dir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "config.yaml"), nil
}

// Load reads the file at path. A missing file is an empty configuration.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &File{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read config file: %w; check its permissions or set FORGE_CONFIG_DIR", err)
	}
	return parse(path, data)
}

func parse(path string, data []byte) (*File, error) {
	f := &File{}
	if len(bytes.TrimSpace(data)) == 0 {
		return f, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(f); err != nil {
		return nil, &ParseError{Path: path, Err: err}
	}
	for name, p := range f.Profiles {
		if p == nil {
			f.Profiles[name] = &Profile{}
		}
	}
	f.readSecrets()
	return f, nil
}

// ValidProfileName reports whether name may name a profile: 1 to 64
// letters, digits, '.', '_' and '-', starting with a letter or digit. (A
// loop, not a regexp: a package-level regexp costs start-up time.)
func ValidProfileName(name string) error {
	ok := len(name) > 0 && len(name) <= 64
	for i, r := range name {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !alnum && (i == 0 || (r != '.' && r != '_' && r != '-')) {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("invalid profile name %q: use letters, digits, '.', '_' and '-'", name)
	}
	return nil
}

// Profile returns the named profile (names are case-insensitive, see
// ProfileKey), or nil.
func (f *File) Profile(name string) *Profile {
	return f.Profiles[f.ProfileKey(name)]
}

// SetProfile adds or replaces a profile, under ProfileKey(name).
func (f *File) SetProfile(name string, p *Profile) {
	if f.Profiles == nil {
		f.Profiles = map[string]*Profile{}
	}
	f.Profiles[f.ProfileKey(name)] = p
}

// ProfileNames returns the profile names in order.
func (f *File) ProfileNames() []string {
	names := make([]string, 0, len(f.Profiles))
	for n := range f.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
