package rootcmd

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// TestVersion: --version and -v print the build's description
// (build.String) and nothing else, as `forge version` does; help lists the
// flag as cobra's own, and wins over it; --version=false is no request.
func TestVersion(t *testing.T) {
	run := func(args ...string) (int, string, string) {
		ios, _, out, errOut := iostreams.Test()
		g := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
		code := Run(context.Background(), g, args, &cobra.Command{Use: "serve", RunE: func(*cobra.Command, []string) error { return nil }})
		return code, out.String(), errOut.String()
	}
	want := build.String() + "\n"
	flagLine := regexp.MustCompile(`(?m)^  -v, --version +version for forge$`)
	for _, args := range [][]string{{"--version"}, {"-v"}, {"--version=true"}} {
		if code, out, errOut := run(args...); code != 0 || out != want || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", args, code, out, errOut, want)
		}
	}
	for _, args := range [][]string{{"--help"}, {"--version", "--help"}, {"--version=false"}} {
		code, out, _ := run(args...)
		if code != 0 || !flagLine.MatchString(out) || strings.Contains(out, want) {
			t.Errorf("%v: exit %d, stdout:\n%s", args, code, out)
		}
	}
}
