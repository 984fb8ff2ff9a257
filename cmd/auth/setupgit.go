package auth

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/gitremote"
	"github.com/spf13/cobra"
)

type setupGitOptions struct{ cmdutil.Deps }

func newSetupGitCmd(f *cmdutil.Factory, runF func(context.Context, *setupGitOptions) error) *cobra.Command {
	opts := &setupGitOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runSetupGit)
	return &cobra.Command{
		Use:   "setup-git",
		Short: "Make git use forge's token for the profile's host",
		Long: `Register forge as git's credential helper for the profile's host, in your
global git configuration (~/.gitconfig):

  credential.<origin>.helper = ""          (the helpers before are reset)
  credential.<origin>.helper = !/path/to/forge --profile NAME auth git-credential

so git clone, fetch and push over HTTPS (or HTTP) to that host use the
profile's user name and token, without asking. The helper names this forge
by its absolute path, so it works where forge is not on PATH (an IDE, a
cron job); run setup-git again after moving forge. Running it again changes
nothing; run it once per host. The helper is pinned to the profile it was
set up for (!/path/to/forge --profile NAME auth git-credential): git acts
as that account on that host, whichever profile is current later.`,
		Example: `  forge auth setup-git
  forge repo clone alice/demo && cd demo && git push`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
}

func runSetupGit(ctx context.Context, opts *setupGitOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	origin := config.Origin(s.BaseURL)
	if origin == "" {
		return cmdcore.AuthErrorf("no service configured for profile %q: run `forge auth login --base-url https://HOST/api/v2` first", s.Profile)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return errors.New("git is not installed (or not on PATH): install git, then run forge auth setup-git again")
	}
	// Pinned, so that git acts as this profile's account on this host and
	// never as another profile's later made current.
	helper := "!" + gitremote.HelperCommand(s.Profile)
	key := "credential." + origin + ".helper"
	for _, args := range [][]string{
		{"config", "--global", "--replace-all", key, ""},
		{"config", "--global", "--add", key, helper},
	} {
		cmd := exec.CommandContext(ctx, git, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(args[:3], " "), err, strings.TrimSpace(string(out)))
		}
	}
	ios := opts.IO
	ios.ErrPrintf("%s git now asks forge for credentials for %s (%s = %s)\n", ios.ErrColorScheme().SuccessIcon(), origin, key, helper)
	if s.Token == "" {
		ios.ErrPrintf("%s profile %q is not logged in yet: %s\n", ios.ErrColorScheme().WarningIcon(), s.Profile, cmdutil.LoginHint(s))
	}
	return nil
}
