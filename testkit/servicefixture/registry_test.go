package servicefixture_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

// registryAgainst is against with the registry's credentials set and
// alice/app holding n tags (v01 ...).
func registryAgainst(t *testing.T, o servicefixture.Options, n int) (*servicefixture.Server, *clitest.Harness, []string) {
	s, h := against(t, o)
	h.Env["FORGE_USERNAME"], h.Env["FORGE_PASSWORD"] = servicefixture.Login, servicefixture.Password
	var tags []string
	for i := 1; i <= n; i++ {
		tags = append(tags, fmt.Sprintf("v%02d", i))
	}
	s.Push(t, "alice/app", tags...)
	return s, h, tags
}

// names reads the "name" of each object of a JSON array.
func names(t *testing.T, out string) []string {
	var recs []struct{ Name string }
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	var n []string
	for _, r := range recs {
		n = append(n, r.Name)
	}
	return n
}

// TestRegistryTagsPagedByLink: a registry whose /api/tags pages (5 a page,
// Link rel="next"): image tags lists every tag, image copy --all-tags
// copies every one; a link to another origin is not followed, and forge
// says so rather than list a part.
func TestRegistryTagsPagedByLink(t *testing.T) {
	_, h, tags := registryAgainst(t, servicefixture.Options{Registry: servicefixture.RegistryLinked}, 13)
	r := h.Run(clitest.Run{}, "image", "tags", "alice/app")
	if r.Code != 0 || lines(r.Out) != 13 {
		t.Errorf("image tags: exit %d, %d rows, want 13\n%s", r.Code, lines(r.Out), r.Output())
	}
	r = h.Run(clitest.Run{}, "image", "tags", "alice/app", "--json", "name")
	if got := names(t, r.Out); strings.Join(got, " ") != strings.Join(tags, " ") {
		t.Errorf("image tags --json name: %v", got)
	}
	r = h.Run(clitest.Run{}, "image", "copy", "--all-tags", "alice/app", "alice/copy")
	if r.Code != 0 || lines(r.Out) != 13 {
		t.Errorf("image copy --all-tags: exit %d, %d copied, want 13\n%s", r.Code, lines(r.Out), r.Output())
	}

	_, h, _ = registryAgainst(t, servicefixture.Options{Registry: servicefixture.RegistryLinkedElsewhere}, 13)
	r = h.Run(clitest.Run{}, "image", "tags", "alice/app")
	if r.Code == 0 || !strings.Contains(r.Err, "another origin") {
		t.Errorf("a next page on another origin: exit %d\n%s", r.Code, r.Output())
	}
}

// TestRegistryListsOfStrings: listings whose entries are plain strings:
// --json name gives the names (it printed []).
func TestRegistryListsOfStrings(t *testing.T) {
	s, h, tags := registryAgainst(t, servicefixture.Options{Registry: servicefixture.RegistryStrings}, 3)
	s.Push(t, "alice/other", "latest")
	r := h.Run(clitest.Run{}, "image", "tags", "alice/app", "--json", "name,digest")
	if got := names(t, r.Out); r.Code != 0 || strings.Join(got, " ") != strings.Join(tags, " ") || strings.Count(r.Out, `"digest": "sha256:`) != 3 {
		t.Errorf("image tags --json name,digest: exit %d\n%s", r.Code, r.Output())
	}
	r = h.Run(clitest.Run{}, "image", "list", "--all", "--json", "name")
	if got := names(t, r.Out); r.Code != 0 || !slices.Equal(slices.Sorted(slices.Values(got)), []string{"alice/app", "alice/other"}) {
		t.Errorf("image list --all --json name: exit %d\n%s", r.Code, r.Output())
	}
	r = h.Run(clitest.Run{}, "image", "list", "--all")
	if r.Code != 0 || !strings.Contains(r.Out, "alice/app") {
		t.Errorf("image list --all: exit %d\n%s", r.Code, r.Output())
	}
}
