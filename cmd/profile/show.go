package profile

import (
	"context"
	"slices"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type showOptions struct {
	cmdutil.Deps
	name     string
	exporter *output.Exporter
}

func newShowCmd(f *cmdutil.Factory, runF func(context.Context, *showOptions) error) *cobra.Command {
	opts := &showOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runShow)
	cmd := &cobra.Command{
		Use:   "show [NAME]",
		Short: "Show a profile's settings, secrets masked",
		Long: `Show the settings forge would use for a profile (the current one by
default): each value with where it came from — a flag, the environment, the
config file or a default. Secrets are masked; ` + "`forge auth token`" + ` prints the token.`,
		Example: `  forge profile show
  forge profile show dev --json base_url --jq .base_url`,
		Args:              cmdcore.MaximumArgs(1, "at most one profile name"),
		ValidArgsFunction: completeNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.name = args[0]
			}
			return runF(cmd.Context(), opts)
		},
	}
	opts.exporter = output.AddJSONFlags(cmd, fields...)
	return cmd
}

func runShow(_ context.Context, opts *showOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	cf, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	flag := opts.name
	if flag == "" {
		flag = opts.ProfileChoice()
	}
	s, err := config.Resolve(cf, flag, opts.Getenv)
	if err != nil {
		return &cmdcore.UsageError{Err: err}
	}
	if opts.exporter.Enabled() {
		return opts.exporter.Write(opts.IO, settingsRecord(s, s.Profile == currentName(opts.Deps, cf)))
	}
	return printSettings(opts.Deps, s, cf.Profile(s.Profile))
}

func settingsRecord(s *config.Settings, current bool) map[string]any {
	return record(s.Profile, current, &config.Profile{
		BaseURL: s.BaseURL, AgentURL: s.AgentURL, RegistryURL: s.RegistryURL, User: s.User,
		Token: s.Token, AgentKey: s.AgentKey, RegistryUser: s.RegistryUser, RegistryPassword: s.RegistryPassword,
	})
}

func printSettings(d cmdutil.Deps, s *config.Settings, p *config.Profile) error {
	saved := p != nil
	ios := d.IO
	path, _ := d.ConfigPath()
	// The values — a login stored from the service's answer among them —
	// meet the terminal in output.Fields, which sanitizes them there.
	kv := output.NewFields(ios)
	kv.Title("profile:", s.Profile)
	if !saved {
		kv.Note("(not in " + path + " yet)")
	}
	rows := []struct{ key, val string }{
		{"base_url", s.BaseURL}, {"agent_url", s.AgentURL}, {"registry_url", s.RegistryURL},
		{"user", s.User}, {"token", config.Mask(s.Token)}, {"agent_key", config.Mask(s.AgentKey)},
		{"registry_user", s.RegistryUser}, {"registry_password", config.MaskPassword(s.RegistryPassword)},
	}
	for _, r := range rows {
		var note string
		switch {
		case r.val == "":
		case s.Sources[r.key] != config.FromFile:
			note = "(" + sourceText(s.Sources[r.key], r.key) + ")"
		case saved && slices.Contains(config.SecretKeys, r.key) && p.SecretLocation(r.key) == config.InKeyring:
			note = "(in the keyring)"
		default:
			note = "(config file)"
		}
		kv.Add(r.key, r.val, note)
	}
	for _, n := range s.Notes() {
		kv.Note(text.OnTerminal(ios.IsStdoutTTY(), n)) // names values from the environment
	}
	return kv.Render(ios.Out)
}

// sourceText says where a value that is not the profile's own comes
// from. A default never says "from default": a profile may be named
// default.
func sourceText(src config.Source, key string) string {
	switch src {
	case config.FromEnv:
		return "from " + config.EnvVar(key)
	case config.FromDefault:
		switch key {
		case "agent_url", "registry_url":
			return "built-in default: the base URL's origin"
		case "registry_user":
			return "built-in default: the user"
		}
		return "built-in default"
	}
	return "from " + string(src)
}
