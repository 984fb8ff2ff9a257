package admin

import (
	"context"
	"encoding/json"
	"net/mail"
	"slices"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/listing"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

var inviteFields = []string{"id", "username", "email", "full_name", "fullName", "role", "state", "invited_by", "created_at", "expires_at", "accepted_at"}

// newInviteCmd returns `forge admin invite` and its subcommands.
func newInviteCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "invite <command>",
		Short: "List and create invitations",
		Example: `  forge admin invite list
  forge admin invite create bob --email bob@example.com --role user`,
	})
	cmd.AddCommand(newInviteListCmd(f, nil), newInviteCreateCmd(f, nil))
	return cmd
}

type inviteListOptions struct {
	cmdutil.Deps
	list listing.Flags
}

func newInviteListCmd(f *cmdutil.Factory, runF func(context.Context, *inviteListOptions) error) *cobra.Command {
	opts := &inviteListOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runInviteList)
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List invitations",
		Long: `List the invitations you can see (a customer_admin sees its own, a site_admin
all). Piped: tab-separated username, email, full name, role, state, inviter
and creation time.`,
		Example: `  forge admin invite list
  forge admin invite list --json username,state --jq '.[] | select(.state == "pending") | .username'`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	opts.list.Add(cmd, 100, "invitations", inviteFields...)
	return cmd
}

func runInviteList(ctx context.Context, opts *inviteListOptions) error {
	c, err := opts.list.REST(opts.Deps)
	if err != nil {
		return err
	}
	ios := opts.IO
	t := output.NewTable(ios, "USERNAME", "EMAIL", "NAME", "ROLE", "STATE", "INVITED BY", "CREATED")
	t.KeepWhole("USERNAME", "EMAIL")
	return listing.Show(ctx, listing.Tail{IO: ios, Flags: &opts.list, Table: t, Empty: "No invitations yet; invite someone with `forge admin invite create`."}, c.Admin.ListInvites(ctx, opts.list.PerPage()), func(inv *client.Invite) {
		t.Add(inv.Label(), output.Bold)
		t.Add(inv.Email)
		t.Add(inv.FullName)
		t.Add(inv.Role, roleColor(inv.Role))
		t.Add(inv.State, stateColor(inv.State))
		t.Add(inv.InvitedBy)
		t.AddTime(inv.CreatedAt.Time)
		t.EndRow()
	})
}

type inviteCreateOptions struct {
	cmdutil.Deps
	exporter *output.Exporter
	in       client.InviteCreate
}

func newInviteCreateCmd(f *cmdutil.Factory, runF func(context.Context, *inviteCreateOptions) error) *cobra.Command {
	opts := &inviteCreateOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runInviteCreate)
	cmd := &cobra.Command{
		Use:   "create USER --email EMAIL",
		Short: "Invite someone to the service",
		Long: `Invite someone: the service creates the account USER with the role given
(default user). A customer_admin may invite users and customer_admins, a
site_admin any role.

When the service answers with a one-time temporary password or an invitation
link, forge prints it on stdout, once: pass it on to the person privately.
Messages go to stderr, so PASSWORD=$(forge admin invite create ...) captures
just that.`,
		Example: `  forge admin invite create bob --email bob@example.com --full-name "Bob Stone"
  forge admin invite create carol --email carol@example.com --role customer_admin`,
		Args: cmdcore.ExactArgs(1, "the new account's user name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.in.Username = args[0]
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.in.Email, "email", "e", "", "The invitee's email `address` (required)")
	cmd.Flags().StringVarP(&opts.in.FullName, "full-name", "n", "", "The invitee's full `name`")
	cmd.Flags().StringVarP(&opts.in.Role, "role", "r", "user", "The account's `role`: "+strings.Join(roles, ", "))
	opts.exporter = output.AddJSONFlags(cmd, inviteFields...)
	return cmd
}

func runInviteCreate(ctx context.Context, opts *inviteCreateOptions) error {
	in := &opts.in
	in.Username = strings.TrimSpace(in.Username)
	in.Email = strings.TrimSpace(in.Email)
	if in.Username == "" || strings.HasPrefix(in.Username, "-") {
		return cmdcore.UsageErrorf("give the new account's user name, as in `forge admin invite create bob --email bob@example.com`")
	}
	if in.Email == "" {
		return cmdcore.UsageErrorf("--email is required: forge admin invite create %s --email ADDRESS", in.Username)
	}
	if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != in.Email {
		return cmdcore.UsageErrorf("--email %q is not an email address, such as bob@example.com", in.Email)
	}
	if !slices.Contains(roles, in.Role) {
		return cmdcore.UsageErrorf("--role must be one of %s, not %q", strings.Join(roles, ", "), in.Role)
	}
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	inv, err := c.Admin.CreateInvite(ctx, *in)
	if err != nil {
		return err
	}
	ios := opts.IO
	if opts.exporter.Enabled() {
		raw := inv.RawJSON()
		if len(raw) == 0 {
			raw = json.RawMessage("{}")
		}
		return opts.exporter.Write(ios, raw)
	}
	ios.ErrPrintf("%s Invited %s <%s> as %s\n", ios.ErrColorScheme().SuccessIcon(),
		inv.Username, inv.Email, inv.Role)
	secret := secretOf(inv)
	switch {
	case secret.value == "":
		return nil
	case ios.IsStdoutTTY():
		err = ios.Printf("%s (shown only now; pass it on privately): %s\n", secret.label, text.OneLine(secret.value))
	default:
		err = ios.Println(secret.value)
	}
	return err
}

// secretOf finds what the invitee needs to sign in — the spec does not
// show the answer's fields: a temporary password (the reference server's
// temporary_password, or password), else an invitation link.
func secretOf(inv *client.Invite) (s struct{ label, value string }) {
	var v struct {
		TemporaryPassword string `json:"temporary_password"`
		Password          string `json:"password"`
		InviteURL         string `json:"invite_url"`
		URL               string `json:"url"`
	}
	if raw := inv.RawJSON(); len(raw) > 0 {
		_ = json.Unmarshal(raw, &v)
	}
	switch {
	case v.TemporaryPassword != "":
		s.label, s.value = "Temporary password", v.TemporaryPassword
	case v.Password != "":
		s.label, s.value = "Temporary password", v.Password
	case inv.InviteURL != "":
		s.label, s.value = "Invitation link", inv.InviteURL
	case v.URL != "":
		s.label, s.value = "Invitation link", v.URL
	}
	return s
}

func roleColor(role string) output.Color {
	switch role {
	case "site_admin":
		return output.Magenta
	case "customer_admin":
		return output.Yellow
	}
	return output.Plain
}

func stateColor(state string) output.Color {
	switch state {
	case "pending":
		return output.Yellow
	case "accepted", "enabled", "active":
		return output.Green
	case "disabled", "expired", "revoked":
		return output.Red
	}
	return output.Plain
}
