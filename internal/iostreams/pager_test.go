package iostreams

import (
	"os/exec"
	"testing"
)

// FORGE_PAGER wins over PAGER, PAGER over the default less.
func TestPagerOrder(t *testing.T) {
	env := map[string]string{}
	s := &IOStreams{getenv: func(k string) string { return env[k] }}
	env["PAGER"] = "more"
	if p, set := s.lookupPager(); p != "more" || !set {
		t.Errorf("PAGER: %q %v", p, set)
	}
	env["FORGE_PAGER"] = "most -s"
	if p, _ := s.lookupPager(); p != "most -s" {
		t.Errorf("FORGE_PAGER: %q", p)
	}
	delete(env, "FORGE_PAGER")
	delete(env, "PAGER")
	p, set := s.lookupPager()
	if _, err := exec.LookPath("less"); err == nil && (p != "less" || set) {
		t.Errorf("default: %q %v", p, set)
	}
}
