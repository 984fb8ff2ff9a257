package repo

import (
	"context"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/listing"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

var collaboratorFields = []string{"id", "login", "permission"}

func newCollaboratorCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:     "collaborator <command>",
		Aliases: []string{"collaborators"},
		Short:   "List, add and remove the people who may work on a repository",
		Example: `  forge repo collaborator list -R alice/demo
  forge repo collaborator add bob --permission read
  forge repo collaborator remove bob`,
	})
	cmd.AddCommand(newCollaboratorListCmd(f, nil), newCollaboratorAddCmd(f, nil), newCollaboratorRemoveCmd(f, nil))
	return cmd
}

type collaboratorListOptions struct {
	cmdutil.Deps
	repoFlag string
	list     listing.Flags
}

func newCollaboratorListCmd(f *cmdutil.Factory, runF func(context.Context, *collaboratorListOptions) error) *cobra.Command {
	opts := &collaboratorListOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runCollaboratorList)
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List a repository's collaborators and their permission",
		Long: `List who may work on the repository and with which permission (read,
write or admin); the owner comes first. Piped: "login<TAB>permission".`,
		Example: `  forge repo collaborator list -R alice/demo
  forge repo collaborator list --json login,permission`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	opts.list.Add(cmd, listing.DefaultLimit, "collaborators", collaboratorFields...)
	return cmd
}

func runCollaboratorList(ctx context.Context, opts *collaboratorListOptions) error {
	c, name, err := opts.list.RepoClient(ctx, opts.Deps, opts.repoFlag)
	if err != nil {
		return err
	}
	ios := opts.IO
	t := output.NewTable(ios, "LOGIN", "PERMISSION")
	t.KeepWhole("LOGIN")
	return listing.Show(ctx, listing.Tail{IO: ios, Flags: &opts.list, Table: t, In: name.String()}, c.Repos.Collaborators(ctx, name, opts.list.PerPage()), func(cb *client.Collaborator) {
		t.Add(cb.Login, output.Bold)
		t.Add(cb.Permission, permissionColor(cb.Permission))
		t.EndRow()
	})
}

func permissionColor(p string) output.Color {
	switch p {
	case "admin":
		return output.Red
	case "write":
		return output.Yellow
	}
	return output.Plain
}

var permissions = []string{"read", "write", "admin"}

type collaboratorAddOptions struct {
	cmdutil.Deps
	repoFlag   string
	user       string
	permission string
}

func newCollaboratorAddCmd(f *cmdutil.Factory, runF func(context.Context, *collaboratorAddOptions) error) *cobra.Command {
	opts := &collaboratorAddOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runCollaboratorAdd)
	cmd := &cobra.Command{
		Use:   "add USER",
		Short: "Give a user access to a repository",
		Long: `Give USER access to the repository with a permission: read (see and
clone it, open issues), write (also push, close others' issues, create
releases) or admin (also edit, delete and manage collaborators). The
default is write, as on GitHub. Adding someone already there changes their
permission. Needs admin permission on the repository.`,
		Example: `  forge repo collaborator add bob -R alice/demo
  forge repo collaborator add carol --permission read`,
		Args: cmdcore.ExactArgs(1, "the USER to add"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.user = strings.TrimPrefix(strings.TrimSpace(args[0]), "@")
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmdcore.EnumFlag(cmd, &opts.permission, "permission", "p", "write", permissions, "The `permission`")
	return cmd
}

func runCollaboratorAdd(ctx context.Context, opts *collaboratorAddOptions) error {
	perm := opts.permission
	if opts.user == "" {
		return cmdcore.UsageErrorf("missing the USER to add")
	}
	c, name, err := opts.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return err
	}
	if err := c.Repos.AddCollaborator(ctx, name, opts.user, perm); err != nil {
		return err
	}
	ios := opts.IO
	ios.ErrPrintf("%s %s may now work on %s with %s permission\n", ios.ErrColorScheme().SuccessIcon(), opts.user, name, perm)
	return nil
}

type collaboratorRemoveOptions struct {
	cmdutil.Deps
	repoFlag string
	user     string
}

func newCollaboratorRemoveCmd(f *cmdutil.Factory, runF func(context.Context, *collaboratorRemoveOptions) error) *cobra.Command {
	opts := &collaboratorRemoveOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runCollaboratorRemove)
	cmd := &cobra.Command{
		Use:     "remove USER",
		Aliases: []string{"rm"},
		Short:   "Take a user's access to a repository away",
		Long: `Take USER's access to the repository away. Needs admin permission on the
repository.

The service's specification does not list this endpoint (DELETE
/repos/OWNER/REPO/collaborators/USER, as on GitHub): a server without it
answers 404 or 405, and forge says that the service does not offer it. A
404 for a USER who is not a collaborator is told apart by listing the
collaborators.`,
		Example: `  forge repo collaborator remove bob -R alice/demo`,
		Args:    cmdcore.ExactArgs(1, "the USER to remove"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.user = strings.TrimPrefix(strings.TrimSpace(args[0]), "@")
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	return cmd
}

func runCollaboratorRemove(ctx context.Context, opts *collaboratorRemoveOptions) error {
	if opts.user == "" {
		return cmdcore.UsageErrorf("missing the USER to remove")
	}
	c, name, err := opts.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return err
	}
	err = c.Repos.RemoveCollaborator(ctx, name, opts.user)
	if err != nil {
		return cmdutil.NotOffered(err, "removing collaborators", func() (bool, error) {
			for cb, err := range c.Repos.Collaborators(ctx, name, client.ListOptions{PerPage: 100}) {
				if err != nil {
					return false, err
				}
				if strings.EqualFold(cb.Login, opts.user) {
					return true, nil
				}
			}
			return false, nil
		})
	}
	ios := opts.IO
	ios.ErrPrintf("%s %s is no longer a collaborator on %s\n", ios.ErrColorScheme().SuccessIcon(), text.OneLine(opts.user), name)
	return nil
}
