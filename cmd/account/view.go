package account

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/output"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

// viewFields are GET /me's and GET /me/state's fields, merged.
var viewFields = []string{"id", "login", "email", "full_name", "is_admin", "avatar_url", "role", "twofa_enabled", "ssh_key_added", "invited_by", "activated_at"}

type viewOptions struct {
	f        *cmdutil.Factory
	exporter *output.Exporter
}

func newViewCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &viewOptions{f: f}
	cmd := &cobra.Command{
		Use:   "view",
		Short: "Show your account: name, email, role, two-factor and SSH key state",
		Long: `Show your account (GET /me) and its state (GET /me/state). With --json,
both objects are merged into one, with every field the service sent.`,
		Example: `  forge account view
  forge account view --json login,role,twofa_enabled`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runView(cmd.Context(), opts)
		},
	}
	opts.exporter = output.AddJSONFlags(cmd, viewFields...)
	return cmd
}

func runView(ctx context.Context, opts *viewOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	c, err := opts.f.REST()
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
	ios := opts.f.IOStreams
	if opts.exporter.Enabled() {
		merged, err := merge(me.RawJSON(), state.RawJSON())
		if err != nil {
			return err
		}
		return opts.exporter.Write(ios, merged)
	}
	cs := ios.ColorScheme()
	var b strings.Builder
	tty := ios.IsStdoutTTY()
	title := cs.Bold(text.OnTerminal(tty, me.Login))
	if me.FullName != "" && me.FullName != me.Login {
		title += " (" + text.OnTerminal(tty, me.FullName) + ")"
	}
	b.WriteString(title + "\n")
	row := func(k, v string) {
		v = text.OnTerminal(tty, v)
		if v == "" {
			v = cs.Gray("-")
		}
		fmt.Fprintf(&b, "  %-12s %s\n", k+":", v)
	}
	row("email", me.Email)
	row("id", fmt.Sprint(me.ID))
	row("role", state.Role)
	row("2FA", onOff(state.TwoFAEnabled, "on", "off (turn it on: forge auth 2fa setup)"))
	row("SSH key", onOff(state.SSHKeyAdded, "added", "none (add one: forge ssh-key add)"))
	row("invited by", state.InvitedBy)
	activated := ""
	if !state.ActivatedAt.IsZero() {
		activated = output.FormatTime(state.ActivatedAt.Time, ios.IsStdoutTTY())
	}
	row("activated", activated)
	_, err = fmt.Fprint(ios.Out, b.String())
	return err
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
