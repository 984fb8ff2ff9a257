package cmdutil

import (
	"fmt"
	"net/url"

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
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	if s.RegistryURL == "" {
		return nil, UsageErrorf("no container registry configured: add a profile with `forge profile add NAME --base-url URL` (the registry defaults to its origin) or set FORGE_REGISTRY_URL")
	}
	// Without a password for this registry, commands go on without one:
	// a registry that asks for none just works; one that asks gets this.
	hint := ""
	if host, ok := s.Withheld["registry_url"]; ok && s.RegistryPassword == "" {
		hint = fmt.Sprintf("no registry password for %s: profile %q holds one only for its own registry; set FORGE_USERNAME and FORGE_PASSWORD, or run `forge image login` with a profile for %s", host, s.Profile, host)
	}
	passwordEnv := ""
	if s.Sources["registry_password"] == config.FromEnv {
		passwordEnv = "FORGE_PASSWORD"
	}
	if s.Sources["registry_user"] == config.FromEnv {
		f.WarnEnvUser("registry commands act")
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
		NoPasswordHint: hint,
		// A stored password belongs to the profile's registry and its
		// token service on the base URL's host.
		PasswordHosts: storedPasswordHosts(s),
		CacheDir:      f.CacheDir(),
		Transport:     f.HTTPClient().Transport,
		UserAgent:     build.UserAgent(),
		Wait:          wait,
	})
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	return c, nil
}

// storedPasswordHosts is where a registry password from the profile may
// go besides the registry itself: the service's base URL host and the
// token service host the user trusted; nil (no pinning) for a password
// from the environment.
func storedPasswordHosts(s *config.Settings) []string {
	if s.Sources["registry_password"] == config.FromEnv {
		return nil
	}
	hosts := []string{}
	if u, err := url.Parse(s.BaseURL); err == nil && u.Host != "" {
		hosts = append(hosts, u.Host)
	}
	// A token service on a host of its own, trusted at `image login`.
	if s.RegistryTokenHost != "" {
		hosts = append(hosts, s.RegistryTokenHost)
	}
	return hosts
}
