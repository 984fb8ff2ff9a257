package repo

import (
	"testing"

	"github.com/forgehq/forge/cmd/internal/seamtest"
)

// repo create reads its name and flags into the options and nothing
// else happens: no request, no clone.
func TestCreateFlagsIntoOptions(t *testing.T) {
	o, err := seamtest.Capture(t, newCreateCmd, "demo", "--private", "--init", "-c", "-d", "A demo app")
	if err != nil || o == nil {
		t.Fatalf("options %v, error %v", o, err)
	}
	if o.name != "demo" || !o.private || !o.init || !o.clone || o.description != "A demo app" {
		t.Fatalf("options %+v", o)
	}
}

// repo list's --visibility is checked while parsing, in any case.
func TestListVisibilityIntoOptions(t *testing.T) {
	o, err := seamtest.Capture(t, newListCmd, "--visibility", "Private", "-L", "7")
	if err != nil || o == nil || o.visibility != "private" || o.list.Limit != 7 {
		t.Fatalf("options %+v, error %v", o, err)
	}
	if o, err := seamtest.Capture(t, newListCmd, "--visibility", "secret"); err == nil || o != nil {
		t.Fatalf("--visibility secret: options %+v, error %v", o, err)
	}
}
