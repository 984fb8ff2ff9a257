package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// helpTopics are pages for `forge help TOPIC` that are not commands.
var helpTopics = []struct{ name, short, long string }{
	{"environment", "Environment variables forge reads", `Environment variables override the configuration file; flags override both.

  FORGE_PROFILE        profile to use instead of the file's current_profile
  FORGE_BASE_URL       REST API base URL, ending in /api/v2
  FORGE_TOKEN          REST API token (instead of the profile's stored token)
  FORGE_REGISTRY_URL   container registry address
  FORGE_USERNAME       account name for non-interactive logins and the registry (CI)
  FORGE_PASSWORD       account password for non-interactive logins and the registry (CI)
  FORGE_TOTP_CODE      two-factor code for a non-interactive login
  FORGE_REPO           OWNER/REPO for repository commands (instead of -R)
  AGENT_URL            agent chat API address
  AGENT_API_KEY        agent chat API key
  FORGE_CONFIG_DIR     directory of config.yaml (default $XDG_CONFIG_HOME/forge
                       or ~/.config/forge)
  FORGE_DEBUG          1: trace HTTP requests to stderr, secrets masked
  FORGE_HTTP_TIMEOUT   longest wait for one REST request: seconds or a
                       duration (45, 2m); 0 for none; default 30s
  FORGE_FORCE_TTY      treat stdout as a terminal; a number sets the width
  NO_COLOR             any value: no colour
  CLICOLOR             0: no colour
  CLICOLOR_FORCE       not 0: colour even when piped
  EDITOR, VISUAL       editor for issue bodies`},
	{"exit-codes", "Exit codes forge returns", `forge exits with:

  0    success
  1    failure (a request failed, a resource was not found, permission denied)
  2    usage error: a bad flag or argument, or a missing value that could
       not be asked for because stdin or stdout is not a terminal
  4    not authenticated, or the service refused the credentials
  130  interrupted with Ctrl-C`},
}

func addHelpTopics(root *cobra.Command) {
	for _, t := range helpTopics {
		long := t.long
		topic := &cobra.Command{
			Use:    t.name,
			Short:  t.short,
			Long:   long,
			Hidden: true,
			Args:   cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				_, err := fmt.Fprintln(cmd.OutOrStdout(), long)
				return err
			},
		}
		topic.SetHelpFunc(func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), strings.TrimSpace(long))
		})
		root.AddCommand(topic)
	}
}
