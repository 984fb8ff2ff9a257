package auth

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/spf13/cobra"
)

type gitCredentialOptions struct {
	cmdutil.Deps
	operation string
}

func newGitCredentialCmd(f *cmdutil.Factory, runF func(context.Context, *gitCredentialOptions) error) *cobra.Command {
	opts := &gitCredentialOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runGitCredential)
	return &cobra.Command{
		Use:   "git-credential get|store|erase",
		Short: "Answer git's credential requests with the profile's user and token",
		Long: `A git credential helper (see gitcredentials(7)); forge auth setup-git
registers it, and git runs it, not you.

For "get", git writes the protocol and host it needs credentials for on
standard input. If they are the scheme and host of a profile's base URL,
forge answers with that profile's user name and token (the service accepts
the token as the password for git over HTTP). It answers for no other host.
The profile is --profile (forge auth setup-git writes it) or FORGE_PROFILE
when given, else the current profile; no other profile answers, so git acts
as the account it was set up with or asks. "store" and "erase" are accepted and ignored: the token stays in the
profile, and forge auth logout removes it. Other operations are ignored, as
the protocol asks.`,
		Example: `  printf 'protocol=https\nhost=forge.example.com\n\n' | forge auth git-credential get`,
		Hidden:  true,
		Args:    cmdcore.ExactArgs(1, "an operation: get, store or erase"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.operation = args[0]
			return runF(cmd.Context(), opts)
		},
	}
}

func runGitCredential(ctx context.Context, opts *gitCredentialOptions) error {
	if opts.operation != "get" {
		// store, erase and operations git may add later.
		_, err := io.Copy(io.Discard, opts.IO.In)
		return err
	}
	return runGitCredentialGet(ctx, opts.Deps)
}

// credentialRequest is what git asks for.
type credentialRequest struct {
	protocol, host, username string
}

// readCredentialRequest reads git's key=value lines up to a blank line or
// the end of input.
func readCredentialRequest(r io.Reader) (credentialRequest, error) {
	var req credentialRequest
	s := bufio.NewScanner(r)
	for s.Scan() {
		line := strings.TrimSuffix(s.Text(), "\r")
		if line == "" {
			break
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		switch key {
		case "protocol":
			req.protocol = value
		case "host":
			req.host = value
		case "username":
			req.username = value
		case "url":
			if u, err := url.Parse(value); err == nil {
				req.protocol, req.host = u.Scheme, u.Host
				if u.User != nil {
					req.username = u.User.Username()
				}
			}
		}
	}
	return req, s.Err()
}

// candidate is a profile that may answer.
type candidate struct {
	profile, baseURL, user, token string
}

func runGitCredentialGet(ctx context.Context, d cmdutil.Deps) error {
	req, err := readCredentialRequest(d.IO.In)
	if err != nil {
		return err
	}
	if req.protocol == "" || req.host == "" {
		return nil // nothing forge can match; git asks elsewhere
	}
	cands, err := candidates(d)
	if err != nil {
		return err
	}
	var loggedOut *candidate
	for _, c := range cands {
		if !sameHost(c.baseURL, req.protocol, req.host) {
			continue
		}
		if c.token == "" {
			if loggedOut == nil {
				loggedOut = &c
			}
			continue
		}
		user := c.user
		if user == "" {
			if user, err = whoAmI(ctx, d, c); err != nil {
				return err
			}
		}
		if req.username != "" && !strings.EqualFold(req.username, user) {
			continue // git wants another account's credentials
		}
		// git's credential protocol: git reads it, byte for byte.
		_, err := fmt.Fprintf(d.IO.Out, "protocol=%s\nhost=%s\nusername=%s\npassword=%s\n", req.protocol, req.host, user, c.token)
		return err
	}
	if loggedOut != nil {
		// Said on stderr, which git shows; git then asks elsewhere.
		return fmt.Errorf("profile %q has no token for %s: run `forge auth login`", loggedOut.profile, config.Origin(loggedOut.baseURL))
	}
	return nil
}

// candidates lists the profiles that may answer: the profile in force
// alone (--profile, FORGE_PROFILE, else the current profile, with
// FORGE_BASE_URL and FORGE_TOKEN applied). Another profile logged in on
// the host never answers: git would act as an account nobody chose.
func candidates(d cmdutil.Deps) ([]candidate, error) {
	s, err := d.Settings()
	if err != nil {
		return nil, err
	}
	active := candidate{profile: s.Profile, baseURL: s.BaseURL, token: s.Token}
	// The profile's user goes with the profile's token; FORGE_TOKEN may be
	// another account's, so then whoAmI asks the service.
	if s.Sources["token"] == config.FromFile {
		active.user = s.User
	}
	return []candidate{active}, nil
}

// whoAmI asks the service whose token it is, for a profile that stores no
// user name.
func whoAmI(ctx context.Context, d cmdutil.Deps, c candidate) (string, error) {
	rc, err := d.RESTClient(c.baseURL, c.token)
	if err != nil {
		return "", err
	}
	me, err := rc.Account.Me(ctx)
	if err != nil {
		return "", err
	}
	return me.Login, nil
}

// sameHost reports whether git's protocol and host (host[:port]) are the
// scheme and host of baseURL, a missing port meaning the scheme's default.
func sameHost(baseURL, protocol, host string) bool {
	u, err := url.Parse(baseURL)
	if baseURL == "" || err != nil || u.Host == "" || !strings.EqualFold(u.Scheme, protocol) {
		return false
	}
	return canonicalHost(u.Scheme, u.Host) == canonicalHost(protocol, host)
}

func canonicalHost(scheme, host string) string {
	h, port, err := net.SplitHostPort(host)
	if err != nil {
		h, port = strings.Trim(host, "[]"), "443"
		if strings.EqualFold(scheme, "http") {
			port = "80"
		}
	}
	return strings.ToLower(net.JoinHostPort(h, port))
}
