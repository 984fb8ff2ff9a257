package pr

import (
	"testing"

	"github.com/forgehq/forge/cmd/internal/seamtest"
)

// pr list reads its state (any case) and limit into its options; an
// unknown state stops at parsing, before runF.
func TestListFlagsIntoOptions(t *testing.T) {
	o, err := seamtest.Capture(t, newListCmd, "-R", "alice/demo", "--state", "Merged", "-L", "3")
	if err != nil || o == nil || o.repoFlag != "alice/demo" || o.state != "merged" || o.list.Limit != 3 {
		t.Fatalf("options %+v, error %v", o, err)
	}
	if o, err := seamtest.Capture(t, newListCmd, "--state", "draft"); err == nil || o != nil {
		t.Fatalf("--state draft: options %+v, error %v", o, err)
	}
}

// checkout takes the pull request's web address: its number and, as -R,
// its repository.
func TestCheckoutURLIntoOptions(t *testing.T) {
	o, err := seamtest.Capture(t, newCheckoutCmd, "http://forge.example.com/alice/demo/pull/3")
	if err != nil || o == nil || o.number != 3 || o.repoFlag != "forge.example.com/alice/demo" {
		t.Fatalf("options %+v, error %v", o, err)
	}
}
