package cmdutil

import (
	"context"

	"github.com/forgehq/forge/app/redact"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/prompt"
	"github.com/forgehq/forge/regclient"
)

// Deps are what commands use, taken from the Factory when the command is
// built: a command's options embed them instead of holding the Factory,
// so a test can build the options directly (gh's runF seam). The
// functions are the Factory's own methods, so nothing is read, built or
// dialled before a command calls them.
type Deps struct {
	IO       *iostreams.IOStreams
	Getenv   func(string) string
	Prompter prompt.Prompter

	// RepoClient is the client of the repository -R (or FORGE_REPO, or
	// the git remote here) names, and that repository's name.
	RepoClient func(ctx context.Context, repoFlag string) (*client.Client, client.RepoName, error)
	// BaseRepo is that repository's name alone, without a client.
	BaseRepo func(ctx context.Context, repoFlag string) (client.RepoName, error)
	// REST is the active profile's client, for what is not a repository's.
	REST func() (*client.Client, error)
	// RESTClient is a client of another address or token, configured
	// like REST's (a login's, a logout's revocation).
	RESTClient func(baseURL, token string, more ...client.Option) (*client.Client, error)
	// Settings are the active profile's settings.
	Settings func() (*config.Settings, error)

	// Agent is the agent chat API's client, Redactor what masks this
	// run's secrets in what goes to it.
	Agent    func() (*chat.Client, error)
	Redactor func() *redact.Redactor
	// Registry is the container registry's client.
	Registry func() (*regclient.Client, error)

	// ConfigFile is the configuration file as loaded; ConfigPath where it
	// is; UpdateConfig and UpdateProfile change it under its lock.
	ConfigFile    func() (*config.File, error)
	ConfigPath    func() (string, error)
	UpdateConfig  func(func(*config.File) error) error
	UpdateProfile func(name string, insecure bool, fn func(*config.Profile) error) (*config.File, error)
	// ProfileChoice is the profile named for this command (--profile),
	// read when called: flags are parsed after the command is built.
	ProfileChoice func() string
	// ForProfile are the Deps of the same command under another profile,
	// as --profile NAME would give them.
	ForProfile func(name string) Deps

	// Debug is --debug (or FORGE_DEBUG); CacheDir forge's cache
	// directory; WarnEnvUser the one warning about FORGE_USERNAME.
	Debug       func() bool
	CacheDir    func() string
	WarnEnvUser func(acting string)
}

// Deps are the Factory's dependencies for one command. The functions are
// bound once per Factory (every verb of the tree takes them when it is
// built); the streams, environment and prompter are read at each call,
// as tests set them after New.
func (f *Factory) Deps() Deps {
	f.depsOnce.Do(func() {
		f.deps = Deps{
			RepoClient: f.RepoClient, BaseRepo: f.BaseRepo, REST: f.REST, RESTClient: f.RESTClient,
			Settings: f.Settings, Agent: f.Agent, Redactor: f.Redactor, Registry: f.Registry,
			ConfigFile: f.ConfigFile, ConfigPath: f.ConfigPath,
			UpdateConfig: f.UpdateConfig, UpdateProfile: f.UpdateProfile,
			ProfileChoice: f.ProfileChoice, ForProfile: f.ForProfile,
			Debug: f.Debug, CacheDir: f.CacheDir, WarnEnvUser: f.WarnEnvUser,
		}
	})
	d := f.deps
	d.IO, d.Getenv, d.Prompter = f.IOStreams, f.Getenv, f.Prompter
	return d
}

// ForProfile are the Deps of a Factory like f for profile name: its
// streams, environment, prompter and --debug, the profile as --profile
// name selects it.
func (f *Factory) ForProfile(name string) Deps {
	pf := New(f.IOStreams, f.Getenv)
	pf.ProfileFlag, pf.DebugFlag, pf.Prompter = name, f.DebugFlag, f.Prompter
	return pf.Deps()
}

// Deps returns d itself, so that a helper taking a DepsSource serves a
// command holding Deps and one holding the Factory alike.
func (d Deps) Deps() Deps { return d }

// A DepsSource gives Deps: the Factory or Deps themselves.
type DepsSource interface{ Deps() Deps }
