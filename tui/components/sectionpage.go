package components

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/common"
)

// SectionPage is a page of sections (a repository's issues, pulls and
// files; the account's profile, keys and two-factor setup): a header
// line, the section bar, and the active section below, switched with left
// and right. Each section loads when first shown; every section gets the
// messages meant for it, shown or not.
type SectionPage struct {
	ctx      *common.Context
	title    string
	header   func() string
	sections *Sections
	children []common.Component
	started  []bool
	width    int
	height   int
}

// NewSectionPage returns a page titled title over children; header draws
// its first line.
func NewSectionPage(ctx *common.Context, title string, header func() string, children ...common.Component) *SectionPage {
	p := &SectionPage{ctx: ctx, title: title, header: header, children: children, started: make([]bool, len(children))}
	names := make([]string, len(children))
	for i, c := range children {
		names[i] = c.Title()
	}
	p.sections = NewSections(ctx, names...)
	return p
}

// Active is the section shown.
func (p *SectionPage) Active() common.Component { return p.children[p.sections.Active] }

// Show makes section i the one shown.
func (p *SectionPage) Show(i int) tea.Cmd {
	p.sections.Active = i
	return p.start()
}

func (p *SectionPage) Init() tea.Cmd { return p.start() }

func (p *SectionPage) start() tea.Cmd {
	i := p.sections.Active
	if p.started[i] {
		// Shown again: read again, as a tab shown again is (a hidden
		// section, the checks, polls nothing).
		if r, ok := p.children[i].(common.Refresher); ok {
			return r.Refresh()
		}
		return nil
	}
	p.started[i] = true
	return p.children[i].Init()
}

// Link is the web page of what the active section has selected.
func (p *SectionPage) Link() string {
	if l, ok := p.Active().(common.Linker); ok {
		return l.Link()
	}
	return ""
}

// Refresh reloads the active section.
func (p *SectionPage) Refresh() tea.Cmd {
	if r, ok := p.Active().(common.Refresher); ok {
		return r.Refresh()
	}
	return nil
}

func (p *SectionPage) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !p.Capturing() {
			switch {
			case key.Matches(msg, p.ctx.Keys.NextSection):
				p.sections.Next()
				return p.start()
			case key.Matches(msg, p.ctx.Keys.PrevSection):
				p.sections.Prev()
				return p.start()
			}
		}
		return p.Active().Update(msg)
	case tea.MouseWheelMsg, tea.PasteMsg:
		return p.Active().Update(msg)
	case tea.MouseClickMsg:
		return p.click(msg)
	}
	var cmds []tea.Cmd
	for i, c := range p.children {
		if p.started[i] {
			cmds = append(cmds, c.Update(msg))
		}
	}
	return tea.Batch(cmds...)
}

func (p *SectionPage) SetSize(width, height int) {
	p.width, p.height = width, height
	for _, c := range p.children {
		c.SetSize(width, max(height-2, 1))
	}
	if p.Fullscreen() {
		p.Active().SetSize(width, height)
	}
}

func (p *SectionPage) View() string {
	if f, ok := p.Active().(common.Fullscreen); ok && f.Fullscreen() {
		return p.Active().View()
	}
	return common.Pad(common.Fit(p.header(), p.width)+"\n"+p.sections.View(p.width)+"\n"+p.Active().View(), p.width, p.height)
}

func (p *SectionPage) Title() string { return p.title }

func (p *SectionPage) Capturing() bool {
	c, ok := p.Active().(common.Capturer)
	return ok && c.Capturing()
}

func (p *SectionPage) CanGoBack() bool {
	b, ok := p.Active().(common.Backer)
	return ok && b.CanGoBack()
}

func (p *SectionPage) Animating() bool {
	for i, c := range p.children {
		if a, ok := c.(common.Animator); ok && p.started[i] && a.Animating() {
			return true
		}
	}
	return false
}

// Fullscreen passes on the active section's wish for the whole terminal;
// it then gets the whole area.
func (p *SectionPage) Fullscreen() bool {
	f, ok := p.Active().(common.Fullscreen)
	return ok && f.Fullscreen()
}

func (p *SectionPage) ShortHelp() []key.Binding {
	k := p.ctx.Keys
	if p.Capturing() {
		// The arrows move the cursor of the input that has the keys.
		return p.Active().ShortHelp()
	}
	return append(p.Active().ShortHelp(), common.Binding("←/→", "section", k.NextSection.Keys()...))
}

func (p *SectionPage) FullHelp() [][]key.Binding {
	k := p.ctx.Keys
	return append(p.Active().FullHelp(), []key.Binding{k.NextSection, k.PrevSection, k.Back})
}

// click: on the section bar, shows the section clicked; below it, the
// section gets the click where it draws.
func (p *SectionPage) click(msg tea.MouseClickMsg) tea.Cmd {
	if f, ok := p.Active().(common.Fullscreen); ok && f.Fullscreen() {
		return p.Active().Update(msg)
	}
	switch {
	case msg.Y == 1 && !p.Capturing():
		if i := p.sections.At(msg.X, p.width); i >= 0 {
			return p.Show(i)
		}
	case msg.Y >= 2:
		msg.Y -= 2
		return p.Active().Update(msg)
	}
	return nil
}
