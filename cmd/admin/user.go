package admin

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/confirm"
	"github.com/forgehq/forge/cmd/internal/listing"
	"github.com/spf13/cobra"
)

var userFields = []string{"id", "login", "email", "full_name", "is_admin", "role", "state", "invited_by", "twofa_enabled", "created_at", "activated_at"}

// newUserCmd returns `forge admin user` and its subcommands.
func newUserCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "user <command>",
		Short: "List, disable, enable and delete accounts",
		Example: `  forge admin user list
  forge admin user disable bob
  forge admin user enable bob`,
	})
	cmd.AddCommand(newUserListCmd(f, nil), newUserDisableCmd(f, nil), newUserEnableCmd(f, nil), newUserDeleteCmd(f, nil))
	return cmd
}

// userExtra holds the account fields GET /admin/users may send beyond the
// spec's User: the spec shows none, so each is optional, and the state may
// come as a word or as a disabled flag.
type userExtra struct {
	Role      string      `json:"role"`
	State     string      `json:"state"`
	Disabled  *bool       `json:"disabled"`
	TwoFA     *bool       `json:"twofa_enabled"`
	CreatedAt client.Time `json:"created_at"`
}

func extraOf(u *client.User) userExtra {
	var x userExtra
	_ = json.Unmarshal(u.RawJSON(), &x) // a field of another type stays zero
	if x.State == "" && x.Disabled != nil {
		x.State = "enabled"
		if *x.Disabled {
			x.State = "disabled"
		}
	}
	if x.Role == "" && u.IsAdmin {
		x.Role = "admin"
	}
	return x
}

type userListOptions struct {
	cmdutil.Deps
	list listing.Flags
}

func newUserListCmd(f *cmdutil.Factory, runF func(context.Context, *userListOptions) error) *cobra.Command {
	opts := &userListOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runUserList)
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the accounts you administer",
		Long: `List the accounts you administer (a customer_admin: those it invited; a
site_admin: all). Piped: tab-separated login, full name, email, role, state,
two-factor (on/off) and creation time.`,
		Example: `  forge admin user list
  forge admin user list --json login,state --jq '.[] | select(.state == "disabled") | .login'`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	opts.list.Add(cmd, 100, "accounts", userFields...)
	return cmd
}

func runUserList(ctx context.Context, opts *userListOptions) error {
	c, err := opts.list.REST(opts.Deps)
	if err != nil {
		return err
	}
	ios := opts.IO
	t := output.NewTable(ios, "LOGIN", "NAME", "EMAIL", "ROLE", "STATE", "2FA", "CREATED")
	t.KeepWhole("LOGIN", "EMAIL")
	return listing.Show(ctx, listing.Tail{IO: ios, Flags: &opts.list, Table: t, Empty: "No accounts to administer; invite someone with `forge admin invite create`."}, c.Admin.ListUsers(ctx, opts.list.PerPage()), func(u *client.User) {
		x := extraOf(u)
		t.Add(u.Login, output.Bold)
		t.Add(u.FullName)
		t.Add(u.Email)
		t.Add(x.Role, roleColor(x.Role))
		t.Add(x.State, stateColor(x.State))
		switch {
		case x.TwoFA == nil:
			t.Add("")
		case *x.TwoFA:
			t.Add("on", output.Green)
		default:
			t.Add("off", output.Gray)
		}
		t.AddTime(x.CreatedAt.Time)
		t.EndRow()
	})
}

// userActionOptions serve disable, enable and delete.
type userActionOptions struct {
	cmdutil.Deps
	login  string
	yes    bool
	enable bool // enable rather than disable
}

func newUserDisableCmd(f *cmdutil.Factory, runF func(context.Context, *userActionOptions) error) *cobra.Command {
	return withUserState(f, &cobra.Command{
		Use:   "disable USER",
		Short: "Disable an account: it can no longer sign in, and its tokens stop working",
		Example: `  forge admin user disable bob
  forge admin user enable bob`,
	}, false, runF)
}

