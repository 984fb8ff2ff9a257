package account

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

// viewFields are GET /me's and GET /me/state's fields, merged.
var viewFields = []string{"id", "login", "email", "full_name", "is_admin", "avatar_url", "role", "location", "website",
	"description", "twofa_enabled", "ssh_key_added", "invited_by", "activated_at"}

type viewOptions struct {
	cmdutil.Deps
	exporter *output.Exporter
}

func newViewCmd(f *cmdutil.Factory, runF func(context.Context, *viewOptions) error) *cobra.Command {
	opts := &viewOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runView)
	cmd := &cobra.Command{
		Use:   "view",
		Short: "Show your account: name, email, role, two-factor and SSH key state",
		Long: `Show your account (GET /me) and its state (GET /me/state): name, email,
role, location, website, description, two-factor and SSH key state. On a
terminal a summary; piped, one "key:<TAB>value" line each, the values
exact. With --json, both objects are merged into one, with every field the
service sent.`,
		Example: `  forge account view
  forge account view --json login,role,twofa_enabled`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	opts.exporter = output.AddJSONFlags(cmd, viewFields...)
	return cmd
}

func runView(ctx context.Context, opts *viewOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	me, err := c.Account.Me(ctx)
	if err != nil {
		return err
	}
	state, err := c.Account.State(ctx)
	if err != nil {
		return err
	}
	ios := opts.IO
	if opts.exporter.Enabled() {
		merged, err := merge(me.RawJSON(), state.RawJSON())
		if err != nil {
			return err
		}
		return opts.exporter.Write(ios, merged)
	}
	// location, website and description are not in the spec's User;
	// the service sends them when they are set (account edit sets them).
	var profile struct{ Location, Website, Description string }
	_ = json.Unmarshal(me.RawJSON(), &profile)
	activated := ""
	if !state.ActivatedAt.IsZero() {
		activated = output.FormatTime(state.ActivatedAt.Time, ios.IsStdoutTTY())
	}
	if !ios.IsStdoutTTY() {
		// Piped: one "key:<TAB>value" line each, the values exact, as
		// the other view commands print them.
		var b strings.Builder
		for _, kv := range [][2]string{
			{"login", me.Login}, {"name", me.FullName}, {"email", me.Email}, {"id", fmt.Sprint(me.ID)},
			{"role", state.Role}, {"location", profile.Location}, {"website", profile.Website},
			{"description", text.Flatten(profile.Description)},
			{"2fa", onOff(state.TwoFAEnabled, "on", "off")}, {"ssh_key", onOff(state.SSHKeyAdded, "added", "none")},
			{"invited_by", state.InvitedBy}, {"activated", activated},
		} {
			fmt.Fprintf(&b, "%s:\t%s\n", kv[0], kv[1])
		}
		return ios.Print(b.String())
	}
	cs := ios.ColorScheme()
	var b iostreams.Doc
	b.Add(cs.Bold(text.OneLine(me.Login)))
	if me.FullName != "" && me.FullName != me.Login {
		b.Printf(cs, " (%s)", me.FullName)
	}
	b.Add("\n")
	row := func(k, v string) {
		shown := cs.Sprintf("%s", v)
		if v == "" {
			shown = cs.Gray("-")
		}
		b.Printf(cs, "  %-12s %s\n", k+":", shown)
	}
	row("email", me.Email)
	row("id", fmt.Sprint(me.ID))
	row("role", state.Role)
	row("location", profile.Location)
	row("website", profile.Website)
	row("description", profile.Description)
	row("2FA", onOff(state.TwoFAEnabled, "on", "off (turn it on: forge auth 2fa setup)"))
	row("SSH key", onOff(state.SSHKeyAdded, "added", "none (add one: forge ssh-key add)"))
	row("invited by", state.InvitedBy)
	row("activated", activated)
	return ios.Print(b.Styled())
}

func onOff(v bool, on, off string) string {
	if v {
		return on
	}
	return off
}

// merge joins two JSON objects; the first one's fields win.
func merge(first, second json.RawMessage) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if err := json.Unmarshal(second, &out); err != nil {
		return nil, fmt.Errorf("decoding /me/state: %w", err)
	}
	var a map[string]json.RawMessage
	if err := json.Unmarshal(first, &a); err != nil {
		return nil, fmt.Errorf("decoding /me: %w", err)
	}
	for k, v := range a {
		out[k] = v
	}
	return out, nil
}
