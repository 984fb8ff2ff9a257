package frame

import "github.com/forgehq/forge/tui/common"

// TabAt is the tab drawn at column x of the tab bar, or -1 (the logo,
// the account).
func (f *Frame) TabAt(names []string, active, x int) int {
	return common.PartAt(f.tabParts(names, active, f.tabFit(names, active)), x) - 1
}
