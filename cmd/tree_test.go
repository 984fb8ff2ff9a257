package cmd

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// TestNounNames: the table NewTree picks from names each command as the
// command names itself, so a command line finds its command built.
func TestNounNames(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := cmdutil.New(ios, func(string) string { return "" })
	for _, n := range nouns {
		if got := n.cmd(f).Name(); got != n.name {
			t.Errorf("nouns names %q the command %q", n.name, got)
		}
	}
}

// TestTreeBuiltForTheCommandLine: a command line naming a command builds
// that command alone; --version none; help, completion, an alias, a
// mistyped word or a command that reads the tree (alias, completion) the
// whole tree.
func TestTreeBuiltForTheCommandLine(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := cmdutil.New(ios, func(string) string { return "" })
	var all []string
	for _, n := range nouns {
		all = append(all, n.name)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"issue", "list"}, []string{"issue"}},
		{[]string{"--profile", "dev", "--debug", "pr", "view", "3"}, []string{"pr"}},
		{[]string{"--profile=dev", "serve", "--help"}, []string{"serve"}},
		{[]string{"--version"}, nil},
		{[]string{"-v"}, nil},
		{[]string{"--version", "--help"}, all},
		{nil, all},
		{[]string{"--help"}, all},
		{[]string{"help", "issue"}, all},
		{[]string{"__complete", "iss"}, all},
		{[]string{"isue", "list"}, all},
		{[]string{"--profile", "issue"}, all},
		{[]string{"alias", "set", "co", "pr checkout"}, all},
		{[]string{"completion", "bash"}, all},
	} {
		var got []string
		for _, cmd := range NewTree(f, c.args).Commands() {
			if !cmd.Hidden && cmd.Name() != "help" {
				got = append(got, cmd.Name())
			}
		}
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("NewTree(%q) has %v, want %v", c.args, got, want)
		}
	}
}

// TestLazyTreeAnswersAsTheWholeOne: what a command line prints is the same
// whichever tree runs it, the one built for it or the whole one.
func TestLazyTreeAnswersAsTheWholeOne(t *testing.T) {
	whole := func(f *cmdutil.Factory, _ []string) *cobra.Command { return NewRootCmd(f) }
	for _, args := range [][]string{
		{"--version"}, {"version"}, {"--version", "-h"}, {"issue", "--help"}, {"issue", "lst"}, {"--profile", "x", "profile", "list", "--help"},
		{"issue", "list", "--bogus"}, {"auth", "status", "extra", "--help"},
		{"alias", "set", "issue", "pr list"}, {"alias", "set", "x", "nothing here"},
	} {
		run := func(tree Tree) (int, string) {
			ios, _, out, errOut := iostreams.Test()
			f := cmdutil.New(ios, func(string) string { return "" })
			code := RunTree(context.Background(), f, args, tree)
			return code, out.String() + "\n--stderr--\n" + errOut.String()
		}
		lazyCode, lazy := run(NewTree)
		wholeCode, want := run(whole)
		if lazyCode != wholeCode || lazy != want {
			t.Errorf("forge %s: built for the line, exit %d:\n%s\nthe whole tree, exit %d:\n%s", strings.Join(args, " "), lazyCode, lazy, wholeCode, want)
		}
	}
}
