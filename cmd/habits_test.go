package cmd

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
)

// TestGhHabitsNameForgesWay: each gh flag of ghHabits, typed on its forge
// command, is a usage error naming forge's way; the table names only
// commands forge has and flags it lacks.
func TestGhHabitsNameForgesWay(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	if err := checkHabits(NewRootCmd(cmdutil.New(ios, func(string) string { return "" }))); err != nil {
		t.Fatal(err)
	}
	for _, h := range ghHabits {
		hint := h.hint
		ios, _, _, errOut := iostreams.Test()
		args := append(strings.Fields(h.flag)[1:], "1")
		code := Run(t.Context(), cmdutil.New(ios, func(string) string { return "" }), args)
		if code != cmdcore.ExitUsage || !strings.Contains(errOut.String(), hint) {
			t.Errorf("forge %s: exit %d, stderr %q; want exit 2 naming %q", strings.Join(args, " "), code, errOut, hint)
		}
	}
}
