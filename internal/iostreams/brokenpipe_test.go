package iostreams

import (
	"os"
	"testing"
)

// After the reader of stdout has gone, writes succeed and go nowhere, and
// stop puts the stream back.
func TestKeepOnBrokenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r.Close()
	s := &IOStreams{Out: w}
	stop := s.KeepOnBrokenPipe()
	for i := 0; i < 2; i++ {
		if n, err := s.Out.Write([]byte("reply\n")); err != nil || n != 6 {
			t.Fatalf("write %d after the reader went: %d %v", i, n, err)
		}
	}
	stop()
	if s.Out != w {
		t.Fatal("stop did not restore stdout")
	}
}
