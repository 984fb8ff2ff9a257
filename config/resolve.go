package config

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/origin"
)

// DefaultProfile is the profile used when none is named anywhere.
const DefaultProfile = "default"

// Source says where a resolved setting came from.
type Source string

const (
	FromFlag    Source = "flag"
	FromEnv     Source = "environment"
	FromFile    Source = "config file"
	FromDefault Source = "default"
)

// Settings are the values a command runs with, after precedence:
// flag > environment > config file > default.
type Settings struct {
	Profile          string
	ProfileSource    Source
	BaseURL          string
	AgentURL         string
	RegistryURL      string
	User             string
	Token            string
	AgentKey         string
	RegistryUser     string
	RegistryPassword string
	// RegistryTokenHost is the token service (an origin, or a bare
	// host[:port] meaning https) the profile trusts with its registry's
	// password ("" for none, and when RegistryURL is not the profile's
	// registry).
	RegistryTokenHost string

	// ServiceRegistry says that RegistryURL is the hosting service's own
	// registry: the profile's registry address, or the base URL's origin
	// (where the service serves it by default). FORGE_REGISTRY_URL
	// pointing anywhere else names another registry, whose rules forge
	// does not know.
	ServiceRegistry bool

	// ProfileRegistry is the registry address the profile stores (its
	// registry URL, else its base URL's origin), "" when it stores none:
	// where a registry password stored in it may go.
	ProfileRegistry string

	// Sources records where each non-empty field came from, by YAML key.
	Sources map[string]Source

	// Withheld holds, by address key (base_url, agent_url, registry_url),
	// the origin an override points at, away from the profile, which is
	// logged in elsewhere: its secret stayed home, and no other profile's
	// is taken (see WithheldError).
	Withheld map[string]string
	// Ignored holds, by environment variable, the value a profile named
	// with --profile set aside ("" for a secret, named but never kept):
	// the flag beats the environment, so that profile is used whole (see
	// profileWhole).
	Ignored map[string]string

	file *File // for the names of the profiles logged in at an origin
}

// UnknownProfileError is returned when a profile named by flag or
// environment does not exist.
type UnknownProfileError struct {
	Name  string
	Known []string
}

func (e *UnknownProfileError) Error() string {
	known := "none yet"
	if len(e.Known) > 0 {
		known = strings.Join(e.Known, ", ")
	}
	return fmt.Sprintf("unknown profile %q (known: %s); add it with `forge profile add %s --base-url URL`", e.Name, known, e.Name)
}

// settingKeys lists every setting with the environment variable that
// overrides it ("" for none). The agent has exactly the two variables of
// the service's specification.
var settingKeys = []struct{ key, env string }{
	{"base_url", "FORGE_BASE_URL"},
	{"agent_url", "AGENT_URL"},
	{"registry_url", "FORGE_REGISTRY_URL"},
	{"user", ""},
	{"token", "FORGE_TOKEN"},
	{"agent_key", "AGENT_API_KEY"},
	{"registry_user", "FORGE_USERNAME"},
	{"registry_password", "FORGE_PASSWORD"},
}

// EnvVar returns the environment variable that overrides a setting key.
func EnvVar(key string) string {
	for _, e := range settingKeys {
		if e.key == key {
			return e.env
		}
	}
	return ""
}

