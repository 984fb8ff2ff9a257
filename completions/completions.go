// Package completions holds forge's dynamic shell completion: the values
// a TAB offers that come from the configuration or the service — profile
// names, OWNER/REPO for -R, issue numbers, run IDs, image repositories and
// tags, --json field names.
//
// Every function here is bounded and silent. Each request to the service
// has Timeout to answer, with no retry; the HTTP client is forge's plain
// one, never the --debug trace; a missing login, a corrupt configuration
// or a dead server offers nothing rather than an error, since the shell
// has nowhere to show one and a TAB must never prompt. Repository names,
// which change rarely and are wanted often, are cached for CacheTTL under
// the user cache directory, and a stale cache answers when the server
// does not.
package completions

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/origin"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/internal/wire"
	"github.com/spf13/cobra"
)

// Timeout bounds each completion's requests to the service.
const Timeout = 2 * time.Second

// Func is the shape of a cobra completion function.
type Func = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective)

const noFiles = cobra.ShellCompDirectiveNoFileComp

// transport is the plain transport of completion requests: forge's shared
// client may trace to stderr under --debug, which a TAB must not.
func transport() http.RoundTripper {
	// The one transport of forge's clients (its bounds) under the one
	// redirect rule (internal/origin).
	return origin.Guard(wire.New(Timeout))
}

// withTimeout is the context of one completion.
func withTimeout(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithTimeout(ctx, Timeout)
}

// rest is a REST client of the active profile for completion: no retry,
// no notices, Timeout per request. It is nil when forge is not logged in.
func rest(f *cmdutil.Factory) (*client.Client, string, string) {
	s, err := f.Settings()
	if err != nil || s.BaseURL == "" || s.Token == "" {
		return nil, "", ""
	}
	c, err := client.New(s.BaseURL, s.Token,
		client.WithHTTPClient(&http.Client{Transport: transport(), Timeout: Timeout, CheckRedirect: origin.CheckRedirect}),
		client.WithUserAgent(build.UserAgent()),
		client.WithTimeout(Timeout),
		client.WithRetryPolicy(client.RetryPolicy{}),
		client.WithNotify(func(string) {}),
	)
	if err != nil {
		return nil, "", ""
	}
	return c, s.BaseURL, s.User
}

// repoOf is the repository a command is about, as it will decide it: the
// -R flag already typed, FORGE_REPO, or the git remote here.
func repoOf(ctx context.Context, f *cmdutil.Factory, cmd *cobra.Command) (client.RepoName, bool) {
	flag := ""
	if fl := cmd.Flags().Lookup("repo"); fl != nil {
		flag = fl.Value.String()
	}
	r, err := f.BaseRepo(ctx, flag)
	return r, err == nil
}

// oneLine shortens a description to one line a menu can show.
func oneLine(s string) string {
	// The shell shows a description on the terminal: sanitized, always.
	s = text.OneLine(strings.Join(strings.Fields(s), " "))
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

// Profiles completes profile names from the configuration file.
func Profiles(f *cmdutil.Factory) Func {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cf, err := f.ConfigFile()
		if err != nil {
			return nil, noFiles
		}
		return cf.ProfileNames(), noFiles
	}
}
