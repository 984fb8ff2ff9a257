package tui

import (
	"bytes"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/internal/browser"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// linkKey handles y (copy the address) and w (open it in the browser)
// for a view whose item in sight has a web page; other views (and one
// with nothing selected) get the keys themselves.
func (a *App) linkKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := a.ctx.Keys
	copyKey, browse := key.Matches(msg, k.Copy), key.Matches(msg, k.Browse)
	l, ok := a.top().(common.Linker)
	if !ok || !copyKey && !browse {
		return nil, false
	}
	url := l.Link()
	switch {
	case url == "":
		return nil, false
	case copyKey:
		// What is copied is pasted into a terminal next: sanitized too.
		url = text.OneLine(url)
		return common.Copy(url, url), true
	}
	return openBrowser(a.ctx, url), true
}

// openBrowser opens url in the user's browser (internal/browser), away
// from the terminal: what the opener writes would draw over the program.
// Where there is no browser, the address is shown to copy.
func openBrowser(ctx *common.Context, url string) tea.Cmd {
	getenv := ctx.Factory.Getenv
	return func() tea.Msg {
		var out, errOut bytes.Buffer
		err := browser.Open(&iostreams.IOStreams{Out: &out, ErrOut: &errOut}, getenv, url)
		switch {
		case err != nil:
			return common.StatusMsg{Text: err.Error(), Err: true}
		case out.Len() > 0:
			// Open printed the address: there is no browser to open.
			return common.StatusMsg{Text: "No browser here (set $BROWSER); y copies the address: " + url}
		}
		return common.StatusMsg{Text: "Opened " + url + " in the browser."}
	}
}
