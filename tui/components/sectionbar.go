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
	st := s.ctx.Styles
	parts := make([]string, len(s.Names))
	for i, n := range s.Names {
		if i == s.Active {
			parts[i] = st.SectionOn.Render(n)
		} else {
			parts[i] = st.Section.Render(n)
		}
	}
	first := 0
	for first < s.Active && widthOf(parts[first:]) > width {
		first++
	}
	line := strings.Join(parts[first:], "")
	if first > 0 {
		line = st.Dim.Render("‹") + line
	}
	return common.Fit(line, width)
}

func widthOf(parts []string) int {
	n := 0
	for _, p := range parts {
		n += ansi.StringWidth(p)
	}
	return n
}
