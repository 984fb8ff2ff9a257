package qr

import (
	"bytes"
	"strings"
	"testing"

	"rsc.io/qr"
)

// darkness maps each glyph to whether its top and bottom halves show ink
// (dark), for light-on-dark drawing; inverted drawing flips ink.
func halves(r rune, inverted bool) (top, bottom bool, ok bool) {
	// Lit halves in normal drawing (the glyph's foreground is light).
	var litTop, litBottom bool
	switch r {
	case '█':
		litTop, litBottom = true, true
	case ' ':
	case '▀':
		litTop = true
	case '▄':
		litBottom = true
	default:
		return false, false, false
	}
	if inverted {
		// The glyph's foreground is ink: drawn halves are dark.
		return litTop, litBottom, true
	}
	return !litTop, !litBottom, true
}

var ansi = strings.NewReplacer(paint, "", "\x1b[0m", "")

// readBack turns the drawing into a grid of dark modules.
func readBack(t *testing.T, drawing string, inverted bool) [][]bool {
	t.Helper()
	var grid [][]bool
	for _, line := range strings.Split(strings.TrimSuffix(ansi.Replace(drawing), "\n"), "\n") {
		var top, bottom []bool
		for _, r := range line {
			tp, bt, ok := halves(r, inverted)
			if !ok {
				t.Fatalf("unexpected glyph %q in %q", r, line)
			}
			top, bottom = append(top, tp), append(bottom, bt)
		}
		grid = append(grid, top, bottom)
	}
	return grid
}

// checkScans compares the drawing with the code's modules and checks the
// quiet zone around it is light.
func checkScans(t *testing.T, text string, drawing string, inverted bool) {
	t.Helper()
	grid := readBack(t, drawing, inverted)
	width := len(grid[0])
	// Find the quiet zone: the drawing is square in modules, give or take
	// the half line qrterminal adds at the bottom.
	var code *qr.Code
	var quiet int
	for _, lv := range []qr.Level{qr.M, qr.L} {
		c, err := qr.Encode(text, lv)
		if err != nil {
			t.Fatal(err)
		}
		if (width-c.Size)%2 == 0 && width > c.Size {
			q := (width - c.Size) / 2
			if matches(grid, c, q) {
				code, quiet = c, q
				break
			}
		}
	}
	if code == nil {
		t.Fatalf("drawing does not match the QR code of %q:\n%s", text, drawing)
	}
	if quiet < 2 {
		t.Errorf("quiet zone %d < 2", quiet)
	}
	for y := 0; y < code.Size+2*quiet; y++ {
		for x := 0; x < width; x++ {
			inCode := y >= quiet && y < quiet+code.Size && x >= quiet && x < quiet+code.Size
			if !inCode && grid[y][x] {
				t.Fatalf("dark module in the quiet zone at %d,%d:\n%s", x, y, drawing)
			}
		}
	}
}

func matches(grid [][]bool, c *qr.Code, q int) bool {
	if len(grid) < c.Size+2*q {
		return false
	}
	for y := 0; y < c.Size; y++ {
		for x := 0; x < c.Size; x++ {
			if grid[q+y][q+x] != c.Black(x, y) {
				return false
			}
		}
	}
	return true
}

const otpURL = "otpauth://totp/forge:alice?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=forge&algorithm=SHA1&digits=6&period=30"

func TestDrawingScansInEveryMode(t *testing.T) {
	for _, opts := range []Options{{}, {Invert: true}, {Color: true}, {Color: true, Invert: true}} {
		var buf bytes.Buffer
		if err := Write(&buf, otpURL, opts); err != nil {
			t.Fatal(err)
		}
		checkScans(t, otpURL, buf.String(), opts.Invert)
		if opts.Color != strings.Contains(buf.String(), paint) {
			t.Errorf("%+v: colour codes present = %v", opts, !opts.Color)
		}
	}
}

func TestFitsEightyColumns(t *testing.T) {
	long := otpURL + "&image=" + strings.Repeat("x", 60)
	for _, text := range []string{otpURL, long} {
		var buf bytes.Buffer
		if err := Write(&buf, text, Options{}); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(buf.String(), "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Fatalf("line of %d columns for a %d-byte text", n, len(text))
			}
		}
		checkScans(t, text, buf.String(), false)
	}
	// A narrow terminal gets a smaller code, or a clear refusal.
	var buf bytes.Buffer
	if err := Write(&buf, otpURL, Options{MaxWidth: 50}); err != nil {
		t.Fatal(err)
	}
	checkScans(t, otpURL, buf.String(), false)
	if err := Write(&buf, otpURL, Options{MaxWidth: 20}); err == nil || !strings.Contains(err.Error(), "columns") {
		t.Fatalf("20 columns: %v", err)
	}
}