// Resolve picks the profile (profileFlag, else FORGE_PROFILE, else the
// file's current_profile, else "default") and fills each setting from the
// environment or that profile, through viper's layers (see layers). A
// profile named by flag or environment must exist; the implicit default
// need not. Profile names are case-insensitive (see File.ProfileKey).
// Flags of individual commands (like `auth login --base-url`) are applied
// by those commands with Set.
func Resolve(f *File, profileFlag string, getenv func(string) string) (*Settings, error) {
	s := &Settings{Sources: map[string]Source{}}
	pl := newLayers(getenv)
	pl.v.SetDefault("profile", DefaultProfile)
	pl.bindEnv("profile", "FORGE_PROFILE")
	pl.fileValues(map[string]string{"profile": f.CurrentProfile})
	pl.flag("profile", profileFlag)
	name, src := pl.get("profile")
	s.Profile, s.ProfileSource = f.ProfileKey(name), src
	p := f.Profile(s.Profile)
	if p == nil {
		if s.ProfileSource == FromFlag || s.ProfileSource == FromEnv {
			return nil, &UnknownProfileError{Name: name, Known: f.ProfileNames()}
		}
		p = &Profile{}
	}

	if s.ProfileSource == FromFlag {
		getenv = s.profileWhole(p, getenv)
	}
	l := newLayers(getenv)
	for _, e := range settingKeys {
		l.bindEnv(e.key, e.env)
	}
	l.fileValues(map[string]string{
		"base_url": p.BaseURL, "agent_url": p.AgentURL, "registry_url": p.RegistryURL,
		"user": p.User, "token": p.Token, "agent_key": p.AgentKey,
		"registry_user": p.RegistryUser, "registry_password": p.RegistryPassword,
	})
	// The agent and the registry default to the base URL's origin: the
	// service's reference deployment serves all three interfaces from one
	// origin (agent at {origin}/api/v1, registry at {origin}/v2/). The
	// registry account defaults to the logged-in user.
	if home := Origin(l.v.GetString("base_url")); home != "" {
		l.v.SetDefault("agent_url", home)
		l.v.SetDefault("registry_url", home)
		l.v.SetDefault("registry_user", l.v.GetString("user"))
	}
	for _, e := range settingKeys {
		if v, src := l.get(e.key); v != "" {
			s.Set(e.key, v, src)
		}
	}
	// FORGE_BASE_URL=http://host:port means what `profile add --base-url`
	// stores for it: the same helper adds /api/v2. A malformed one is left
	// as given, for the command that uses it to refuse with the reason.
	if u, err := NormalizeBaseURL(s.BaseURL); err == nil && s.BaseURL != "" {
		s.BaseURL = u
	}
	s.ServiceRegistry = s.RegistryURL != "" &&
		(origin.SameString(s.RegistryURL, p.address("registry_url")) || origin.SameString(s.RegistryURL, Origin(s.BaseURL)))
	s.file = f
	s.bindSecrets(p)
	s.ProfileRegistry = p.address("registry_url")
	// The token service trusted for the profile's registry, whichever
	// password goes there (stored, or FORGE_PASSWORD for this run).
	if origin.SameString(s.RegistryURL, p.address("registry_url")) {
		s.RegistryTokenHost = p.RegistryTokenHost
	}
	return s, nil
}

// ProfileOverride says, when the environment's FORGE_PROFILE overrides a
// profile made current in the file (name), that it does, and until when;
// "" when it does not.
func ProfileOverride(f *File, name string, getenv func(string) string) string {
	env := getenv("FORGE_PROFILE")
	if env == "" || f.ProfileKey(env) == f.ProfileKey(name) {
		return ""
	}
	return fmt.Sprintf("FORGE_PROFILE=%s is set and overrides it: commands here act as %s until you unset FORGE_PROFILE", env, env)
}

// secretBinding ties an interface's address to the secret (and the user
// name) that may be sent to it, with their environment variables.
type secretBinding struct{ addr, secret, user string }

var secretBindings = []secretBinding{
	{"base_url", "token", "user"},
	{"agent_url", "agent_key", ""},
	{"registry_url", "registry_password", "registry_user"},
}

// profileWhole applies "a flag beats the environment" to a profile named
// with --profile (or selected by a host in -R): for each interface whose
// address the environment points away from the profile's, the
// environment's address and account for it (FORGE_BASE_URL and
// FORGE_TOKEN, AGENT_URL and AGENT_API_KEY, FORGE_REGISTRY_URL and
// FORGE_USERNAME/FORGE_PASSWORD) are set aside and noted in Ignored: the
// command acts as that profile, where it is. The returned getenv hides
// them.
func (s *Settings) profileWhole(p *Profile, getenv func(string) string) func(string) string {
	hidden := map[string]bool{}
	for _, b := range secretBindings {
		addrEnv := EnvVar(b.addr)
		v, home := getenv(addrEnv), p.address(b.addr)
		if v == "" || home == "" || origin.SameString(v, home) {
			continue
		}
		if s.Ignored == nil {
			s.Ignored = map[string]string{}
		}
		for _, env := range []string{addrEnv, EnvVar(b.secret), EnvVar(b.user)} {
			if env != "" && getenv(env) != "" {
				hidden[env] = true
				s.Ignored[env] = getenv(env)
			}
		}
		// A secret set aside is named, never kept.
		if env := EnvVar(b.secret); hidden[env] {
			s.Ignored[env] = ""
		}
	}
	if len(hidden) == 0 {
		return getenv
	}
	return func(k string) string {
		if hidden[k] {
			return ""
		}
		return getenv(k)
	}
}

