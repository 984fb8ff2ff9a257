package profile

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/spf13/cobra"
)

type addOptions struct {
	cmdutil.Deps
	name        string
	baseURL     string
	agentURL    string
	registryURL string
	use         bool
	force       bool
}

func newAddCmd(f *cmdutil.Factory, runF func(context.Context, *addOptions) error) *cobra.Command {
	opts := &addOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runAdd)
	cmd := &cobra.Command{
		Use:   "add NAME --base-url URL",
		Short: "Add a profile for a deployment of the service",
		Long: `Add a profile. The base URL is the REST API's, ending in /api/v2 (a bare
https://host gets /api/v2 added). The agent and registry addresses default
to the base URL's origin, where the reference server serves them.

Profile names are case-insensitive and stored in lower case (Work is
stored as work); a profile written with capitals by an older forge keeps
its name. The first profile added becomes the current one.`,
		Example: `  forge profile add production --base-url https://forge.example.com/api/v2
  forge profile add dev --base-url http://127.0.0.1:8080/api/v2 --use`,
		Args: cmdcore.ExactArgs(1, "a profile name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return runF(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.baseURL, "base-url", "", "REST API base `URL`, ending in /api/v2 (required)")
	fl.StringVar(&opts.agentURL, "agent-url", "", "Agent chat API `URL` (default: the base URL's origin)")
	fl.StringVar(&opts.registryURL, "registry-url", "", "Container registry `URL` (default: the base URL's origin)")
	fl.BoolVar(&opts.use, "use", false, "Make it the current profile")
	fl.BoolVar(&opts.force, "force", false, "Replace the addresses of an existing profile (its credentials are kept)")
	return cmd
}

func (o *addOptions) validate() (*config.Profile, error) {
	if err := config.ValidProfileName(o.name); err != nil {
		return nil, &cmdcore.UsageError{Err: err}
	}
	if o.baseURL == "" {
		return nil, cmdcore.UsageErrorf("--base-url is required, as in `forge profile add %s --base-url https://HOST/api/v2`", o.name)
	}
	p := &config.Profile{}
	var err error
	if p.BaseURL, err = config.NormalizeBaseURL(o.baseURL); err != nil {
		return nil, &cmdcore.UsageError{Err: err}
	}
	if o.agentURL != "" {
		if p.AgentURL, err = config.NormalizeServiceURL("agent URL", o.agentURL); err != nil {
			return nil, &cmdcore.UsageError{Err: err}
		}
	}
	if o.registryURL != "" {
		if p.RegistryURL, err = config.NormalizeServiceURL("registry URL", o.registryURL); err != nil {
			return nil, &cmdcore.UsageError{Err: err}
		}
	}
	return p, nil
}

func runAdd(_ context.Context, o *addOptions) error {
	p, err := o.validate()
	if err != nil {
		return err
	}
	becameCurrent := false
	err = o.UpdateConfig(func(cf *config.File) error {
		o.name = cf.ProfileKey(o.name) // names are case-insensitive, new ones lower-case
		if old := cf.Profile(o.name); old != nil {
			if !o.force {
				return cmdcore.UsageErrorf("profile %q already exists; pass --force to replace its addresses or `forge profile remove %s` first", o.name, o.name)
			}
			old.BaseURL, old.AgentURL, old.RegistryURL = p.BaseURL, p.AgentURL, p.RegistryURL
		} else {
			cf.SetProfile(o.name, p)
		}
		if o.use || cf.CurrentProfile == "" {
			cf.CurrentProfile = o.name
			becameCurrent = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	ios := o.IO
	cs := ios.ErrColorScheme()
	ios.ErrPrintf("%s Added profile %s (%s)\n", cs.SuccessIcon(), cs.Bold(o.name), p.BaseURL)
	if becameCurrent {
		ios.ErrPrintf("%s %s is the current profile\n", cs.SuccessIcon(), o.name)
	}
	return nil
}
