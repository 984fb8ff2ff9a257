package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/origin"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

// errCredNotFound is the exact message of the credential-helper protocol
// for "no credentials": clients compare it to tell a miss from a failure.
const errCredNotFound = "credentials not found in native keychain"

func newDockerCredCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "docker-credential <get|store|erase|list>",
		Short: "Serve forge's registry credentials to docker, crane and skopeo",
		Long: `Speak docker's credential-helper protocol with the registry credentials forge
stores (` + "`forge image login`" + `), so docker, crane, skopeo and other OCI tools
use them. Invoked as docker-credential-forge (a link to forge under that name
on the PATH), forge does the same.

Set it up once:

  ln -s "$(command -v forge)" ~/.local/bin/docker-credential-forge

and in ~/.docker/config.json name forge for your registry:

  {"credHelpers": {"registry.example.com": "forge"}}

get reads a server URL on stdin and prints {"ServerURL","Username","Secret"};
store reads that JSON and stores it in the profile whose registry it is; erase
reads a server URL and forgets its credentials; list prints {URL: username}.
The current profile is asked first (with FORGE_USERNAME and FORGE_PASSWORD
applied), then every other profile. Loopback names of one port are one
registry (localhost:5000, 127.0.0.1:5000, [::1]:5000); no other two names are.`,
		Example: `  echo 127.0.0.1:8080 | forge auth docker-credential get
  echo 127.0.0.1:8080 | docker-credential-forge get
  forge auth docker-credential list`,
	})
	for _, action := range []struct {
		name, short string
		run         func(context.Context, *dockerCredOptions) error
	}{
		{"get", "Print the credentials for the server URL on stdin", credGet},
		{"store", "Store the credentials given as JSON on stdin", credStore},
		{"erase", "Forget the credentials for the server URL on stdin", credErase},
		{"list", "List the registries forge holds credentials for", credList},
		{"version", "Print forge's version", credVersion},
	} {
		cmd.AddCommand(newDockerCredActionCmd(f, action.name, action.short, action.run, nil))
	}
	return cmd
}

type dockerCredOptions struct{ cmdutil.Deps }

// newDockerCredActionCmd returns `forge auth docker-credential NAME`,
// which run answers.
func newDockerCredActionCmd(f *cmdutil.Factory, name, short string, run, runF func(context.Context, *dockerCredOptions) error) *cobra.Command {
	opts := &dockerCredOptions{Deps: f.Deps()}
	runF = cmdutil.Seam(runF, run)
	return &cobra.Command{
		Use:     name,
		Short:   short,
		Example: "  echo 127.0.0.1:8080 | docker-credential-forge " + name,
		Args:    cmdutil.NoArgs,
		RunE:    func(c *cobra.Command, _ []string) error { return runF(c.Context(), opts) },
	}
}

func credVersion(_ context.Context, opts *dockerCredOptions) error {
	_, err := fmt.Fprintln(opts.IO.Out, build.String())
	return err
}

// dockerCreds are the protocol's JSON.
type dockerCreds struct {
	ServerURL string
	Username  string
	Secret    string
}

// credHost reduces a server URL as docker passes it ("host:port",
// "https://host/v1/", ...) to host[:port].
func credHost(s string) string {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "://") {
		if u, err := url.Parse(s); err == nil {
			return u.Host
		}
	}
	host, _, _ := strings.Cut(s, "/")
	return host
}

// credProfileHost is the registry host a profile's credentials are for: its
// registry URL, else its base URL's origin (where the registry defaults).
func credProfileHost(p *config.Profile) string {
	raw := p.RegistryURL
	if raw == "" {
		raw = config.Origin(p.BaseURL)
	}
	return credHost(raw)
}

