package tui

import (
	"errors"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/internal/browser"
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

// openBrowser opens url in the user's browser, away from the terminal:
// its output would draw over the program. Where there is no browser, the
// address is shown to copy.
func openBrowser(ctx *common.Context, url string) tea.Cmd {
	c, err := browser.Command(ctx.Factory.Getenv, url)
	if errors.Is(err, browser.ErrNoBrowser) {
		return common.Status("No browser found (set $BROWSER); y copies the address: " + url)
	}
	if err != nil {
		return common.Error(err)
	}
	return func() tea.Msg {
		if err := c.Run(); err != nil {
			return common.StatusMsg{Text: "The browser did not open " + url + ": " + err.Error(), Err: true}
		}
		return common.StatusMsg{Text: "Opened " + url + " in the browser."}
	}
}
