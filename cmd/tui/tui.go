// Package tui implements `forge tui`: the full-screen terminal UI of
// package tui, started with the profile, the repository and the colour
// settings of the command line.
package tui

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/tui"
	"github.com/forgehq/forge/tui/common"
	"github.com/spf13/cobra"
)

type options struct {
	cmdutil.Deps
	// screenFactory is the Factory of the screens for a profile (see
	// screenFactory): package tui builds its clients from it.
	screenFactory func(profile string, notes io.Writer, debugLog *os.File) *cmdutil.Factory
	repo          string
	tab           string
	printConfig   bool
}

// tabs names the tabs --tab accepts, in order.
var tabs = []string{"repos", "issues", "ci", "images", "chat", "account"}

// NewCmd returns `forge tui`.
func NewCmd(f *cmdutil.Factory) *cobra.Command { return newTUICmd(f, nil) }

func newTUICmd(f *cmdutil.Factory, runF func(context.Context, *options) error) *cobra.Command {
	opts := &options{Deps: f.Deps(), screenFactory: func(profile string, notes io.Writer, debugLog *os.File) *cmdutil.Factory {
		return screenFactory(f, profile, notes, debugLog)
	}}
	runF = cmdcore.Seam(runF, run)
	cmd := &cobra.Command{
		Use:   "tui",
		Short: "Browse and work with repos, issues, CI, images, chat and your account in one screen",
		Long: `Open forge's terminal UI: one full-screen program for everything the
commands do.

  1 Repos    your repositories (filter as you type with /); enter opens one:
             its issues, pull requests, releases, commits, files, collaborators;
             o opens any repository you may see by OWNER/NAME. A pull request
             shows its description, its checks (the runs of its head commit)
             and its diff; a commit its changed files and diff (n and N go from
             file to file; / searches a diff, as it does an issue and a log)
  2 Issues   the current repository's issues: open, closed or all (s); enter
             shows one rendered, c comments, x closes (after y), o reopens,
             Y copies its last code block, n opens one; close and reopen are
             offered to the issue's author and to those with write access
  3 CI       the current repository's workflow runs, live (/fail finds the
             failed ones, and so does f); enter shows a run's jobs, the cursor
             on the first failed one, x cancels it (asks first), R runs it
             again; a job's log follows new lines, / searches it, n and N go
             to the matches (from the page in view once it moved, as in
             less), Y copies the lines in view; a hidden tab polls nothing
  4 Images   the registry's repositories, their tags and manifests; d deletes
  5 Chat     the agent, replies streamed as they arrive; /reset, /usage,
             /model, /with, /context and /exit as in forge chat; outside the
             input, y copies the last reply and Y its last code block
  6 Account  your profile, SSH keys (a adds from a file, d deletes) and
             two-factor setup with the QR code drawn in the view

On a run, a job's log, an issue, a pull request, a commit or a file, a asks the
agent: the Chat tab opens with it attached to your next message (redacted and
cut to the budget as with forge chat --with; a pull request attaches its head
commit).

y copies the address (html_url) of what is selected or shown — a repository, an
issue, a pull request, a release, a commit, a run, a job — to the clipboard
through the terminal (OSC 52, which works over ssh), and w opens it in the
browser: $BROWSER (a command; the address is its last argument), else
xdg-open or open. Where there is none, the address is shown to copy.

ctrl+o opens the text being written (a comment, a new issue's description, a
chat message) in $VISUAL or $EDITOR (else nano, else vi); forge steps aside
until the editor exits and takes the text back, tabs and all. ctrl+z suspends
forge to the shell; fg brings it back.

The keys every view shares, with the name tui.keys rebinds them by (? lists
every key of the view in sight, its own ones too):

  ↑/k         up (up)
  ↓/j         down (down)
  pgup        page up (page-up)
  pgdn/space  page down (page-down)
  g/home      first (top)
  G/end       last (bottom)
  ←/h         scroll left (left)
  →/l         scroll right (right)
  enter       open (open)
  esc         back (back)
  /           filter (filter)
  r           refresh (refresh)
  a           ask the agent (ask)
  ctrl+o      edit in $EDITOR (edit)
  y           copy the link (copy)
  w           open in the web browser (browse)
  ctrl+z      suspend (fg comes back) (suspend)
  tab         next tab (next-tab)
  shift+tab   previous tab (prev-tab)
  →/l         next section (next-section)
  ←/h         previous section (prev-section)
  ?           help (help)
  P           profiles (profiles)
  L           log in again (login)
  q           quit (quit)
  ctrl+c      stop a reply, or quit (force-quit)
  1-6         go to tab

P switches profiles (for the session, or u to make one current); q or Ctrl-C
quits. The mouse wheel scrolls; a click selects a tab, a section or a row,
and a second click on the row opens it (with Shift held, the terminal selects
text as usual). On the Account tab's profile, e edits it (name, email,
location, website, description) and p changes the password, as forge account
edit and forge account password do: the token the service issues is stored in
the profile and used at once.

Keys and colours are yours: the tui section of config.yaml rebinds the keys
every view shares, picks a theme (auto, dark, light or high-contrast; NO_COLOR
still turns colour off) and saves filters on a key per list (repos, issues,
ci, images; a view's own keys come first). A key given to two actions, or a
filter saved on an action's key, is refused, naming both: one of them would
never work. forge tui --print-config prints the settings in effect, every
action with its keys, ready to paste and edit:

  tui:
    theme: high-contrast
    keys:
      browse: ["w", "O"]
    filters:
      ci: {"f": "fail", "S": "success"}

While a text input has the focus (drawn with a cursor; without it, dim) keys
are text: the footer lists only the keys that work there. In a comment or an
issue's description tab types a tab (pasted tabs stay; shift+tab goes to the
title); in the chat input tab completes a /command or a model name, else shows
the next tab. The Chat tab's input takes the focus whenever the tab is shown;
an issue with a kept comment draft shows it, and c continues it.

When the service refuses the token (it was revoked, the server restarted), a
login form opens: the password, then the two-factor code if the account has
it on (press enter first: keys typed as it appears stay out of the password).
The new token is stored in the profile as forge auth login stores it; a
failed login leaves the stored token alone. L opens the form again. r first
reads the configuration again, so a token another shell stored is used.

The current repository is -R, else FORGE_REPO, else the one the git remotes of
the current directory point at, else the last one opened on the same service,
remembered in $XDG_STATE_HOME/forge/tui.json (~/.local/state/forge/tui.json;
mode 0600). Colour
follows NO_COLOR and CLICOLOR like every forge command; with --debug the HTTP
trace goes to a file (its path is printed at exit), not to the screen.

Nothing typed is lost: Ctrl-C stops a streaming chat reply and leaves an
editor keeping its draft; quitting with a draft or a chat conversation asks
first. Drafts and the chat conversation are kept, as they change, in files
only you may read under $XDG_CACHE_HOME/forge/tui (else ~/.cache/forge/tui),
one place per account and service, and come back on the next launch as that
account (another account on the same profile starts clean). SIGTERM, SIGHUP (the terminal closed) and
SIGINT end forge tui at once, the terminal restored, exit status 130.`,
		Example: `  forge tui
  forge tui -R alice/webapp --tab ci
  forge tui --print-config
  forge --profile dev tui`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repo)
	cmd.Flags().StringVar(&opts.tab, "tab", "repos", "Start on this `tab`: "+strings.Join(tabs, ", "))
	cmd.Flags().BoolVar(&opts.printConfig, "print-config", false, "Print the tui settings in effect (theme, keys, saved filters) as the config file takes them, and exit")
	cmd.RegisterFlagCompletionFunc("tab", cobra.FixedCompletions(tabs, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func run(ctx context.Context, opts *options) error {
	ios := opts.IO
	settings, err := readSettings(opts.Deps)
	if err != nil {
		return err
	}
	if opts.printConfig {
		km := common.NewKeyMap()
		settings.Bind(km)
		return ios.Print(iostreams.Lines(settings.YAML(km)))
	}
	if !ios.IsStdinTTY() || !ios.IsStdoutTTY() {
		return cmdcore.UsageErrorf("forge tui needs a terminal on stdin and stdout; in scripts use the commands (forge issue list, forge run view, ...)")
	}
	tab := -1
	for i, t := range tabs {
		if strings.EqualFold(opts.tab, t) {
			tab = i
		}
	}
	if tab < 0 {
		return cmdcore.UsageErrorf("--tab %q: choose one of %s", opts.tab, strings.Join(tabs, ", "))
	}
	// Bad settings (an unknown --profile) fail before the screen changes.
	if _, err := opts.Settings(); err != nil {
		return err
	}
	var repo client.RepoName
	if opts.repo != "" || opts.Getenv("FORGE_REPO") != "" {
		r, err := opts.BaseRepo(ctx, opts.repo)
		if err != nil {
			return err
		}
		repo = r
	}
	notes := &noteWriter{}
	debugLog, closeLog, err := openDebugLog(opts.Debug())
	if err != nil {
		return err
	}
	defer closeLog()
	factory := func(profile string) *cmdutil.Factory { return opts.screenFactory(profile, notes, debugLog) }
	tf := factory(opts.ProfileChoice()) // -R HOST/... may have chosen the profile
	err = tui.Run(ctx, tui.Options{
		Factory:    tf,
		NewFactory: factory,
		Repo:       repo,
		DetectRepo: func(ctx context.Context) (client.RepoName, error) { return tf.BaseRepo(ctx, "") },
		Color:      ios.ColorEnabled(),
		Tab:        tab,
		Notes:      notes,
		Settings:   settings,
	})
	if debugLog != nil {
		ios.ErrPrintf("forge: the HTTP trace is in %s\n", debugLog.Name())
	}
	return err
}

// readSettings reads the tui section of the configuration file; a bad
// one is an error naming the file and the choices, before the screen
// changes.
func readSettings(d cmdutil.Deps) (*common.Settings, error) {
	cf, err := d.ConfigFile()
	if err != nil {
		return nil, err
	}
	s, err := common.ReadSettings(cf)
	if err != nil {
		path, _ := d.ConfigPath()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// screenFactory is a Factory for the TUI: the same environment and flags,
// the profile given, and no writes to the terminal behind the program's
// back — the clients' notices go to the status line, the --debug trace to
// its file.
func screenFactory(f *cmdutil.Factory, profile string, notes io.Writer, debugLog *os.File) *cmdutil.Factory {
	streams := *f.IOStreams
	streams.ErrOut = notes
	if debugLog != nil {
		// The trace would flood the status line: the notices go with it.
		streams.ErrOut = debugLog
	}
	nf := cmdutil.New(&streams, f.Getenv)
	nf.ProfileFlag = profile
	nf.DebugFlag = f.DebugFlag
	return nf
}

// openDebugLog opens the file the --debug trace goes to, in the temporary
// directory, readable by the user only (the trace masks secrets, but it is
// still the user's traffic); none without --debug.
func openDebugLog(debug bool) (*os.File, func(), error) {
	if !debug {
		return nil, func() {}, nil
	}
	fh, err := os.CreateTemp("", "forge-tui-*.log")
	if err != nil {
		return nil, nil, fmt.Errorf("creating the --debug log: %w", err)
	}
	if err := fh.Chmod(0o600); err != nil {
		fh.Close()
		return nil, nil, err
	}
	return fh, func() { fh.Close() }, nil
}

// noteWriter passes what the clients would print on stderr (a retry
// notice, a warning) to the program's status line, a line at a time.
type noteWriter struct {
	mu   sync.Mutex
	send func(tea.Msg)
	buf  []byte
}

// Write collects text and sends each complete line.
func (w *noteWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSpace(string(w.buf[:i]))
		w.buf = w.buf[i+1:]
		if line != "" && w.send != nil {
			go w.send(tui.Notice(line))
		}
	}
	return len(p), nil
}

// SetSender is given the program's Send once it runs.
func (w *noteWriter) SetSender(send func(tea.Msg)) {
	w.mu.Lock()
	w.send = send
	w.mu.Unlock()
}
