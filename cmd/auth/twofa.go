package auth

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/forgehq/forge/app/authflow"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/qr"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

func newTwoFACmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "2fa <command>",
		Short: "Turn two-factor authentication (TOTP) on or off",
		Example: `  forge auth 2fa setup
  forge auth 2fa disable --code 123456`,
		Long: `Two-factor authentication asks for a code from an authenticator app
(TOTP, as in Google Authenticator, Aegis, 1Password) at every login.`,
	})
	cmd.AddCommand(newTwoFASetupCmd(f, nil), newTwoFADisableCmd(f, nil))
	return cmd
}

type setupOptions struct {
	cmdutil.Deps
	code     string
	qrPNG    string
	invert   bool
	exporter *output.Exporter
}

func newTwoFASetupCmd(f *cmdutil.Factory, runF func(context.Context, *setupOptions) error) *cobra.Command {
	opts := &setupOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runSetup)
	cmd := &cobra.Command{
		Use:   "setup",
		Short: "Turn on two-factor authentication: scan a QR code, confirm with a code",
		Long: `Start two-factor enrolment: forge shows a QR code to scan with your
authenticator app, and the secret as text to type in instead, then asks
for the code the app shows and confirms the enrolment.

The QR code is drawn with half blocks and fits 80 columns. With colour on,
it is painted white on black so it scans on dark and light themes alike;
without colour (NO_COLOR, or not a terminal) it assumes light text on a dark
background, unless COLORFGBG says the background is light or --invert is
given. --qr-png saves the service's own PNG of the code instead.

With two-factor authentication already on, setup says so, names
` + "`forge auth 2fa disable`" + ` and exits 0 (the state asked for holds).

Without a terminal, or with --json, setup only starts the enrolment and
prints the secret; confirm it afterwards with --code:
  secret=$(forge auth 2fa setup --jq .secret)
  forge auth 2fa setup --code "$(oathtool --totp -b "$secret")"`,
		Example: `  forge auth 2fa setup
  forge auth 2fa setup --qr-png qr.png
  forge auth 2fa setup --code 123456`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.code, "code", "", "Confirm an enrolment already started, with this `code` from the app")
	cmdcore.PathFlag(cmd, &opts.qrPNG, "qr-png", "", "", "Save the service's QR code image to `FILE` (PNG)")
	fl.BoolVar(&opts.invert, "invert", false, "Draw the QR code for dark text on a light background")
	opts.exporter = output.AddJSONFlags(cmd, "secret", "otpauth_url", "qr_png_base64", "qr_base64")
	return cmd
}

