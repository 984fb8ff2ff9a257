package cmd

import (
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
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
password go only to the origin (scheme, host, port, exactly) the profile
stores for that interface, never along a redirect to another origin, and
never to another profile. When FORGE_BASE_URL, AGENT_URL or
FORGE_REGISTRY_URL points elsewhere, forge uses FORGE_TOKEN, AGENT_API_KEY or
FORGE_USERNAME/FORGE_PASSWORD if set, else none: it stops with exit 4 naming
the host, the profile and the profiles logged in there. --profile beats
these variables: that profile is used whole.

Files:
  FORGE_CONFIG_DIR     directory of config.yaml and aliases.yaml (default
                       $XDG_CONFIG_HOME/forge or ~/.config/forge)
  XDG_CONFIG_HOME      base of the default configuration directory
  XDG_CACHE_HOME       base of forge's cache (default ~/.cache): forge tui's
                       unsent drafts and chat conversation, layer digests
                       of pushed tarballs, repositories offered by completion
  XDG_STATE_HOME       base of forge's state (default ~/.local/state): the
                       last repository forge tui opened on each service
  XDG_DATA_HOME        base of forge serve's kept state (default
                       ~/.local/share): forge/serve, unless --data or --memory
  HOME                 home directory: default configuration, cache and state, and
                       ssh-key add's default key ~/.ssh/id_ed25519.pub
  DOCKER_CONFIG        directory of docker's config.json (default ~/.docker):
                       credentials for registries other than the profile's
                       (forge's own credential helper is never asked)

Behaviour and display:
  FORGE_DEBUG          1: trace HTTP requests to stderr, secrets masked
  FORGE_HTTP_TIMEOUT   longest wait for the service, on all three interfaces
                       (a REST request whole; an answer's headers, then
                       each wait for more of its body): seconds or a
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
  FORGE_PAGER, PAGER   program that pages long output on a terminal (issue,
                       pr, release and run view, run logs); default less
                       with LESS=FRX; cat for none. With FORGE_FORCE_TTY,
                       only FORGE_PAGER pages
  LESS                 the pager's options, kept when set (else LESS=FRX)
  BROWSER              program that opens web pages (browse, view --web,
                       forge tui's w)
  DISPLAY, WAYLAND_DISPLAY  neither set and no BROWSER (Linux, BSD): no
                       browser here, so browse and --web print the address

forge mcp serve (flags win):
  FORGE_MCP_TOOLSETS   comma list of the toolsets offered (--toolsets)
  FORGE_MCP_TOOLS      comma list of the tools offered (--tools)
  FORGE_MCP_ALLOW_WRITE  1: offer the write tools (--allow-write)
  FORGE_MCP_LOCKDOWN   1: withhold titles and bodies by users without write access (--lockdown)
  FORGE_MCP_ALLOW_REGISTRY  comma list of registry hosts the image tools may
                       reach besides the profile's (--allow-registry)
  FORGE_MCP_TOKEN      the bearer token --http requires (default: generated)

forge's HTTP connections also honour HTTPS_PROXY, HTTP_PROXY and NO_PROXY,
and SSL_CERT_FILE and SSL_CERT_DIR for the certificates to trust, as Go
programs do. git, started by repo clone and the credential helper, reads
its own environment.`},
	{"exit-codes", "Exit codes forge returns", `forge exits with:

  0    success, also when the state asked for already held (admin user
       disable of a disabled account, auth 2fa disable when it is off,
       auth 2fa setup when it is on, issue close of a closed issue and
       reopen of an open one, posting no --comment, run cancel of a run
       that ended), said on stderr
  1    failure: a request failed, a resource was not found, permission
       was denied, the service refused a value (HTTP 400); pr checks,
       run view and run watch --exit-status, and run explain: a run
       failed (failure, timed_out, cancelled too; not skipped or
       neutral)
  2    usage error: a bad flag or argument that forge checks itself (an
       unknown filter value such as issue list --state or run list
       --status, a malformed number or URL), a local file that does not
       exist (ssh-key add, image push, --body-file), or a missing value
       that could not be asked for because stdin or stdout is not a
       terminal
  4    not authenticated (not logged in, also for auth status, auth
       logout and image logout), or the service refused the
       credentials: a rejected token or agent key (401, or 403 saying
       it is invalid or expired), a login refused for a wrong password,
       a disabled account or a lockout after failed attempts, a token
       auth login --with-token was given that the service refused
  8    pr checks: no run failed, but one is still queued or running (as
       gh's pr checks); --watch waits for them to finish instead
  130  interrupted with Ctrl-C (or SIGTERM); run watch leaves the run's
       last state on the screen

Ported from gh? gh uses 2 for a cancelled command and 4 for "not logged
in"; forge uses 2 only for a usage error, 130 for Ctrl-C, and 4 also for
credentials the service refused. Both use 8 for checks still pending.

forge demo exits with the code of the step that failed, if one did.

In scripts:
  forge issue view 12 -R alice/demo >/dev/null 2>&1
  case $? in 0) echo exists;; 4) echo "log in first";; *) echo missing;; esac`},
	{"formatting", "Formatting output as JSON, with jq or with a Go template", `Commands that print data take --json, --jq and --template. Without them a
