package iostreams

import (
	"errors"
	"io"
	"testing"
)

// BenchmarkPrintf is a command's message — an icon, a name, a number, an
// address — printed piped (fmt as it is) and on a terminal (each argument
// shown as a server's value).
func BenchmarkPrintf(b *testing.B) {
	for _, c := range []struct {
		name string
		tty  bool
	}{{"piped", false}, {"terminal", true}} {
		b.Run(c.name, func(b *testing.B) {
			ios, _, _, _ := Test()
			ios.Out = io.Discard
			ios.SetStdoutTTY(c.tty)
			cs := ios.ColorScheme()
			err := errors.New("the service said no")
			b.ReportAllocs()
			for b.Loop() {
				ios.Printf("%s Created issue #%d in %s: %s (%v)\n", cs.SuccessIcon(), 42, "alice/app", "https://forge.example/alice/app/issues/42", err)
			}
		})
	}
}
