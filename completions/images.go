package completions

import (
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/regclient"
	"github.com/spf13/cobra"
)

// registry is a client of the profile's registry for completion, on the
// plain transport: the commands' own (cmdutil.Factory.RegistryOver), so
// its password is pinned as theirs is; nil when none is configured.
func registry(f *cmdutil.Factory) *regclient.Client {
	c, err := f.RegistryOver(transport())
	if err != nil {
		return nil
	}
	return c
}

// imageRepos lists the registry's repositories the user may pull, those
// of their own namespace by the short name forge accepts ("app" for
// "alice/app").
func imageRepos(f *cmdutil.Factory, cmd *cobra.Command) (*regclient.Client, []string) {
	c := registry(f)
	if c == nil {
		return nil, nil
	}
	ctx, cancel := withTimeout(cmd)
	defer cancel()
	repos, err := c.Catalog(ctx)
	if err != nil {
		return c, nil
	}
	own := c.Namespace() + "/"
	for i, r := range repos {
		if ns := c.Namespace(); ns != "" && strings.HasPrefix(r, own) {
			repos[i] = strings.TrimPrefix(r, own)
		}
	}
	return c, repos
}

// ImageRepos completes the first argument with image repositories (for
// `image tags REPO`).
func ImageRepos(f *cmdutil.Factory) Func {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, noFiles
		}
		_, repos := imageRepos(f, cmd)
		return repos, noFiles
	}
}

// ImageRefs completes image references in the argument positions given
// (0-based): REPO: first, without a space after it, then REPO:TAG with
// the repository's tags once a colon is typed. Other positions complete
// file names (a push's source, a pull's destination).
func ImageRefs(f *cmdutil.Factory, positions ...int) Func {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if !containsInt(positions, len(args)) {
			return nil, cobra.ShellCompDirectiveDefault
		}
		repo, _, typedTag := strings.Cut(toComplete, ":")
		if !typedTag {
			_, repos := imageRepos(f, cmd)
			for i, r := range repos {
				repos[i] = r + ":"
			}
			return repos, noFiles | cobra.ShellCompDirectiveNoSpace
		}
		c := registry(f)
		if c == nil {
			return nil, noFiles
		}
		name, err := c.ParseRepository(repo)
		if err != nil {
			return nil, noFiles
		}
		ctx, cancel := withTimeout(cmd)
		defer cancel()
		tags, _, err := c.Tags(ctx, name)
		if err != nil {
			return nil, noFiles
		}
		out := make([]cobra.Completion, 0, len(tags))
		for _, t := range tags {
			out = append(out, repo+":"+t.Name)
		}
		return out, noFiles
	}
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
