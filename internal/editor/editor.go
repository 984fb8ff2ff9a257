// Package editor finds and starts the user's text editor, for the issue
// commands' drafts and the terminal UI's.
package editor

import (
	"context"
	"os/exec"
	"runtime"
	"strings"
)

// Name is $VISUAL, else $EDITOR, else nano when installed (the
// friendliest for someone who never chose), else vi (notepad on Windows).
// It may carry arguments ("code --wait").
func Name(getenv func(string) string) string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if e := strings.TrimSpace(getenv(v)); e != "" {
			return e
		}
	}
	if runtime.GOOS == "windows" {
		return "notepad"
	}
	if _, err := exec.LookPath("nano"); err == nil {
		return "nano"
	}
	return "vi"
}

// Command runs editor on path. The editor setting may carry arguments,
// so on Unix it goes through the shell as git does; the path is an
// argument, never part of the script.
func Command(ctx context.Context, editor, path string) *exec.Cmd {
	if runtime.GOOS == "windows" {
		args := strings.Fields(editor)
		return exec.CommandContext(ctx, args[0], append(args[1:], path)...)
	}
	return exec.CommandContext(ctx, "sh", "-c", editor+` "$@"`, editor, path)
}
