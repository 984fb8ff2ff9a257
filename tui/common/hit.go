package common

import "github.com/charmbracelet/x/ansi"

// PartAt is the index of the part drawn at column x when parts are drawn
// side by side from column 0, or -1 past them: what a mouse click on a
// bar of tabs or sections hit.
func PartAt(parts []string, x int) int {
	if x < 0 {
		return -1
	}
	at := 0
	for i, p := range parts {
		at += ansi.StringWidth(p)
		if x < at {
			return i
		}
	}
	return -1
}
