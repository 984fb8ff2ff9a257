package tui

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/atomicfile"
	"github.com/forgehq/forge/tui/common"
)

// The TUI remembers the last repository opened, per service, between
// launches: in $XDG_STATE_HOME/forge/tui.json (else
// ~/.local/state/forge/tui.json), mode 0600 — a repository's name says
// what the user works on. It is the current repository at start when
// neither -R, FORGE_REPO nor the git remotes of the directory name one.

// stateFile is the file's name under the state directory.
const stateFile = "tui.json"

// state is the file's content.
type state struct {
	// Repos maps a service's origin (https://HOST) to OWNER/NAME.
	Repos map[string]string `json:"repos"`
}

// statePath is where the state is kept; "" without a home.
func statePath(getenv func(string) string) string {
	dir := getenv("XDG_STATE_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "forge", stateFile)
}

// readState reads the file; a missing or unreadable one is an empty state
// (it only saves typing).
func readState(path string) state {
	var s state
	if b, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(b, &s)
	}
	if s.Repos == nil {
		s.Repos = map[string]string{}
	}
	return s
}

// writeState writes the file whole: a temporary file, then a rename, so a
// crash never leaves half of it.
func writeState(path string, s state) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'))
}

// origin is the service of the context's profile, the key of its entry.
func origin(ctx *common.Context) string {
	s, err := ctx.Settings()
	if err != nil {
		return ""
	}
	return config.Origin(s.BaseURL)
}

// rememberRepo records repo as the last one opened on the context's
// service, off the UI goroutine.
func rememberRepo(ctx *common.Context, repo client.RepoName) tea.Cmd {
	path, svc := statePath(ctx.Factory.Getenv), origin(ctx)
	if path == "" || svc == "" {
		return nil
	}
	return func() tea.Msg {
		s := readState(path)
		s.Repos[svc] = repo.String()
		if err := writeState(path, s); err != nil && !errors.Is(err, fs.ErrPermission) {
			return common.StatusMsg{Text: "The last repository was not remembered: " + err.Error(), Err: true}
		}
		return nil
	}
}

// lastRepo returns a command that finds the repository last opened on
// the context's service; nil when there is no state to read.
func lastRepo(ctx *common.Context) func() (client.RepoName, bool) {
	path, svc := statePath(ctx.Factory.Getenv), origin(ctx)
	return func() (client.RepoName, bool) {
		if path == "" || svc == "" {
			return client.RepoName{}, false
		}
		r, err := client.ParseRepoName(readState(path).Repos[svc])
		return r, err == nil
	}
}