terminal gets a table or a summary, and a pipe tab-separated lines or
key:value lines, the data exact.

  --json [FIELDS]    JSON: the fields named (comma-separated, or --json
                     repeated), or every field the service sent when none
                     are named. Each command's help lists its fields.
  --jq EXPRESSION    filter the JSON with a jq expression (gojq): strings
                     print raw, as jq -r does
  --template TMPL    format the JSON with a Go template (text/template)

Template helpers, besides Go's own (index, len, printf, range, if ...):
  json VALUE            VALUE as compact JSON
  join SEP LIST         elements of LIST joined by SEP
  pluck FIELD LIST      FIELD of each object in LIST
  timeago TIME          TIME as "3 minutes ago"
  timefmt LAYOUT TIME   TIME in a Go time layout ("2006-01-02"), in the
                        zone it was sent in
  truncate N TEXT       TEXT cut to N columns, ending in "…"
  color NAME TEXT       TEXT in red, green, yellow, cyan, magenta, gray or
                        bold, when colour is on
  tablerow CELLS...     add a row to a table: aligned on a terminal,
                        tab-separated when piped
  tablerender           print the table's rows so far (the rows left are
                        printed at the end of the template)

A TIME is read as the tables read it: RFC 3339 / ISO 8601
(2026-12-01T08:30:00Z), without a zone (read as UTC), with a space for
the T, with or without fractional seconds, a date alone, or Unix seconds
or milliseconds. A value that is none of these prints nothing.

On a terminal, text from the service is made safe before a template sees
it; piped, it is the exact data.

Examples:
  forge issue list --json number,title --jq '.[] | "\(.number) \(.title)"'
  forge issue list --template '{{range .}}{{tablerow (printf "#%v" .number) .title (timeago .created_at)}}{{end}}'
  forge run list --template '{{range .}}{{.id}} {{color "green" .conclusion}}{{"\n"}}{{end}}'
  forge repo view --template '{{.full_name}} {{truncate 40 .description}}{{"\n"}}'`},
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

// strictHelp makes `forge help NAME` a usage error (exit 2) when NAME is
// neither a command nor a topic: cobra's own prints the root's usage and
// exits 0, which a script cannot tell from success. A command that parses
// no flags of its own (`serve`, which runs forge-server: package
// companion) answers `help NAME` as it answers `NAME --help`, and its
// error and exit code reach forge's main as any command's do.
func strictHelp(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	var help *cobra.Command
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			help = c
		}
	}
	if help == nil {
		return
	}
	show := help.Run
	help.Run = nil
	help.RunE = func(c *cobra.Command, args []string) error {
		cmd, rest, err := c.Root().Find(args)
		if cmd == nil || err != nil || len(rest) > 0 {
			return cmdcore.UsageErrorf("no help topic or command %q: see `forge help` for the commands and topics", strings.Join(args, " "))
		}
		if cmd.DisableFlagParsing && cmd.RunE != nil {
			return cmd.RunE(cmd, []string{"--help"})
		}
		show(c, args)
		return nil
	}
	root.SetHelpCommand(help)
}
