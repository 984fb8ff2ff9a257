package frame

import (
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/tui/common"
)

// TabAt is the tab drawn at column x of the tab bar, or -1 (the logo,
// the account).
func (f *Frame) TabAt(names []string, active, x int) int {
	short := ansi.StringWidth(f.tabs(names, active, false)) > f.ctx.Width
	return common.PartAt(f.tabParts(names, active, short), x) - 1
}
