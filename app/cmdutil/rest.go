package cmdutil

import (
	"time"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/httpwait"
)

// REST returns a client for the REST API of the active profile,
// authenticated with its token (flag > env > file). Building it is cheap
// and connects nowhere; it shares the one HTTP client of HTTPClient, so a
// command's requests reuse one connection.
//
// No base URL or no token is an AuthError (exit 4) saying to log in.
func (f *Factory) REST() (*client.Client, error) {
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	if s.BaseURL == "" {
		return nil, cmdcore.AuthErrorf("no service configured for profile %q: run `forge auth login --base-url https://HOST/api/v2`", s.Profile)
	}
	if _, err := config.NormalizeBaseURL(s.BaseURL); err != nil {
		if s.Sources["base_url"] == config.FromEnv {
			return nil, cmdcore.UsageErrorf("FORGE_BASE_URL: %v", err)
		}
		return nil, &cmdcore.UsageError{Err: err}
	}
	if s.Token == "" {
		if msg := s.WithheldError("base_url"); msg != "" {
			return nil, cmdcore.AuthErrorf("%s", msg)
		}
		return nil, cmdcore.AuthErrorf("not logged in to %s (profile %q): %s", s.BaseURL, s.Profile, LoginHint(s))
	}
	if s.Sources["token"] == config.FromEnv {
		// Logging in would not help: FORGE_TOKEN wins over a stored token.
		return f.RESTClient(s.BaseURL, s.Token, client.WithTokenFix("set FORGE_TOKEN to a valid token, or unset it and "+LoginHint(s)))
	}
	return f.RESTClient(s.BaseURL, s.Token, client.WithTokenFix(LoginHint(s)))
}

// RESTClient returns a client for baseURL with token ("" for anonymous
// requests, as the login makes), configured like REST's.
//
// FORGE_HTTP_TIMEOUT bounds each request attempt (internal/httpwait).
func (f *Factory) RESTClient(baseURL, token string, more ...client.Option) (*client.Client, error) {
	timeout, err := f.httpTimeout()
	if err != nil {
		return nil, err
	}
	ios := f.IOStreams
	cs := ios.ErrColorScheme()
	c, err := client.New(baseURL, token, append([]client.Option{
		client.WithHTTPClient(f.HTTPClient()),
		client.WithUserAgent(build.UserAgent()),
		client.WithTimeout(timeout),
		client.WithNotify(func(msg string) { ios.ErrPrintf("%s %s\n", cs.WarningIcon(), msg) }),
	}, more...)...)
	if err != nil {
		return nil, &cmdcore.UsageError{Err: err}
	}
	return c, nil
}

func (f *Factory) httpTimeout() (time.Duration, error) {
	d, err := httpwait.Parse(f.Getenv(httpwait.Var))
	if err != nil {
		return 0, &cmdcore.UsageError{Err: err}
	}
	return d, nil
}
