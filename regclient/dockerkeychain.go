package regclient

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/docker/cli/cli/config"
	"github.com/google/go-containerregistry/pkg/authn"
)

// dockerKeychain is go-containerregistry's keychain of the docker
// configuration, short of one thing: forge never asks itself. A registry
// whose credential helper (credHelpers, else credsStore) is forge — named
// "forge", or a docker-credential-NAME on the PATH that is this very
// executable — gets no credentials: forge's helper serves forge's
// accounts, and a command of forge acts as its own profile, never as
// whichever account the helper would find.
type dockerKeychain struct{}

func (dockerKeychain) Resolve(target authn.Resource) (authn.Authenticator, error) {
	if isForgeHelper(helperFor(target.RegistryStr())) {
		return authn.Anonymous, nil
	}
	return authn.DefaultKeychain.Resolve(target)
}

// helperFor is the credential helper the docker configuration names for
// a registry, "" for none (or no readable configuration: the default
// keychain then decides, as without forge).
func helperFor(registry string) string {
	cf, err := config.Load(os.Getenv("DOCKER_CONFIG"))
	if err != nil || cf == nil {
		return ""
	}
	if h := cf.CredentialHelpers[registry]; h != "" {
		return h
	}
	return cf.CredentialsStore
}

// isForgeHelper reports whether the helper docker-credential-NAME is
// forge: its documented name, or a link to this executable.
func isForgeHelper(name string) bool {
	if name == "" {
		return false
	}
	if name == "forge" {
		return true
	}
	helper, err := exec.LookPath("docker-credential-" + name)
	if err != nil {
		return false
	}
	self, err := os.Executable()
	if err != nil {
		return false
	}
	return sameFile(helper, self)
}

func sameFile(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return false
	}
	ia, err1 := os.Stat(ra)
	ib, err2 := os.Stat(rb)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}
