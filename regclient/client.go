// Package regclient is forge's client of container registries: a thin
// facade over go-containerregistry (remote, name, authn, tarball, layout,
// mutate) in the spirit of its pkg/crane, that knows the service's own
// registry — its address, the user's namespace and credentials — and
// still talks to any other registry with the credentials of the user's
// docker configuration.
//
// References may be short. For the service's registry "app:1.0" means
// "{registry}/{user}/app:1.0" and "bob/app:1.0" means "{registry}/bob/app:1.0";
// a first component with a dot or a colon, or "localhost", names another
// registry ("ghcr.io/org/app:1"). A reference without tag or digest means
// ":latest".
package regclient

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/internal/wire"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Options configure a Client.
type Options struct {
	// RegistryURL is the service's registry, as http://127.0.0.1:8080 or
	// https://registry.example.com. Its path, if any, is ignored: the
	// registry protocol lives at /v2/ on the host.
	RegistryURL string
	// Username and Password are the account's credentials for the
	// service's registry (its token service checks them with the REST
	// API's login).
	Username, Password string
	// Service says that RegistryURL is the hosting service's own registry
	// (the profile's), whose rule forge knows: pushes and deletes only
	// under the user's namespace. CheckWrite applies it before any request
	// on that registry alone; any other registry decides for itself.
	Service bool
	// TokenOrigins are the origins (scheme://host[:port]) besides the
	// registry's own that may receive Password: the service's (its token
	// service) and a token service the user trusted at `image login`. A
	// bare host[:port] means https. Every password is pinned: a request
	// that would carry it to any other origin fails with a *WithheldError
	// before it is sent. Origins compare exactly — scheme, host as
	// written, port — so a name and an address literal (localhost and
	// 127.0.0.1) are two origins, as two names that resolve alike are.
	TokenOrigins []string
	// PasswordEnv names the environment variable Password came from
	// ("FORGE_PASSWORD"), "" for a stored one: a refusal names it, since
	// the stored password may be right.
	PasswordEnv string
	// NoPasswordHint, when set, is what a registry asking for credentials
	// is answered with while the client holds none (why forge has none
	// for this registry, and how to give some).
	NoPasswordHint string
	// CacheDir is forge's cache directory: the image sizes of manifests
	// are remembered under CacheDir/manifest-sizes by digest, and the
	// layer uploads in progress under CacheDir/uploads (to resume a push
	// stopped midway). Empty keeps nothing.
	CacheDir string
	// Transport carries every request; nil means internal/wire's default
	// (forge gives its shared one, a wire.Transport too).
	Transport http.RoundTripper
	// UserAgent is sent with every request.
	UserAgent string
	// Wait is how long Transport waits for an answer (FORGE_HTTP_TIMEOUT),
	// for the error when it runs out; 0 when not known.
	Wait time.Duration
}

// Client talks to the service's registry and, with the docker
// configuration's credentials, to any other.
type Client struct {
	wait      time.Duration // see Options.Wait
	host      string        // host[:port] of the profile's registry
	scheme    string
	service   bool // the registry is the hosting service's (Options.Service)
	user      string
	password  string
	transport *regTransport
	userAgent string
	// passwordEnv and noPasswordHint: Options.
	passwordEnv    string
	noPasswordHint string
	sizes          *sizeCache
	uploads        uploadCache

	// lister serves Tags and Sizes: one Puller keeps one connection
	// state per repository, so a listing pings the registry and fetches
	// its token once for the list and every manifest request.
	// go-containerregistry forgets a repository's state when making it
	// failed, so a long-lived client's failed listing fails no later one.
	lister func() (*remote.Puller, error)
}

// New returns a client. It does not connect.
func New(o Options) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(o.RegistryURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("malformed registry URL %q: give a full http:// or https:// URL", o.RegistryURL)
	}
	if _, err := name.NewRegistry(u.Host, name.StrictValidation); err != nil {
		return nil, fmt.Errorf("malformed registry URL %q: %w", o.RegistryURL, err)
	}
	t := &regTransport{inner: o.Transport}
	if t.inner == nil {
		t.inner = wire.Default()
	}
	if u.Scheme == "http" {
		t.httpHost = u.Host
	}
	t.allowed = pinOrigins(u, o.TokenOrigins)
	if o.Username != "" && o.Password != "" {
		t.basic = basicAuth(o.Username, o.Password)
	}
	c := &Client{host: u.Host, scheme: u.Scheme, service: o.Service, user: o.Username, password: o.Password, transport: t, userAgent: o.UserAgent,
		passwordEnv: o.PasswordEnv, noPasswordHint: o.NoPasswordHint, sizes: newSizeCache(o.CacheDir), uploads: newUploadCache(o.CacheDir)}
	c.wait = o.Wait
	// Each call passes its own context to the Puller's methods.
	c.lister = sync.OnceValues(func() (*remote.Puller, error) { return remote.NewPuller(c.options(context.Background())...) })
	return c, nil
}

