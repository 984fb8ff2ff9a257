package components

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgehq/forge/tui/common"
)

// Sections is the bar naming a SectionPage's sections (a repository's
// issues, pull requests, files...), switched with left and right.
type Sections struct {
	ctx    *common.Context
	Names  []string
	Active int
}

// NewSections returns a bar over names, the first active.
func NewSections(ctx *common.Context, names ...string) *Sections {
	return &Sections{ctx: ctx, Names: names}
}

// Next and Prev switch sections, wrapping around.
func (s *Sections) Next() { s.Active = (s.Active + 1) % len(s.Names) }
func (s *Sections) Prev() { s.Active = (s.Active + len(s.Names) - 1) % len(s.Names) }

// View draws the bar in width cells; when the names do not fit, the
// active one and its neighbours are kept.
func (s *Sections) View(width int) string {
	parts, first := s.parts(width)
	line := strings.Join(parts, "")
	if first > 0 {
		line = s.ctx.Styles.Dim.Render("‹") + line
	}
	return common.Fit(line, width)
}

// parts are the names drawn side by side from the first that lets the
// active one show in width cells (after a ‹ when first > 0).
func (s *Sections) parts(width int) (parts []string, first int) {
	st := s.ctx.Styles
	parts = make([]string, len(s.Names))
	for i, n := range s.Names {
		if i == s.Active {
			parts[i] = st.SectionOn.Render(n)
		} else {
			parts[i] = st.Section.Render(n)
		}
	}
	for first < s.Active && widthOf(parts[first:]) > width {
		first++
	}
	return parts[first:], first
}

// At is the section whose name is drawn at column x, or -1.
func (s *Sections) At(x, width int) int {
	parts, first := s.parts(width)
	if first > 0 {
		x-- // the ‹
	}
	if i := common.PartAt(parts, x); i >= 0 {
		return first + i
	}
	return -1
}

func widthOf(parts []string) int {
	n := 0
	for _, p := range parts {
		n += ansi.StringWidth(p)
	}
	return n
}
