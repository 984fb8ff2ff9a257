package cmdutil

import (
	"context"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/prompt"
)

// Deps are what most commands use, taken from the Factory when the
// command is built: a command's options embed them instead of holding
// the Factory, so a test can build the options directly (gh's runF seam).
// The functions are the Factory's own, so nothing is read or built before
// a command calls them.
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
	// Settings are the active profile's settings.
	Settings func() (*config.Settings, error)
}

// Deps are the Factory's dependencies for one command.
func (f *Factory) Deps() Deps {
	return Deps{
		IO: f.IOStreams, Getenv: f.Getenv, Prompter: f.Prompter,
		RepoClient: f.RepoClient, BaseRepo: f.BaseRepo, REST: f.REST, Settings: f.Settings,
	}
}

// Deps returns d itself, so that a helper taking a DepsSource serves a
// command holding Deps and one holding the Factory alike.
func (d Deps) Deps() Deps { return d }

// A DepsSource gives Deps: the Factory or Deps themselves.
type DepsSource interface{ Deps() Deps }
