package config

import (
	"fmt"
	"net/url"
	"strings"
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

	// Sources records where each non-empty field came from, by YAML key.
	Sources map[string]Source
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
// environment or that profile. A profile named by flag or environment must
// exist; the implicit default need not. Flags of individual commands (like
// `auth login --base-url`) are applied by those commands with Set.
func Resolve(f *File, profileFlag string, getenv func(string) string) (*Settings, error) {
	s := &Settings{Sources: map[string]Source{}}
	switch {
	case profileFlag != "":
		s.Profile, s.ProfileSource = profileFlag, FromFlag
	case getenv("FORGE_PROFILE") != "":
		s.Profile, s.ProfileSource = getenv("FORGE_PROFILE"), FromEnv
	case f.CurrentProfile != "":
		s.Profile, s.ProfileSource = f.CurrentProfile, FromFile
	default:
		s.Profile, s.ProfileSource = DefaultProfile, FromDefault
	}
	p := f.Profile(s.Profile)
	if p == nil {
		if s.ProfileSource == FromFlag || s.ProfileSource == FromEnv {
			return nil, &UnknownProfileError{Name: s.Profile, Known: f.ProfileNames()}
		}
		p = &Profile{}
	}
	fileValues := map[string]string{
		"base_url": p.BaseURL, "agent_url": p.AgentURL, "registry_url": p.RegistryURL,
		"user": p.User, "token": p.Token, "agent_key": p.AgentKey,
		"registry_user": p.RegistryUser, "registry_password": p.RegistryPassword,
	}
	for _, e := range settingKeys {
		if v := getenv(e.env); e.env != "" && v != "" {
			s.Set(e.key, v, FromEnv)
		} else if v := fileValues[e.key]; v != "" {
			s.Set(e.key, v, FromFile)
		}
	}
	s.fillDefaults()
	return s, nil
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

// fillDefaults derives the agent and registry addresses from the base URL
// when they are not set: the service's reference deployment serves all
// three interfaces from one origin (agent at {origin}/api/v1, registry at
// {origin}/v2/), so {origin} is the best guess for both.
func (s *Settings) fillDefaults() {
	origin := Origin(s.BaseURL)
	if origin == "" {
		return
	}
	if s.AgentURL == "" {
		s.AgentURL, s.Sources["agent_url"] = origin, FromDefault
	}
	if s.RegistryURL == "" {
		s.RegistryURL, s.Sources["registry_url"] = origin, FromDefault
	}
	if s.RegistryUser == "" && s.User != "" {
		s.RegistryUser, s.Sources["registry_user"] = s.User, FromDefault
	}
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