// bindSecrets keeps every stored secret with the origin its profile
// stores for that interface. When an override (FORGE_BASE_URL, AGENT_URL,
// FORGE_REGISTRY_URL, a command's flag) points an interface elsewhere, the
// profile's secret and user are not used there; a secret given in the
// environment is, else none. Another profile's secret is never taken, even
// one stored for that very origin: a command acts as its own profile or
// as the environment's account, never as whichever profile is logged in
// there. When the profile held a secret back, the origin is noted in
// Withheld, for the error that names both and the ways out.
func (s *Settings) bindSecrets(p *Profile) {
	for _, b := range secretBindings {
		addr := s.get(b.addr)
		if addr == "" || s.Sources[b.secret] == FromEnv {
			continue
		}
		if origin.SameString(addr, p.address(b.addr)) {
			continue
		}
		s.clearFromFile(b.secret)
		s.clearFromFile(b.user)
		if *p.secret(b.secret) == "" {
			continue // nothing was held back: plainly not logged in
		}
		if s.Withheld == nil {
			s.Withheld = map[string]string{}
		}
		s.Withheld[b.addr] = Origin(addr)
	}
}

// WithheldError says, for an interface (base_url, agent_url,
// registry_url) whose secret was held back (see Withheld), why and how
// to go on: it names the override, the profile and where that profile is
// logged in, and the profiles logged in at the override's origin, if any.
// "" when nothing was held back.
func (s *Settings) WithheldError(addrKey string) string {
	at, ok := s.Withheld[addrKey]
	if !ok {
		return ""
	}
	var secret, fix string
	switch addrKey {
	case "base_url":
		secret, fix = "token", "set FORGE_TOKEN"
	case "agent_url":
		secret, fix = "agent API key", "set AGENT_API_KEY"
	default:
		secret, fix = "registry password", "set FORGE_USERNAME and FORGE_PASSWORD"
	}
	by := "--" + strings.ReplaceAll(addrKey, "_", "-")
	if s.Sources[addrKey] == FromEnv {
		by = EnvVar(addrKey)
	}
	f := s.file
	if f == nil {
		f = &File{}
	}
	var home string
	if p := f.Profile(s.Profile); p != nil {
		home = Origin(p.address(addrKey))
	}
	msg := fmt.Sprintf("no %s for %s: %s points there, and profile %q (%s) is logged in on %s, not there; unset %s to act as %s",
		secret, at, by, s.Profile, s.ProfileSource.profileWord(), home, by, s.Profile)
	if others := f.profilesAt(addrKey, at); len(others) > 0 {
		msg += fmt.Sprintf(", pass --profile %s (logged in there)", strings.Join(others, " or --profile "))
	} else if addrKey == "base_url" {
		msg += fmt.Sprintf(", log in there as a profile of its own (`forge --profile NAME auth login --base-url %s`)", s.BaseURL)
	}
	return msg + ", or " + fix
}

// profileWord says how the profile was chosen.
func (src Source) profileWord() string {
	switch src {
	case FromFlag:
		return "--profile"
	case FromEnv:
		return "FORGE_PROFILE"
	case FromFile:
		return "the current profile"
	}
	return "the default profile"
}

// Notes are sentences about settings the command does not use as given:
// the environment a profile named with --profile set aside.
func (s *Settings) Notes() []string {
	var notes []string
	for _, env := range slices.Sorted(maps.Keys(s.Ignored)) {
		if v := s.Ignored[env]; v != "" {
			notes = append(notes, fmt.Sprintf("%s=%s is not used: --profile %s beats the environment, and the profile is used whole", env, v, s.Profile))
		} else {
			notes = append(notes, fmt.Sprintf("%s is not used: it goes with the environment's address, which --profile %s set aside", env, s.Profile))
		}
	}
	return notes
}

// clearFromFile forgets a setting taken from the profile (or derived from
// it by default), keeping one given in the environment.
func (s *Settings) clearFromFile(key string) {
	if key == "" || s.Sources[key] == FromEnv || s.Sources[key] == FromFlag {
		return
	}
	switch key {
	case "user":
		s.User = ""
	case "token":
		s.Token = ""
	case "agent_key":
		s.AgentKey = ""
	case "registry_user":
		s.RegistryUser = ""
	case "registry_password":
		s.RegistryPassword = ""
	}
	delete(s.Sources, key)
}

// get returns a setting by its YAML key.
func (s *Settings) get(key string) string {
	switch key {
	case "base_url":
		return s.BaseURL
	case "agent_url":
		return s.AgentURL
	case "registry_url":
		return s.RegistryURL
	case "user":
		return s.User
	case "registry_user":
		return s.RegistryUser
	}
	return ""
}

// address is the address the profile stores for an interface; the agent
// and the registry default to the base URL's origin, as in Resolve.
func (p *Profile) address(key string) string {
	var v string
	switch key {
	case "base_url":
		return p.BaseURL
	case "agent_url":
		v = p.AgentURL
	case "registry_url":
		v = p.RegistryURL
	}
	if v == "" {
		v = Origin(p.BaseURL)
	}
	return v
}

