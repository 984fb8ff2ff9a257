package cmdutil

import (
	"io"
	"net/http"
	"sync"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/httpdebug"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/origin"
	"github.com/forgehq/forge/internal/prompt"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/internal/wire"
)

// Factory carries what commands share. Everything that costs something —
// reading the config file, building HTTP clients — happens on first use,
// so `forge --version` and `forge help` touch no file and no network.
type Factory struct {
	// Globals are the streams, the environment and the global flags
	// (f.IOStreams, f.Getenv, f.ProfileFlag, f.DebugFlag), what forge's
	// root command binds (cmd/internal/rootcmd).
	cmdcore.Globals

	// Prompter asks questions; tests replace it.
	Prompter prompt.Prompter

	// profileFor is the profile a host named by -R or FORGE_REPO selects
	// (see BaseRepo); it takes the place of --profile.
	profileFor string

	mu       sync.Mutex
	cfgFile  *config.File
	settings *config.Settings
	httpc    *http.Client

	warnedEnvUser bool

	depsOnce sync.Once
	deps     Deps // the methods Deps gives, bound once
}

// New returns a Factory over the given streams and environment.
func New(ios *iostreams.IOStreams, getenv func(string) string) *Factory {
	return &Factory{Globals: cmdcore.Globals{IOStreams: ios, Getenv: getenv}, Prompter: prompt.New(ios)}
}

// Debug reports whether --debug or FORGE_DEBUG asks for HTTP traces.
func (f *Factory) Debug() bool {
	if f.DebugFlag {
		return true
	}
	v := f.Getenv("FORGE_DEBUG")
	return v != "" && v != "0" && v != "false"
}

// ConfigPath is the configuration file's location.
func (f *Factory) ConfigPath() (string, error) { return config.Path(f.Getenv) }

// ConfigFile loads the configuration file once.
func (f *Factory) ConfigFile() (*config.File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.configFileLocked()
}

func (f *Factory) configFileLocked() (*config.File, error) {
	if f.cfgFile != nil {
		return f.cfgFile, nil
	}
	path, err := f.ConfigPath()
	if err != nil {
		return nil, err
	}
	cf, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	f.cfgFile = cf
	return cf, nil
}

// ProfileChoice is the profile named for this command: the one a host in
// -R or FORGE_REPO selected (see BaseRepo), else --profile ("" for the
// usual resolution). A factory made for the same command from this one
// passes it on as its ProfileFlag.
func (f *Factory) ProfileChoice() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.profileFor != "" {
		return f.profileFor
	}
	return f.ProfileFlag
}

// Settings resolves the active profile's settings once (flag > env > file
// > default). An unknown profile named by --profile or FORGE_PROFILE is a
// usage error.
func (f *Factory) Settings() (*config.Settings, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.settings != nil {
		return f.settings, nil
	}
	cf, err := f.configFileLocked()
	if err != nil {
		return nil, err
	}
	name := f.ProfileFlag
	if f.profileFor != "" {
		name = f.profileFor
	}
	s, err := config.Resolve(cf, name, f.Getenv)
	if err != nil {
		return nil, &cmdcore.UsageError{Err: err}
	}
	f.settings = s
	return s, nil
}

// UpdateConfig changes the configuration file under its lock and forgets
// the cached copies, so later reads see the change.
func (f *Factory) UpdateConfig(fn func(*config.File) error) error {
	path, err := f.ConfigPath()
	if err != nil {
		return err
	}
	err = config.Update(path, fn)
	f.mu.Lock()
	f.cfgFile, f.settings = nil, nil
	f.mu.Unlock()
	return err
}

// HTTPClient is the one HTTP client all of forge's API clients share: one
// connection pool (so consecutive requests reuse a TCP connection), traced
// to stderr under --debug. It has no overall timeout, because chat streams
// and image pushes run long; the wait for an answer's headers and for
// each part of its body is FORGE_HTTP_TIMEOUT's (internal/wire), and API
// clients set their own deadlines.
func (f *Factory) HTTPClient() *http.Client {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.httpc != nil {
		return f.httpc
	}
	// One wait for all three interfaces (internal/httpwait), for headers
	// and each part of a body, and one bound on what an answer decodes
	// to (internal/wire); the REST client bounds its attempts whole as
	// well.
	wait, _ := f.httpTimeout()
	t := wire.New(wait)
	var rt http.RoundTripper = t
	if f.Debug() {
		rt = httpdebug.Wrap(t, debugOut(f.IOStreams))
	}
	// One redirect rule for the REST, agent and registry clients:
	// credentials never follow a redirect to another origin. Outside the
	// trace, so --debug shows what is sent.
	rt = origin.Guard(rt)
	f.httpc = &http.Client{Transport: rt, CheckRedirect: origin.CheckRedirect}
	return f.httpc
}

// debugOut is where --debug traces go: stderr, sanitized when it is a
// terminal, since a trace quotes the server's headers and bodies.
func debugOut(ios *iostreams.IOStreams) io.Writer {
	if ios.IsStderrTTY() {
		return text.NewWriter(ios.ErrOut)
	}
	return ios.ErrOut
}

// UpdateProfile changes the profile name under the configuration's lock:
// it creates the profile when it does not exist yet and makes it current
// on a configuration that has none, then lets fn set its fields. insecure
// is --insecure-storage (secrets in the file, not the keyring). It
// returns the configuration as written, for its PlainTextNotice.
func (f *Factory) UpdateProfile(name string, insecure bool, fn func(p *config.Profile) error) (*config.File, error) {
	var saved *config.File
	err := f.UpdateConfig(func(cf *config.File) error {
		saved = cf
		cf.InsecureStorage = insecure
		p := cf.Profile(name)
		if p == nil {
			p = &config.Profile{}
			cf.SetProfile(name, p)
		}
		if cf.CurrentProfile == "" {
			cf.CurrentProfile = name
		}
		return fn(p)
	})
	return saved, err
}
