package profile

import (
	"context"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/config"
	"github.com/spf13/cobra"
)

// fields are the JSON fields of a profile. Secrets appear only masked.
var fields = []string{"name", "current", "base_url", "agent_url", "registry_url", "user", "token", "agent_key", "registry_user", "registry_password"}

type listOptions struct {
	cmdutil.Deps
	exporter *output.Exporter
}

func newListCmd(f *cmdutil.Factory, runF func(context.Context, *listOptions) error) *cobra.Command {
	opts := &listOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runList)
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List profiles",
		Example: `  forge profile list
  forge profile list --json name,base_url --jq '.[].name'`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runF(cmd.Context(), opts) },
	}
	opts.exporter = output.AddJSONFlags(cmd, fields...)
	return cmd
}

func runList(_ context.Context, opts *listOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	cf, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	current := currentName(opts.Deps, cf)
	if opts.exporter.Enabled() {
		list := make([]map[string]any, 0, len(cf.Profiles))
		for _, name := range cf.ProfileNames() {
			list = append(list, record(name, name == current, cf.Profile(name)))
		}
		return opts.exporter.Write(opts.IO, list)
	}
	ios := opts.IO
	if len(cf.Profiles) == 0 {
		if ios.IsStdoutTTY() {
			ios.ErrPrintln("No profiles yet; add one with `forge profile add NAME --base-url URL`.")
		}
		return nil
	}
	t := output.NewTable(ios, "", "NAME", "BASE URL", "USER")
	t.KeepWhole("NAME")
	for _, name := range cf.ProfileNames() {
		p := cf.Profile(name)
		mark := ""
		if name == current {
			mark = "*"
		}
		t.Add(mark, output.Green)
		t.Add(name, output.Bold)
		t.Add(p.BaseURL)
		t.Add(p.User)
		t.EndRow()
	}
	return t.Render()
}

// currentName is the profile commands run against: --profile, then
// FORGE_PROFILE, then the file's current_profile.
func currentName(d cmdutil.Deps, cf *config.File) string {
	name := cf.CurrentProfile
	if v := d.Getenv("FORGE_PROFILE"); v != "" {
		name = v
	}
	if d.ProfileChoice() != "" {
		name = d.ProfileChoice()
	}
	return cf.ProfileKey(name) // names are case-insensitive
}

// record is a profile as JSON, with secrets masked.
func record(name string, current bool, p *config.Profile) map[string]any {
	return map[string]any{
		"name": name, "current": current,
		"base_url": p.BaseURL, "agent_url": p.AgentURL, "registry_url": p.RegistryURL,
		"user": p.User, "token": config.Mask(p.Token), "agent_key": config.Mask(p.AgentKey),
		"registry_user": p.RegistryUser, "registry_password": config.MaskPassword(p.RegistryPassword),
	}
}