// profilesAt names the profiles logged in (holding the interface's
// secret) at the origin of addr, by name order.
func (f *File) profilesAt(key, addr string) []string {
	var names []string
	for _, n := range f.ProfileNames() {
		if q := f.Profiles[n]; *q.secret(secretOf(key)) != "" && origin.SameString(addr, q.address(key)) {
			names = append(names, n)
		}
	}
	return names
}

func secretOf(addrKey string) string {
	for _, b := range secretBindings {
		if b.addr == addrKey {
			return b.secret
		}
	}
	return ""
}

// ProfilesForHost returns the profiles whose base URL is on host (host or
// host:port, as a git remote or -R names it); an exact host:port match
// comes before a match of the host name alone.
func (f *File) ProfilesForHost(host string) []string {
	var exact, loose []string
	for _, n := range f.ProfileNames() {
		switch HostMatch(f.Profiles[n].BaseURL, host) {
		case 2:
			exact = append(exact, n)
		case 1:
			loose = append(loose, n)
		}
	}
	return append(exact, loose...)
}

// HostMatch says how well host (host or host:port) names the server of
// baseURL: 2 for the same host and port, 1 for the same host when host
// gives no port (an SSH remote's host carries none), 0 for another server.
func HostMatch(baseURL, host string) int {
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" || host == "" {
		return 0
	}
	h := &url.URL{Scheme: u.Scheme, Host: host}
	switch {
	case origin.Same(u, h):
		return 2
	case h.Port() == "" && strings.EqualFold(h.Hostname(), u.Hostname()):
		return 1
	}
	return 0
}

// Set sets one setting by its YAML key and records its source.
func (s *Settings) Set(key, value string, src Source) {
	if value == "" {
		return
	}
	if s.Sources == nil {
		s.Sources = map[string]Source{}
	}
	switch key {
	case "base_url":
		s.BaseURL = value
	case "agent_url":
		s.AgentURL = value
	case "registry_url":
		s.RegistryURL = value
	case "user":
		s.User = value
	case "token":
		s.Token = value
	case "agent_key":
		s.AgentKey = value
	case "registry_user":
		s.RegistryUser = value
	case "registry_password":
		s.RegistryPassword = value
	default:
		return
	}
	s.Sources[key] = src
}

// Origin returns scheme://host[:port] of a URL, or "" if it has none.
func Origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// NormalizeBaseURL checks a REST base URL and returns it without a trailing
// slash. A bare origin gets /api/v2 appended; any other path must end in
// /api/v2, the version prefix of the service.
func NormalizeBaseURL(raw string) (string, error) {
	u, err := checkURL("base URL", raw)
	if err != nil {
		return "", err
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case p == "":
		u.Path = "/api/v2"
	case strings.HasSuffix(p, "/api/v2"):
		u.Path = p
	default:
		return "", fmt.Errorf("base URL %q must end in /api/v2, as in %s://%s/api/v2", raw, u.Scheme, u.Host)
	}
	return u.String(), nil
}

// NormalizeServiceURL checks an agent or registry address and returns it
// without a trailing slash.
func NormalizeServiceURL(what, raw string) (string, error) {
	u, err := checkURL(what, raw)
	if err != nil {
		return "", err
	}
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String(), nil
}

func checkURL(what, raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("malformed %s %q: give a full http:// or https:// URL, as in https://forge.example.com/api/v2", what, raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("malformed %s %q: no credentials, query or fragment allowed", what, raw)
	}
	return u, nil
}

// Mask hides a secret for display: "****" and its last four characters, or
// only "****" when it is too short to show any part safely.
func Mask(secret string) string {
	if secret == "" {
		return ""
	}
	if len(secret) < 12 {
		return "****"
	}
	return "****" + secret[len(secret)-4:]
}

// MaskPassword hides a password for display: "****", none of it (a
// token's last characters tell tokens apart; a password's only help to
// guess it).
func MaskPassword(secret string) string {
	if secret == "" {
		return ""
	}
	return "****"
}

// ProfileKey returns the key under which a profile name is stored:
// profile names are case-insensitive and new ones are stored in lower case
// (viper, which resolves settings, folds keys to lower case), while an
// existing profile written with capitals keeps its key, so nobody's
// profile changes name under them.
func (f *File) ProfileKey(name string) string {
	if _, ok := f.Profiles[name]; ok {
		return name
	}
	for _, n := range f.ProfileNames() {
		if strings.EqualFold(n, name) {
			return n
		}
	}
	return strings.ToLower(name)
}
