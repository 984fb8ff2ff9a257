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
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

// errCredNotFound is the exact message of the credential-helper protocol
// for "no credentials": clients compare it to tell a miss from a failure.
const errCredNotFound = "credentials not found in native keychain"

func newDockerCredCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
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
store reads that JSON and stores it in the profile; erase reads a server URL
and forgets its credentials; list prints {HOST: username}.
Each answers for the profile in force alone — FORGE_PROFILE, else the current
profile, with FORGE_USERNAME and FORGE_PASSWORD applied — and for its
registry's host[:port] as written (localhost:5000 and 127.0.0.1:5000 are two
registries): never with another profile's account. forge's own image commands
never ask this helper.`,
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
	runF = cmdcore.Seam(runF, run)
	return &cobra.Command{
		Use:     name,
		Short:   short,
		Example: "  echo 127.0.0.1:8080 | docker-credential-forge " + name,
		Args:    cmdcore.NoArgs,
		RunE:    func(c *cobra.Command, _ []string) error { return runF(c.Context(), opts) },
	}
}

func credVersion(_ context.Context, opts *dockerCredOptions) error {
	err := opts.IO.Println(build.String())
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
	d.IO.Println(errCredNotFound)
	return cmdcore.ErrSilent
}

// credGet answers for the profile in force (FORGE_PROFILE, else the
// current profile; FORGE_USERNAME and FORGE_PASSWORD applied), for its
// registry's exact host[:port], or not at all: never with another
// profile's account.
func credGet(_ context.Context, opts *dockerCredOptions) error {
	d := opts.Deps
	in, err := credReadStdin(d)
	if err != nil {
		return err
	}
	s, err := d.Settings()
	if err != nil {
		return err
	}
	if a := cmdutil.RegistryAccountFor(s, credHost(in)); a != nil {
		return credWrite(d, in, a.User, a.Password)
	}
	return credNotFound(d)
}

func credWrite(d cmdutil.Deps, server, user, secret string) error {
	return json.NewEncoder(d.IO.Out).Encode(dockerCreds{ServerURL: server, Username: user, Secret: secret})
}

// credStore stores credentials in the profile in force, when host is its
// registry.
func credStore(_ context.Context, opts *dockerCredOptions) error {
	d := opts.Deps
	in, err := credReadStdin(d)
	if err != nil {
		return err
	}
	var c dockerCreds
	if err := json.Unmarshal([]byte(in), &c); err != nil || c.ServerURL == "" || c.Username == "" || c.Secret == "" {
		return errors.New(`store wants {"ServerURL": ..., "Username": ..., "Secret": ...} on stdin`)
	}
	host := credHost(c.ServerURL)
	s, err := d.Settings()
	if err != nil {
		return err
	}
	if !cmdutil.IsProfileRegistry(d, s, host) {
		return fmt.Errorf("the registry %s is not profile %s's: forge stores credentials only for the registry of the profile in force (set FORGE_PROFILE, or add a profile with `forge profile add NAME --base-url URL --registry-url https://%s`)", text.OneLine(host), s.Profile, text.OneLine(host))
	}
	err = d.UpdateConfig(func(cf *config.File) error {
		p := cf.Profile(s.Profile)
		if p == nil {
			return fmt.Errorf("profile %s is not in the configuration file", s.Profile)
		}
		p.RegistryUser, p.RegistryPassword = c.Username, c.Secret
		return nil
	})
	if err != nil {
		return err
	}
	d.IO.ErrPrintf("Stored the credentials of %s for %s in profile %s\n",
		c.Username, host, s.Profile)
	return nil
}

// credErase forgets the credentials of the profile in force, when host is
// its registry.
func credErase(_ context.Context, opts *dockerCredOptions) error {
	d := opts.Deps
	in, err := credReadStdin(d)
	if err != nil {
		return err
	}
	s, err := d.Settings()
	if err != nil {
		return err
	}
	if !cmdutil.IsProfileRegistry(d, s, credHost(in)) {
		return credNotFound(d)
	}
	erased := false
	err = d.UpdateConfig(func(cf *config.File) error {
		if p := cf.Profile(s.Profile); p != nil && (p.RegistryUser != "" || p.RegistryPassword != "") {
			p.RegistryUser, p.RegistryPassword = "", ""
			erased = true
		}
		return nil
	})
	if err == nil && !erased {
		return credNotFound(d)
	}
	return err
}

// credList lists the registry the profile in force holds credentials
// for.
func credList(_ context.Context, opts *dockerCredOptions) error {
	d := opts.Deps
	out := map[string]string{}
	s, err := d.Settings()
	if err != nil {
		return err
	}
	if a := cmdutil.RegistryAccountFor(s, credHost(s.RegistryURL)); a != nil {
		out[a.Host] = a.User
	}
	return json.NewEncoder(d.IO.Out).Encode(out)
}
