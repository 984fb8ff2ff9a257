package cmd

import (
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

// ghHabits are flags of gh's that a user types from habit on the forge
// command of the same name, where forge does the same thing another way:
// the unknown-flag error names that way instead of only refusing.
//
// A list, not a map: a map literal would be built by an init() on every
// start of forge.
var ghHabits = []struct{ flag, hint string }{
	{"forge run view --log", "forge prints a run's logs with `forge run logs ID` (every job) or `forge run view ID --log-failed` (the jobs that failed)"},
	{"forge run view --job", "forge prints one job's log with `forge job logs JOB_ID`; `forge run view ID` lists the run's jobs and their IDs"},
	{"forge run rerun --failed", "forge reruns the whole run with `forge run rerun ID`: the service cannot rerun the failed jobs alone"},
	{"forge run rerun --job", "forge reruns the whole run with `forge run rerun ID`: the service cannot rerun one job"},
	{"forge issue list --web", "forge opens the repository's page with `forge browse`, and one issue's with `forge issue view NUMBER --web`"},
	{"forge pr list --web", "forge opens the repository's page with `forge browse`, and one pull request's with `forge pr view NUMBER --web`"},
	{"forge repo list --web", "forge opens a repository's page with `forge browse -R OWNER/REPO`"},
	{"forge release list --web", "forge opens the repository's page with `forge browse`; `forge release view TAG --json html_url` gives a release's address"},
}

// habitError is the usage error for err (cobra's "unknown flag: --log"),
// naming forge's way when the flag is one of ghHabits; nil otherwise.
func habitError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: ")
	if !ok {
		return nil
	}
	for _, h := range ghHabits {
		if h.flag == cmd.CommandPath()+" "+name {
			return cmdcore.UsageErrorf("%s (a gh flag): %s", msg, h.hint)
		}
	}
	return nil
}

// checkHabits fails when ghHabits names a command forge no longer has, or
// a flag forge has since taken (its hint would never show).
func checkHabits(root *cobra.Command) error {
	for _, h := range ghHabits {
		path, flag, _ := strings.Cut(h.flag, " --")
		c, rest, err := root.Find(strings.Fields(path)[1:])
		if err != nil || len(rest) > 0 || c.CommandPath() != path {
			return fmt.Errorf("ghHabits names %q, which is not a forge command", path)
		}
		if c.Flags().Lookup(flag) != nil {
			return fmt.Errorf("ghHabits names --%s of %s, which forge has", flag, path)
		}
	}
	return nil
}
