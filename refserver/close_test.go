package refserver

import (
	"net"
	"testing"
	"time"
)

// A client that connected but never sent a request must not hold Close:
// net/http counts such a connection as busy for five seconds. No read
// deadline here: the reads below end only when the server closes our
// connections, and Close must return without error (its own five seconds
// running out would be one).
func TestCloseDropsConnectionsThatNeverSentARequest(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	addr := srv.listener.Addr().String()
	accepted, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer accepted.Close()
	// Wait (a condition, not a time) until the server tracks it.
	for srv.tracked() == 0 {
		time.Sleep(time.Millisecond)
	}
	// This one may be in any state when Close starts: in the listen
	// queue, accepted but not yet tracked, or tracked.
	racing, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer racing.Close()
	if err := srv.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for name, c := range map[string]net.Conn{"accepted": accepted, "racing": racing} {
		if _, err := c.Read(make([]byte, 1)); err == nil {
			t.Errorf("%s: read data from a closed server", name)
		}
	}
	if n := srv.dropped(); n < 1 {
		t.Errorf("%d connections dropped by Close, want at least the accepted one", n)
	}
}

func (s *Server) tracked() int {
	s.newMu.Lock()
	defer s.newMu.Unlock()
	return len(s.newConns)
}

func (s *Server) dropped() int {
	s.newMu.Lock()
	defer s.newMu.Unlock()
	return s.droppedNew
}
