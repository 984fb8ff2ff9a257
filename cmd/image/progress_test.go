package image

import (
	"bytes"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/regclient"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

func digest(c byte) v1.Hash {
	return v1.Hash{Algorithm: "sha256", Hex: strings.Repeat(string(c), 64)}
}

func TestPushProgressTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := &pushProgress{w: &buf, tty: true, width: 100, cs: (&iostreams.IOStreams{}).ErrColorScheme(), what: "r/alice/app:1", rows: map[v1.Hash]*layerRow{}}
	a, b := digest('a'), digest('b')
	p.event(regclient.LayerEvent{Digest: a, Size: 2048, State: regclient.LayerWaiting})
	p.event(regclient.LayerEvent{Digest: b, Size: 1024, State: regclient.LayerWaiting})
	p.event(regclient.LayerEvent{Digest: a, Size: 2048, Sent: 1024, State: regclient.LayerUploading})
	p.event(regclient.LayerEvent{Digest: b, Size: 1024, State: regclient.LayerExists})
	p.event(regclient.LayerEvent{Digest: a, Size: 2048, Sent: 2048, State: regclient.LayerPushed})
	p.finish()
	out := buf.String()
	// The last drawing: cursor up over the block, one line per layer and
	// the total, each cleared first.
	last := out[strings.LastIndex(out, "\x1b[3A"):]
	for _, want := range []string{
		"\x1b[2K  sha256:aaaaaaaaaaaa  ████████████████████████    2.0 KiB / 2.0 KiB    pushed\n",
		"\x1b[2K  sha256:bbbbbbbbbbbb  ████████████████████████    1.0 KiB / 1.0 KiB    exists\n",
		"\x1b[2KPushing r/alice/app:1: 2.0 KiB sent",
	} {
		if !strings.Contains(last, want) {
			t.Errorf("final drawing lacks %q:\n%q", want, last)
		}
	}
	if !strings.Contains(out, "░") {
		t.Error("no partly filled bar was ever drawn")
	}
}

func TestPushProgressPiped(t *testing.T) {
	var buf bytes.Buffer
	p := &pushProgress{w: &buf, tty: false, cs: (&iostreams.IOStreams{}).ErrColorScheme(), rows: map[v1.Hash]*layerRow{}}
	a, b := digest('a'), digest('b')
	p.event(regclient.LayerEvent{Digest: a, Size: 2048, State: regclient.LayerWaiting})
	p.event(regclient.LayerEvent{Digest: a, Size: 2048, Sent: 100, State: regclient.LayerUploading})
	p.event(regclient.LayerEvent{Digest: b, Size: 10, State: regclient.LayerExists})
	p.event(regclient.LayerEvent{Digest: a, Size: 2048, Sent: 2048, State: regclient.LayerPushed})
	p.finish()
	want := "sha256:" + strings.Repeat("b", 64) + ": exists\nsha256:" + strings.Repeat("a", 64) + ": pushed 2.0 KiB\n"
	if buf.String() != want {
		t.Errorf("piped progress:\n got %q\nwant %q", buf.String(), want)
	}
}

// On a narrow terminal the bar goes and long references are cut, so no
// line wraps (moving the cursor up would miss a wrapped line).
func TestPushProgressNarrow(t *testing.T) {
	var buf bytes.Buffer
	p := &pushProgress{w: &buf, tty: true, width: 60, cs: (&iostreams.IOStreams{}).ErrColorScheme(),
		what: "registry.example.com/a/very/long/repository/name:1.0", rows: map[v1.Hash]*layerRow{}}
	p.event(regclient.LayerEvent{Digest: digest('a'), Size: 2048, Sent: 1024, State: regclient.LayerUploading})
	p.finish()
	for _, line := range strings.Split(buf.String(), "\n") {
		plain := line
		if i := strings.LastIndex(line, "\x1b[2K"); i >= 0 {
			plain = line[i+len("\x1b[2K"):]
		}
		if n := len([]rune(plain)); n >= 60 {
			t.Errorf("line of %d columns on a 60-column terminal: %q", n, plain)
		}
	}
	if strings.Contains(buf.String(), "░") {
		t.Error("a bar on a narrow terminal")
	}
}
