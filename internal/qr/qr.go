// Package qr draws QR codes in a terminal with Unicode half blocks, two
// modules per character cell, so an otpauth:// URL fits in 80 columns.
//
// Drawing goes through github.com/mdp/qrterminal/v3's GenerateWithConfig
// into a buffer, never its Generate, which writes a terminal query to
// stdout and reads the reply.
//
// A QR code must be dark modules on a light background to scan everywhere.
// With colour allowed, each line is painted with explicit 256-colour white
// foreground on black background (palette entries 231 and 16, which
// terminal themes leave alone), so the code reads the same on dark and light
// themes. Without colour, the glyphs assume light text on a dark
// background, the common terminal default; Invert swaps them for dark text
// on a light background.
package qr

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/forgehq/forge/internal/iostreams"
	"github.com/mdp/qrterminal/v3"
	"rsc.io/qr"
)

// Options control the drawing.
type Options struct {
	// Color paints explicit white-on-black so any terminal theme works.
	Color bool
	// Invert swaps light and dark glyphs, for dark text on a light
	// background when Color is off.
	Invert bool
	// MaxWidth is the widest the code may be, in columns; 0 means 80.
	MaxWidth int
}

// paint is white foreground on black background, from the 256-colour cube
// rather than the 16 themable colours.
const paint = "\x1b[38;5;231;48;5;16m"

// Width returns the columns the code for text takes with the given quiet
// zone (blank modules around it) at a level.
func Width(text string, level qr.Level, quiet int) (int, error) {
	code, err := qr.Encode(text, level)
	if err != nil {
		return 0, err
	}
	return code.Size + 2*quiet, nil
}

// Styled is the QR code Write draws, as forge's own styled text for a
// command's view (the code encodes text; none of it is shown).
func Styled(text string, opts Options) (iostreams.Styled, error) {
	var b strings.Builder
	err := Write(&b, text, opts)
	return iostreams.Styled(b.String()), err
}

// Write draws text as a QR code to w. It picks the most robust error
// correction and the widest quiet zone that fit MaxWidth, and fails when
// even the smallest code does not fit.
func Write(w io.Writer, text string, opts Options) error {
	maxWidth := opts.MaxWidth
	if maxWidth <= 0 {
		maxWidth = 80
	}
	type try struct {
		level qr.Level
		quiet int
	}
	var need int
	// Quiet zones stay even: qrterminal draws an odd one with a half line
	// of dark above the code.
	for _, t := range []try{{qr.M, 4}, {qr.M, 2}, {qr.L, 2}} {
		width, err := Width(text, t.level, t.quiet)
		if err != nil {
			return fmt.Errorf("cannot encode a QR code: %w", err)
		}
		need = width
		if width <= maxWidth {
			_, err := io.WriteString(w, render(text, t.level, t.quiet, opts))
			return err
		}
	}
	return fmt.Errorf("the QR code needs %d columns and the terminal has %d", need, maxWidth)
}

func render(text string, level qr.Level, quiet int, opts Options) string {
	cfg := qrterminal.Config{
		Level:          level,
		HalfBlocks:     true,
		QuietZone:      quiet,
		WhiteChar:      qrterminal.WHITE_WHITE,
		BlackChar:      qrterminal.BLACK_BLACK,
		WhiteBlackChar: qrterminal.WHITE_BLACK,
		BlackWhiteChar: qrterminal.BLACK_WHITE,
	}
	if opts.Invert {
		cfg.WhiteChar, cfg.BlackChar = " ", "█"
		cfg.WhiteBlackChar, cfg.BlackWhiteChar = "▄", "▀"
	}
	var buf bytes.Buffer
	cfg.Writer = &buf
	qrterminal.GenerateWithConfig(text, cfg)
	if opts.Invert {
		// The last line's lower half lies outside the quiet zone and
		// qrterminal draws it dark; inverted, that would be a bar of ink.
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		lines[len(lines)-1] = strings.Repeat(" ", len([]rune(lines[len(lines)-1])))
		buf.Reset()
		buf.WriteString(strings.Join(lines, "\n") + "\n")
	}
	if !opts.Color {
		return buf.String()
	}
	var out strings.Builder
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if body := strings.TrimSuffix(line, "\n"); body != "" {
			out.WriteString(paint + body + "\x1b[0m\n")
		}
	}
	return out.String()
}
