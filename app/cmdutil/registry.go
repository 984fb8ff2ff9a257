package cmdutil

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/regclient"
)

// Registry returns a client of the profile's container registry with the
// credentials forge holds for it (FORGE_USERNAME and FORGE_PASSWORD
// override the stored ones). Building it reads the configuration but does
// not connect; it is built afresh on each call, so a command that stores
// new credentials sees them. All requests go through the shared HTTP
// client, traced under --debug.
func (f *Factory) Registry() (*regclient.Client, error) {
	c, err := f.RegistryOver(f.HTTPClient().Transport)
	if err == nil {
		if s, _ := f.Settings(); s.Sources["registry_user"] == config.FromEnv {
			f.WarnEnvUser("registry commands act")
		}
	}
	return c, err
}

// RegistryOver is Registry over another transport (completion's, which
// must not wait as long nor trace), and silent. Every client of the profile's registry
// is built here, so each gets the same account and the same pinning of
// its password (regclient.Options.TokenOrigins).
func (f *Factory) RegistryOver(rt http.RoundTripper) (*regclient.Client, error) {
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	if s.RegistryURL == "" {
		return nil, cmdcore.UsageErrorf("no container registry configured: add a profile with `forge profile add NAME --base-url URL` (the registry defaults to its origin) or set FORGE_REGISTRY_URL")
	}
	passwordEnv := ""
	if s.Sources["registry_password"] == config.FromEnv {
		passwordEnv = "FORGE_PASSWORD"
	}
	wait, err := f.httpTimeout()
	if err != nil {
		return nil, err
	}
	c, err := regclient.New(regclient.Options{
		RegistryURL: s.RegistryURL,
		Service:     s.ServiceRegistry,
		Username:    s.RegistryUser,
		Password:    s.RegistryPassword,
		PasswordEnv: passwordEnv,
		// Why forge holds no password, for a registry that asks for one.
		NoPasswordHint: noRegistryLogin(s),
		TokenOrigins:   tokenOrigins(s),
		CacheDir:       f.CacheDir(),
		Transport:      rt,
		UserAgent:      build.UserAgent(),
		Wait:           wait,
	})
	if err != nil {
		return nil, &cmdcore.UsageError{Err: err}
	}
	return c, nil
}

// noRegistryLogin is what a registry asking for credentials is answered
// with when the profile holds none for it: which profile, and the fix.
func noRegistryLogin(s *config.Settings) string {
	if s.RegistryPassword != "" {
		return ""
	}
	if msg := s.WithheldError("registry_url"); msg != "" {
		return msg
	}
	return fmt.Sprintf("profile %s has no registry login for %s: run `forge --profile %s image login` (or set FORGE_USERNAME and FORGE_PASSWORD)", s.Profile, registryHost(s.RegistryURL), s.Profile)
}

func registryHost(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return raw
}

// tokenOrigins is where the registry password may go besides the registry
// itself: for the service's own registry, the base URL's origin (its token
// service); and the token service the user trusted for the profile's
// registry at `image login`.
func tokenOrigins(s *config.Settings) []string {
	var origins []string
	if o := config.Origin(s.BaseURL); o != "" && s.ServiceRegistry {
		origins = append(origins, o)
	}
	if s.RegistryTokenHost != "" {
		origins = append(origins, s.RegistryTokenHost)
	}
	return origins
}

// RegistryAccount is the registry account of the profile in force.
type RegistryAccount struct{ Host, User, Password string }

// RegistryAccountFor is the account the resolved settings hold for the
// registry host (host[:port], as docker's tools name a registry): the
// profile in force's, when host is its registry's exactly (names compare
// as written, in any case: localhost and 127.0.0.1 are two registries);
// nil otherwise. It is what forge's credential helper serves, so another
// tool gets the account forge's own commands would use there, or none.
func RegistryAccountFor(s *config.Settings, host string) *RegistryAccount {
	h := registryHost(s.RegistryURL)
	if host == "" || s.RegistryUser == "" || s.RegistryPassword == "" || !strings.EqualFold(h, host) {
		return nil
	}
	return &RegistryAccount{Host: h, User: s.RegistryUser, Password: s.RegistryPassword}
}

// IsProfileRegistry reports whether host is the registry the profile in
// force stores (not one an override points at): where credentials given
// to forge's credential helper may be stored.
func IsProfileRegistry(src DepsSource, s *config.Settings, host string) bool {
	cf, err := src.Deps().ConfigFile()
	if err != nil {
		return false
	}
	p := cf.Profile(s.Profile)
	if p == nil || host == "" {
		return false
	}
	raw := p.RegistryURL
	if raw == "" {
		raw = config.Origin(p.BaseURL)
	}
	return strings.EqualFold(registryHost(raw), host)
}
