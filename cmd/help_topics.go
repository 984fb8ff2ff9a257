package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// helpTopics are pages for `forge help TOPIC` that are not commands.
var helpTopics = []struct{ name, short, long string }{
	{"environment", "Environment variables forge reads", `Environment variables override the configuration file; flags override both.

Service and credentials:
  FORGE_PROFILE        profile to use instead of the file's current_profile
                       (profile names are case-insensitive, stored lower-case)
  FORGE_BASE_URL       REST API base URL, ending in /api/v2 (a bare
                       https://HOST[:PORT] means https://HOST[:PORT]/api/v2)
  FORGE_TOKEN          REST API token (instead of the profile's stored token)
  FORGE_REGISTRY_URL   container registry address
  FORGE_USERNAME       account name for non-interactive logins and the registry
                       (CI); another user than the profile's is said on stderr
  FORGE_PASSWORD       account password for non-interactive logins and the registry (CI)
  FORGE_TOTP_CODE      two-factor code for a non-interactive login or 2fa disable
  FORGE_REPO           [HOST/]OWNER/REPO or a clone URL for repository commands
                       (instead of -R); a host selects the profile for it
  AGENT_URL            agent chat API address
  AGENT_API_KEY        agent chat API key

Which server gets a stored secret: a profile's token, agent key and registry
password go only to the origin (scheme, host, port) the profile stores for
that interface, never along a redirect to another origin. When
FORGE_BASE_URL, AGENT_URL or FORGE_REGISTRY_URL points elsewhere, forge uses
FORGE_TOKEN, AGENT_API_KEY or FORGE_USERNAME/FORGE_PASSWORD if set, else the
secret of the profile whose address has that origin, else none: it stops
with exit 4 naming the host and how to log in there.

Files:
  FORGE_CONFIG_DIR     directory of config.yaml (default $XDG_CONFIG_HOME/forge
                       or ~/.config/forge)
  XDG_CONFIG_HOME      base of the default configuration directory
  XDG_CACHE_HOME       base of forge's cache (default ~/.cache): forge tui's
                       unsent drafts and chat conversation, layer digests
                       of pushed tarballs, repositories offered by completion
  XDG_STATE_HOME       base of forge's state (default ~/.local/state): the
                       last repository forge tui opened on each service
  HOME                 home directory: default configuration, cache and state, and
                       ssh-key add's default key ~/.ssh/id_ed25519.pub

Behaviour and display:
  FORGE_DEBUG          1: trace HTTP requests to stderr, secrets masked
  FORGE_HTTP_TIMEOUT   longest wait for one REST request: seconds or a
                       duration (45, 2m); 0 for none; default 30s
  FORGE_FORCE_TTY      treat stdout as a terminal; a number sets the width
  NO_COLOR             any value: no colour
  CLICOLOR             0: no colour
  CLICOLOR_FORCE       not 0: colour even when piped
  TERM                 dumb: no colour
  COLUMNS              width when stdout is not a terminal (default 80)
  COLORFGBG            "fg;bg" as set by some terminals: a light background
                       (7 or 15) draws QR codes and markdown for it
  VISUAL, EDITOR       editor for issue bodies and forge tui's drafts (ctrl+o)
                       (default nano, else vi)
  BROWSER              program that opens web pages (browse, view --web,
                       forge tui's w)
  DISPLAY, WAYLAND_DISPLAY  neither set and no BROWSER (Linux, BSD): no
                       browser here, so browse and --web print the address

forge's HTTP connections also honour HTTPS_PROXY, HTTP_PROXY and NO_PROXY,
and SSL_CERT_FILE and SSL_CERT_DIR for the certificates to trust, as Go
programs do. git, started by repo clone and the credential helper, reads
its own environment.`},
	{"exit-codes", "Exit codes forge returns", `forge exits with:

  0    success, also when the state asked for already held (admin user
       disable of a disabled account)
  1    failure: a request failed, a resource was not found, permission
       was denied, the service refused a value (HTTP 400); run watch
       --exit-status: the run did not succeed
  2    usage error: a bad flag or argument that forge checks itself (an
       unknown filter value such as issue list --state or run list
       --status, a malformed number or URL), a local file that does not
       exist (ssh-key add, image push, --body-file), or a missing value
       that could not be asked for because stdin or stdout is not a
       terminal
  4    not authenticated (not logged in, also for auth status, auth
       logout and image logout), or the service refused the
       credentials: a rejected token, a login refused for a wrong
       password, a disabled account or a lockout after failed attempts
  130  interrupted with Ctrl-C (or SIGTERM); run watch leaves the run's
       last state on the screen

forge demo exits with the code of the step that failed, if one did.

In scripts:
  forge issue view 12 -R alice/demo >/dev/null 2>&1
  case $? in 0) echo exists;; 4) echo "log in first";; *) echo missing;; esac`},
}

// addHelpTopics adds the topics as hidden commands (`forge help TOPIC` and
// `forge TOPIC` print them) and lists them in `forge --help`, under the
// commands, as gh does: hidden, they would appear nowhere else.
func addHelpTopics(root *cobra.Command) {
	const flags = "{{if .HasAvailableLocalFlags}}"
	root.SetUsageTemplate(strings.Replace(root.UsageTemplate(), flags, "{{if not .HasParent}}{{forgeHelpTopics}}{{end}}"+flags, 1))
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

// helpTopicsSection is the "Help topics" part of `forge --help`.
func helpTopicsSection() string {
	var b strings.Builder
	b.WriteString("\n\nHelp topics (forge help TOPIC):")
	for _, t := range helpTopics {
		fmt.Fprintf(&b, "\n  %-12s %s", t.name, t.short)
	}
	return b.String()
}