func credReadStdin(d cmdutil.Deps) (string, error) {
	b, err := io.ReadAll(io.LimitReader(d.IO.In, 64<<10))
	if err != nil {
		return "", fmt.Errorf("reading stdin: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// credNotFound answers the protocol's "no credentials": the message on
// stdout, exit status 1.
func credNotFound(d cmdutil.Deps) error {
	fmt.Fprintln(d.IO.Out, errCredNotFound)
	return cmdutil.ErrSilent
}

func credGet(_ context.Context, opts *dockerCredOptions) error {
	in, err := credReadStdin(opts.Deps)
	if err != nil {
		return err
	}
	host := credHost(in)
	if host == "" {
		return credNotFound(opts.Deps)
	}
	if s, err := opts.Settings(); err == nil && s.RegistryUser != "" && s.RegistryPassword != "" && origin.SameHost(credHost(s.RegistryURL), host) {
		return credWrite(opts.Deps, in, s.RegistryUser, s.RegistryPassword)
	}
	cf, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	for _, name := range cf.ProfileNames() {
		p := cf.Profile(name)
		if p.RegistryUser != "" && p.RegistryPassword != "" && origin.SameHost(credProfileHost(p), host) {
			return credWrite(opts.Deps, in, p.RegistryUser, p.RegistryPassword)
		}
	}
	return credNotFound(opts.Deps)
}

func credWrite(d cmdutil.Deps, server, user, secret string) error {
	return json.NewEncoder(d.IO.Out).Encode(dockerCreds{ServerURL: server, Username: user, Secret: secret})
}

// credProfileFor picks the profile whose registry is host: the current one
// first.
func credProfileFor(d cmdutil.Deps, cf *config.File, host string) string {
	if s, err := d.Settings(); err == nil {
		if p := cf.Profile(s.Profile); p != nil && origin.SameHost(credProfileHost(p), host) {
			return s.Profile
		}
	}
	for _, name := range cf.ProfileNames() {
		if origin.SameHost(credProfileHost(cf.Profile(name)), host) {
			return name
		}
	}
	return ""
}

func credStore(_ context.Context, opts *dockerCredOptions) error {
	in, err := credReadStdin(opts.Deps)
	if err != nil {
		return err
	}
	var c dockerCreds
	if err := json.Unmarshal([]byte(in), &c); err != nil || c.ServerURL == "" || c.Username == "" || c.Secret == "" {
		return errors.New(`store wants {"ServerURL": ..., "Username": ..., "Secret": ...} on stdin`)
	}
	host := credHost(c.ServerURL)
	var stored string
	err = opts.UpdateConfig(func(cf *config.File) error {
		name := credProfileFor(opts.Deps, cf, host)
		if name == "" {
			return fmt.Errorf("no forge profile has the registry %s: add one with `forge profile add NAME --base-url URL --registry-url https://%s`", host, host)
		}
		p := cf.Profile(name)
		p.RegistryUser, p.RegistryPassword = c.Username, c.Secret
		stored = name
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Stored the credentials of %s for %s in profile %s\n",
		text.OnTerminal(opts.IO.IsStderrTTY(), c.Username), text.OnTerminal(opts.IO.IsStderrTTY(), host), stored)
	return nil
}

func credErase(_ context.Context, opts *dockerCredOptions) error {
	in, err := credReadStdin(opts.Deps)
	if err != nil {
		return err
	}
	host := credHost(in)
	erased := false
	err = opts.UpdateConfig(func(cf *config.File) error {
		for _, name := range cf.ProfileNames() {
			p := cf.Profile(name)
			if origin.SameHost(credProfileHost(p), host) && (p.RegistryUser != "" || p.RegistryPassword != "") {
				p.RegistryUser, p.RegistryPassword = "", ""
				erased = true
			}
		}
		if !erased {
			return errors.New(errCredNotFound)
		}
		return nil
	})
	if err != nil && !erased {
		return credNotFound(opts.Deps)
	}
	return err
}

func credList(_ context.Context, opts *dockerCredOptions) error {
	out := map[string]string{}
	cf, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	for _, name := range cf.ProfileNames() {
		p := cf.Profile(name)
		if h := credProfileHost(p); h != "" && p.RegistryUser != "" && p.RegistryPassword != "" {
			if _, taken := out[h]; !taken {
				out[h] = p.RegistryUser
			}
		}
	}
	if s, err := opts.Settings(); err == nil && s.RegistryUser != "" && s.RegistryPassword != "" {
		if h := credHost(s.RegistryURL); h != "" {
			out[h] = s.RegistryUser
		}
	}
	return json.NewEncoder(opts.IO.Out).Encode(out)
}