// Host is the profile's registry's host[:port].
func (c *Client) Host() string { return c.host }

// User is the account the client signs in as, "" when none is set.
func (c *Client) User() string { return c.user }

// HasCredentials reports whether a username and password are set.
func (c *Client) HasCredentials() bool { return c.user != "" && c.password != "" }

// Namespace is the user's own namespace: the username in lower case.
func (c *Client) Namespace() string { return strings.ToLower(c.user) }

// IsService reports whether a repository is on the hosting service's own
// registry: the profile's, when Options.Service says it is the service's.
func (c *Client) IsService(repo name.Repository) bool {
	return c.service && repo.RegistryStr() == c.host
}

// Keychain answers with the profile's account for the profile's registry
// — forge's credentials, or none — and with the docker configuration for
// every other registry, except where that names forge itself as the
// credential helper (see dockerKeychain). The profile's registry never
// gets docker's credentials: they may be another profile's account (forge
// serves them to docker as its helper) or another user's, and a command
// acts as its profile or as nobody.
func (c *Client) Keychain() authn.Keychain { return keychain{c} }

type keychain struct{ c *Client }

func (k keychain) Resolve(target authn.Resource) (authn.Authenticator, error) {
	if target.RegistryStr() == k.c.host {
		if k.c.HasCredentials() {
			return &authn.Basic{Username: k.c.user, Password: k.c.password}, nil
		}
		return authn.Anonymous, nil
	}
	return dockerKeychain{}.Resolve(target)
}

// nameOpts are the options references to the service registry are parsed
// with: plain HTTP when its URL says http.
func (c *Client) nameOpts(host string) []name.Option {
	if host == c.host && c.scheme == "http" {
		return []name.Option{name.Insecure}
	}
	return nil
}

// looksLikeHost reports whether the first component of a reference names a
// registry rather than a namespace, by docker's rule.
func looksLikeHost(s string) bool {
	return strings.ContainsAny(s, ".:") || s == "localhost"
}

// expand turns a short reference into a full one (see the package
// documentation).
func (c *Client) expand(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", fmt.Errorf("empty image reference")
	}
	first, _, hasSlash := strings.Cut(s, "/")
	switch {
	case hasSlash && looksLikeHost(first):
		return s, nil
	case hasSlash:
		return c.host + "/" + s, nil
	case c.user == "":
		return "", fmt.Errorf("cannot tell whose %q this is: no registry user is set; run `forge image login` or give USER/%s", s, s)
	}
	return c.host + "/" + c.Namespace() + "/" + s, nil
}

// ParseReference parses a full or short image reference.
func (c *Client) ParseReference(s string) (name.Reference, error) {
	full, err := c.expand(s)
	if err != nil {
		return nil, err
	}
	host, _, _ := strings.Cut(full, "/")
	ref, err := name.ParseReference(full, c.nameOpts(host)...)
	if err != nil {
		return nil, fmt.Errorf("invalid image reference %q: %w", s, err)
	}
	return ref, nil
}

// ParseRepository parses a full or short repository name; a tag or digest
// is refused.
func (c *Client) ParseRepository(s string) (name.Repository, error) {
	full, err := c.expand(s)
	if err != nil {
		return name.Repository{}, err
	}
	host, _, _ := strings.Cut(full, "/")
	repo, err := name.NewRepository(full, c.nameOpts(host)...)
	if err != nil {
		return name.Repository{}, fmt.Errorf("invalid repository %q (a repository has no :tag or @digest): %w", s, err)
	}
	return repo, nil
}

// CheckWrite refuses, before any request, a push or delete (verb) into
// another user's namespace on the hosting service's registry, where the
// policy is known. Other registries — one without auth takes a push into
// any namespace — decide for themselves, and a refusal is reported as
// such (see fromTransport).
func (c *Client) CheckWrite(repo name.Repository, verb string) error {
	if !c.IsService(repo) || c.user == "" {
		return nil
	}
	ns, _, _ := strings.Cut(repo.RepositoryStr(), "/")
	if ns == c.Namespace() && strings.Contains(repo.RepositoryStr(), "/") {
		return nil
	}
	prep := "to"
	if verb != "push" {
		prep = "in"
	}
	return &Error{
		Status: http.StatusForbidden,
		Msg: fmt.Sprintf("you can %s only %s %s/...: %s is not in your namespace (the registry refuses it with 403 Forbidden)",
			verb, prep, c.Namespace(), repo.RepositoryStr()),
	}
}

// options are the remote options every call uses.
func (c *Client) options(ctx context.Context, extra ...remote.Option) []remote.Option {
	opts := []remote.Option{
		remote.WithContext(ctx),
		remote.WithAuthFromKeychain(c.Keychain()),
		remote.WithTransport(c.transport),
	}
	if c.userAgent != "" {
		opts = append(opts, remote.WithUserAgent(c.userAgent))
	}
	return append(opts, extra...)
}
