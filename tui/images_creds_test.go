package tui

import (
	"testing"

	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestImagesRetryReadsTheRegistryLogin: the Images tab says it is not
// logged in to the registry; after another shell's `forge image login`
// (the credentials stored in the profile), r uses them.
func TestImagesRetryReadsTheRegistryLogin(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	tuitest.Push(t, srv, "alice", "alice/app:1.0", tuitest.Image(t, "hello", "linux", "amd64"))
	env, _ := loggedInProfile(t, srv)
	h := startEnv(t, srv, env, 80, 24, Options{Tab: tabImages})
	h.wait("not logged in to the registry", "r retries")

	// Another shell: forge image login stores the registry's credentials.
	err := tuitest.Factory(env).UpdateConfig(func(cf *config.File) error {
		p := cf.Profile("default")
		p.RegistryUser, p.RegistryPassword = "alice", refserver.DemoPassword
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h.keys("r")
	h.wait("alice/app", "1 repository")
	h.gone("not logged in")
}
