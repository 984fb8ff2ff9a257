package repo

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/gitremote"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

type cloneOptions struct {
	cmdutil.Deps
	repo    string
	dir     string
	ssh     bool
	gitArgs []string
}

func newCloneCmd(f *cmdutil.Factory, runF func(context.Context, *cloneOptions) error) *cobra.Command {
	opts := &cloneOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runClone)
	cmd := &cobra.Command{
		Use:   "clone OWNER/REPO [DIR] [-- GITFLAGS...]",
		Short: "Clone a repository with git",
		Long: `Run ` + "`git clone`" + ` on the repository's HTTPS clone address (its
ssh_url with --ssh) into DIR (default: the repository's name). A bare NAME
is your own repository. Flags after "--" go to git clone.

Over HTTPS forge hands git your forge token for this one clone, through
forge's own credential helper (forge auth git-credential) given on git's
command line in place of git's helpers, for the service's own host only:
the token never appears in arguments, the environment or the clone's
configuration, and no helper of yours is asked to store it. For later
fetches and pushes, run ` + "`forge auth setup-git`" + ` once.`,
		Example: `  forge repo clone alice/demo
  forge repo clone alice/demo work/demo -- --depth 1
  forge repo clone demo --ssh`,
		ValidArgsFunction: completions.RepoArg(f),
		Args: func(cmd *cobra.Command, args []string) error {
			n := len(args)
			if dash := cmd.ArgsLenAtDash(); dash >= 0 {
				n = dash
			}
			if n == 0 {
				return cmdcore.UsageErrorf("missing the OWNER/REPO to clone; see `%s --help`", cmd.CommandPath())
			}
			if n > 2 {
				return cmdcore.UsageErrorf("unexpected argument %q; git flags go after \"--\", as in `forge repo clone OWNER/REPO -- --depth 1`", args[2])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			n := len(args)
			if dash := cmd.ArgsLenAtDash(); dash >= 0 {
				n, opts.gitArgs = dash, args[dash:]
			}
			opts.repo = args[0]
			if n == 2 {
				opts.dir = args[1]
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.ssh, "ssh", false, "Clone over SSH (the repository's ssh_url)")
	return cmd
}

func runClone(ctx context.Context, opts *cloneOptions) error {
	name, err := parseRepoArg(ctx, opts.Deps, opts.repo)
	if err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	r, err := c.Repos.Get(ctx, name)
	if err != nil {
		return err
	}
	if _, err := exec.LookPath("git"); err != nil {
		return errors.New("git is not installed: install git (https://git-scm.com) to clone")
	}
	remote := r.CloneURL
	if opts.ssh {
		remote = r.SSHURL
	}
	if remote == "" {
		return fmt.Errorf("the service gave no clone address for %s", name)
	}
	g, err := opts.Git()
	if err != nil {
		return err
	}
	if opts.ssh {
		g.Origin = "" // ssh asks no credential helper
	}
	ios := opts.IO
	// The clone uses forge's token for this one git process; fetch and
	// push later ask git's own credential helpers, which may know
	// nothing: say so after the clone (unless git was told --quiet).
	var hint iostreams.Styled
	if u, err := url.Parse(remote); err == nil && !opts.ssh && sameOrigin(remote, c.BaseURL()) && !quiet(opts.gitArgs) &&
		!gitremote.UsesForge(ctx, u.Scheme+"://"+u.Host) {
		hint = ios.ErrColorScheme().Sprintf("%s git fetch and push in the clone will ask for a password: run `forge auth setup-git` once to let git use forge's login for %s\n", ios.ErrColorScheme().WarningIcon(), u.Host)
	}
	git := g.Command(ctx, opts.cloneArgs(remote)...)
	git.Stdin, git.Stdout, git.Stderr = ios.In, ios.Out, ios.ErrOut
	if err := git.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("git clone %s failed (exit status %d)", remote, ee.ExitCode())
		}
		return fmt.Errorf("running git: %v", err)
	}
	ios.ErrPrint(hint)
	return nil
}

// quiet reports whether git was given --quiet (or -q).
func quiet(gitArgs []string) bool {
	for _, a := range gitArgs {
		if a == "--quiet" || a == "-q" {
			return true
		}
	}
	return false
}

// cloneArgs are git's arguments: clone, the user's git flags, the
// address and the directory.
func (opts *cloneOptions) cloneArgs(remote string) []string {
	args := append([]string{"clone"}, opts.gitArgs...)
	args = append(args, "--", remote)
	if opts.dir != "" {
		args = append(args, opts.dir)
	}
	return args
}

// sameOrigin reports whether a clone address is on the REST API's scheme
// and host, the only place forge's token may go.
func sameOrigin(remote, base string) bool {
	a, err1 := url.Parse(remote)
	b, err2 := url.Parse(base)
	if err1 != nil || err2 != nil {
		return false
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}
