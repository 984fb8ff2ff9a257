package markdown

import (
	"testing"

	"github.com/forgehq/forge/internal/iostreams"
)

func TestForStdoutPipedIsVerbatim(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	src := "# Title\n\n**bold** \x1b[31m\n"
	if got := ForStdout(ios, src); string(got) != src {
		t.Errorf("piped = %q, want the source", got)
	}
	if got := ForStdout(ios, "no newline"); got != "no newline\n" {
		t.Errorf("piped = %q, want a final newline added", got)
	}
	if got := ForStdout(ios, ""); got != "" {
		t.Errorf("empty = %q", got)
	}
}
