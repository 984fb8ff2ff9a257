package authflow

import (
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
)

// CheckNewPassword checks a new password before anything is sent: long
// enough, not only blanks, not the current one. Its errors are usage
// errors.
func CheckNewPassword(oldPW, newPW string) error {
	if n := len([]rune(newPW)); n < client.MinPasswordLength {
		return cmdcore.UsageErrorf("the new password has %d characters; it needs at least %d", n, client.MinPasswordLength)
	}
	if strings.TrimSpace(newPW) == "" {
		return cmdcore.UsageErrorf("the new password is only blanks; choose one with at least %d characters that are not all spaces", client.MinPasswordLength)
	}
	if newPW == oldPW {
		return cmdcore.UsageErrorf("the new password is the same as the current one")
	}
	return nil
}

// Changed is what PasswordChanged stored.
type Changed struct {
	// Token: the new token the service issued is in the profile.
	Token bool
	// TokenFromEnv: the service issued one, but the token in use comes
	// from the environment, which forge does not write.
	TokenFromEnv bool
	// Registry: the new password is the profile's registry password.
	Registry bool
}

// PasswordChanged stores what a password change makes so in the profile
// s names: the token the service issued in its place ("" for none), and
// the new password as the registry password where the profile keeps this
// account's.
func PasswordChanged(f *cmdutil.Factory, s *config.Settings, newPW, token string) (Changed, error) {
	var ch Changed
	fromFile := s.Sources["token"] == config.FromFile
	ch.TokenFromEnv = token != "" && !fromFile
	err := f.UpdateConfig(func(cf *config.File) error {
		p := cf.Profile(s.Profile)
		if p == nil || !fromFile {
			return nil // FORGE_TOKEN may be another account's
		}
		if token != "" {
			p.Token, ch.Token = token, true
		}
		if p.RegistryPassword != "" && p.User != "" && (p.RegistryUser == "" || p.RegistryUser == p.User) {
			p.RegistryPassword, ch.Registry = newPW, true
		}
		return nil
	})
	if err != nil {
		return Changed{}, fmt.Errorf("the password changed, but storing it in the profile failed: %w; run `forge auth login` and `forge image login`", err)
	}
	return ch, nil
}