func runSetup(ctx context.Context, opts *setupOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	if opts.code != "" && (opts.qrPNG != "" || opts.exporter.Enabled()) {
		return cmdcore.UsageErrorf("--code confirms an enrolment started earlier; it cannot be combined with --qr-png or --json")
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	ios := opts.IO
	cs := ios.ErrColorScheme()
	confirm := func(code string) error { return c.Account.ConfirmTwoFactor(ctx, code) }
	if opts.code != "" {
		if err := withCode(ctx, opts.Deps, opts.code, "--code CODE", confirm); err != nil {
			return alreadyOn(ctx, opts.Deps, c, err)
		}
		ios.ErrPrintf("%s Two-factor authentication is on; logins now ask for a code\n", cs.SuccessIcon())
		return nil
	}

	setup, err := c.Account.SetupTwoFactor(ctx)
	if err != nil {
		return alreadyOn(ctx, opts.Deps, c, err)
	}
	if opts.qrPNG != "" {
		png, err := setup.QRPNG()
		if err != nil {
			return err
		}
		// The image holds the secret: private to the user.
		if err := os.WriteFile(opts.qrPNG, png, 0o600); err != nil {
			return fmt.Errorf("saving the QR code: %w", err)
		}
		ios.ErrPrintf("%s Saved the QR code to %s\n", cs.SuccessIcon(), opts.qrPNG)
	}
	if opts.exporter.Enabled() {
		if err := opts.exporter.Write(ios, setup.RawJSON()); err != nil {
			return err
		}
		ios.ErrPrintf("Enrolment started. Confirm it with `forge auth 2fa setup --code CODE`.\n")
		return nil
	}
	if err := showSecret(opts.Deps, setup, opts.invert, opts.qrPNG != ""); err != nil {
		return err
	}
	if !ios.CanPrompt() {
		ios.ErrPrintf("Enrolment started. Add the secret to your authenticator app, then confirm with `forge auth 2fa setup --code CODE`.\n")
		return nil
	}
	if err := withCode(ctx, opts.Deps, "", "--code CODE", confirm); err != nil {
		return err
	}
	ios.ErrPrintf("%s Two-factor authentication is on; logins now ask for a code\n", cs.SuccessIcon())
	return nil
}

// alreadyOn answers a setup or confirm the service refused: a 409 while
// the account's state (GET /me/state) says two-factor authentication is
// on is the state asked for, said with the way to turn it off (exit 0);
// any other error (a 409 for no enrolment in progress) stays an error.
func alreadyOn(ctx context.Context, d cmdutil.Deps, c *client.Client, err error) error {
	if !client.HasStatus(err, http.StatusConflict) {
		return err
	}
	if st, serr := c.Account.State(ctx); serr != nil || !st.TwoFAEnabled {
		return err
	}
	d.IO.ErrPrintf("%s Two-factor authentication is already on; to turn it off: forge auth 2fa disable\n", d.IO.ErrColorScheme().WarningIcon())
	return nil
}

// showSecret prints the QR code (on a terminal) and the secret for typing
// in. Piped, it prints only `secret:` and `otpauth_url:` lines.
func showSecret(d cmdutil.Deps, setup *client.TwoFactorSetup, invert, savedPNG bool) error {
	otpURL := setup.OTPAuthURL
	ios := d.IO
	if !ios.IsStdoutTTY() {
		err := ios.Printf("secret: %s\notpauth_url: %s\n", setup.Secret, otpURL)
		return err
	}
	cs := ios.ColorScheme()
	var b iostreams.Doc
	if otpURL != "" && !savedPNG {
		b.Add("Scan this QR code with your authenticator app:\n\n")
		opts := qr.Options{Color: ios.ColorEnabled(), Invert: invert || lightBackground(d.Getenv), MaxWidth: ios.TerminalWidth()}
		code, err := qr.Styled(otpURL, opts)
		b.Add(code)
		if err != nil {
			b.Printf(cs, "%s %v; use --qr-png FILE or the secret below.\n", cs.Yellow("!"), err)
		}
		b.Add("\nOr enter this secret by hand")
	} else {
		b.Add("Enter this secret in your authenticator app")
	}
	if acct := setup.Account(); acct != "" {
		b.Printf(cs, " (account %s)", acct)
	}
	b.Printf(cs, ":\n\n    %s\n\n", cs.Bold(text.OneLine(setup.GroupedSecret())))
	err := ios.Print(b.Styled())
	return err
}

// lightBackground reads COLORFGBG ("fg;bg", set by rxvt, Konsole and
// others): background 7 or 15 is light. forge never queries the terminal.
func lightBackground(getenv func(string) string) bool {
	v := getenv("COLORFGBG")
	if v == "" {
		return false
	}
	fields := strings.Split(v, ";")
	bg, err := strconv.Atoi(fields[len(fields)-1])
	return err == nil && (bg == 7 || bg == 15)
}

type disableOptions struct {
	cmdutil.Deps
	code string
}

func newTwoFADisableCmd(f *cmdutil.Factory, runF func(context.Context, *disableOptions) error) *cobra.Command {
	opts := &disableOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runDisable)
	cmd := &cobra.Command{
		Use:   "disable",
		Short: "Turn off two-factor authentication (needs a current code)",
		Example: `  forge auth 2fa disable
  forge auth 2fa disable --code 123456`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.code, "code", "", "Current `code` from your authenticator app (also FORGE_TOTP_CODE)")
	return cmd
}

func runDisable(ctx context.Context, opts *disableOptions) error {
	code := opts.code
	if code == "" {
		code = opts.Getenv("FORGE_TOTP_CODE")
	}
	if code != "" {
		if _, err := authflow.NormalizeCode(code); err != nil {
			return &cmdcore.UsageError{Err: err}
		}
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	var already bool
	err = withCode(ctx, opts.Deps, code, "--code CODE (or set FORGE_TOTP_CODE)", func(code string) (err error) {
		already, err = c.Account.DisableTwoFactor(ctx, code)
		return err
	})
	if err != nil {
		return err
	}
	cs := opts.IO.ErrColorScheme()
	if already {
		opts.IO.ErrPrintf("%s Two-factor authentication was already off\n", cs.WarningIcon())
		return nil
	}
	opts.IO.ErrPrintf("%s Two-factor authentication is off\n", cs.SuccessIcon())
	return nil
}
