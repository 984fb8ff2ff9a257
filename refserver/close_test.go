package refserver

import (
	"net"
	"testing"
	"time"
)

// A client that connected but never sent a request must not hold Close:
// net/http counts such a connection as busy for five seconds.
func TestCloseDropsConnectionsThatNeverSentARequest(t *testing.T) {
	srv, err := New(Options{AdminPassword: "admin-password-1234"})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", srv.listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	closed := make(chan error, 1)
	go func() { closed <- srv.Close() }()
	// The server must close our connection at once; a read that times out
	// instead means Close is waiting on it.
	conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Fatal("read data from a closing server")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the server kept a connection that never sent a request open while closing")
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
}