func newUserEnableCmd(f *cmdutil.Factory, runF func(context.Context, *userActionOptions) error) *cobra.Command {
	return withUserState(f, &cobra.Command{
		Use:     "enable USER",
		Short:   "Enable a disabled account",
		Example: `  forge admin user enable bob`,
	}, true, runF)
}

// withUserState completes disable or enable: both set whether the
// account may sign in.
func withUserState(f *cmdutil.Factory, cmd *cobra.Command, enable bool, runF func(context.Context, *userActionOptions) error) *cobra.Command {
	opts := &userActionOptions{Deps: f.Deps(), enable: enable}
	runF = cmdcore.Seam(runF, runUserState)
	cmd.Args = cmdcore.ExactArgs(1, "a user name")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts.login = args[0]
		return runF(cmd.Context(), opts)
	}
	return cmd
}

func newUserDeleteCmd(f *cmdutil.Factory, runF func(context.Context, *userActionOptions) error) *cobra.Command {
	opts := &userActionOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runUserDelete)
	cmd := &cobra.Command{
		Use:   "delete USER",
		Short: "Delete an account with its keys, tokens and repositories",
		Long: `Delete an account for good, with its SSH keys, tokens and repositories. On a
terminal forge asks you to type the user name to confirm; elsewhere pass
--yes.`,
		Example: `  forge admin user delete bob
  forge admin user delete bob --yes`,
		Args: cmdcore.ExactArgs(1, "a user name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.login = args[0]
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.yes, "yes", "y", false, "Delete without asking")
	return cmd
}

// runUserState disables or enables an account. One that already was in
// that state is said so, and is no failure: the state asked for holds.
func runUserState(ctx context.Context, opts *userActionOptions) error {
	if err := checkLogin(opts.login); err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	done, state, act := "Disabled", "disabled", c.Admin.DisableUser
	if opts.enable {
		done, state, act = "Enabled", "enabled", c.Admin.EnableUser
	}
	already, err := act(ctx, opts.login)
	if err != nil {
		return err
	}
	ios := opts.IO
	cs := ios.ErrColorScheme()
	if already {
		ios.ErrPrintf("%s %s was already %s\n", cs.WarningIcon(), opts.login, state)
		return nil
	}
	ios.ErrPrintf("%s %s %s\n", cs.SuccessIcon(), done, opts.login)
	return nil
}

// perform runs the action and reports it on stderr.
func perform(opts *userActionOptions, c *client.Client, done string, act func(*client.Client) error) error {
	if err := act(c); err != nil {
		return err
	}
	ios := opts.IO
	ios.ErrPrintf("%s %s %s\n", ios.ErrColorScheme().SuccessIcon(), done, opts.login)
	return nil
}

func runUserDelete(ctx context.Context, opts *userActionOptions) error {
	if err := checkLogin(opts.login); err != nil {
		return err
	}
	ios := opts.IO
	if err := confirm.Possible(ios, opts.yes, "user "+opts.login); err != nil {
		return err
	}
	c, err := opts.REST() // before asking: not logged in fails first
	if err != nil {
		return err
	}
	if !opts.yes {
		ios.ErrPrintf("This deletes the account %s with its SSH keys, tokens and repositories, for good.\n", opts.login)
		if err := confirm.Typed(ctx, opts.Deps, opts.login); err != nil {
			return err
		}
	}
	return perform(opts, c, "Deleted", func(c *client.Client) error {
		return c.Admin.DeleteUser(ctx, opts.login)
	})
}

// checkLogin refuses an empty or flag-like user name before any request.
func checkLogin(login string) error {
	if strings.TrimSpace(login) == "" || strings.ContainsAny(login, "/ \t\n") {
		return cmdcore.UsageErrorf("%q is not a user name", login)
	}
	return nil
}
