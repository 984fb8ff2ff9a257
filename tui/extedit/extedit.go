// Package extedit opens a draft (an issue body, a comment, a chat
// message) in the user's own editor (internal/editor: $VISUAL, $EDITOR,
// else nano or vi) while the terminal UI steps aside, and brings the
// edited text back — tabs, blank lines and all.
package extedit

import (
	"context"
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/internal/editor"
)

// DoneMsg is the draft as the editor left it, for the editor of Owner.
// On Err the draft is unchanged.
type DoneMsg struct {
	Owner int
	Text  string
	Err   error
}

// Open writes draft to a file only the user may read, runs the editor on
// it with the program suspended, and answers with a DoneMsg for owner.
// The file is removed afterwards.
func Open(getenv func(string) string, owner int, draft string) tea.Cmd {
	ed := editor.Name(getenv)
	f, err := os.CreateTemp("", "forge-draft-*.md")
	if err == nil {
		_, err = f.WriteString(draft)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		if f != nil {
			os.Remove(f.Name())
		}
		return done(owner, fmt.Errorf("the draft could not be written for the editor: %w", err))
	}
	path := f.Name()
	return tea.ExecProcess(editor.Command(context.Background(), ed, path), func(err error) tea.Msg {
		defer os.Remove(path)
		if err != nil {
			return DoneMsg{Owner: owner, Err: fmt.Errorf("the editor (%s) failed: %w; the draft is as it was", ed, err)}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return DoneMsg{Owner: owner, Err: fmt.Errorf("the edited draft could not be read (it is as it was): %w", err)}
		}
		return DoneMsg{Owner: owner, Text: trim(draft, string(b))}
	})
}

// trim drops the final newline editors add to the last line, unless the
// draft had one.
func trim(draft, edited string) string {
	edited = strings.ReplaceAll(edited, "\r\n", "\n")
	if !strings.HasSuffix(draft, "\n") {
		edited = strings.TrimSuffix(edited, "\n")
	}
	return edited
}

func done(owner int, err error) tea.Cmd {
	return func() tea.Msg { return DoneMsg{Owner: owner, Err: err} }
}
