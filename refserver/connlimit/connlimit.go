// Package connlimit bounds the connections a server holds open: in all,
// and per client address, so that clients who open connections and send
// slowly (or not at all) cannot use up the server's file descriptors or
// crowd out everyone else. A connection past either bound is answered at
// once with a 503 and closed.
package connlimit

import (
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Listener wraps a net.Listener with the two bounds.
type Listener struct {
	net.Listener
	max, perAddr int

	mu      sync.Mutex
	total   int
	byAddr  map[string]int
	refused atomic.Int64
}

// New bounds ln to max connections in all and perAddr per client IP
// address; a bound of 0 or less is no bound.
func New(ln net.Listener, max, perAddr int) *Listener {
	return &Listener{Listener: ln, max: max, perAddr: perAddr, byAddr: map[string]int{}}
}

// Accept returns the next connection within the bounds, refusing those
// past them.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := hostOf(c.RemoteAddr())
		if why := l.admit(host); why != "" {
			l.refused.Add(1)
			refuse(c, why)
			continue
		}
		return &conn{Conn: c, l: l, host: host}, nil
	}
}

// admit counts a connection from host, or says which bound it is past.
func (l *Listener) admit(host string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.max > 0 && l.total >= l.max:
		return fmt.Sprintf("the server holds its limit of %d connections", l.max)
	case l.perAddr > 0 && l.byAddr[host] >= l.perAddr:
		return fmt.Sprintf("your address holds its limit of %d connections to this server", l.perAddr)
	}
	l.total++
	l.byAddr[host]++
	return ""
}

func (l *Listener) release(host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total--
	if l.byAddr[host]--; l.byAddr[host] <= 0 {
		delete(l.byAddr, host)
	}
}

// Open is the number of connections held; Refused the number turned away.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

// Refused is the number of connections turned away so far.
func (l *Listener) Refused() int64 { return l.refused.Load() }

// refuse answers 503 on a fresh connection and closes it. The write goes
// to an empty socket buffer; the short deadline only guards against a
// peer that is already gone.
func refuse(c net.Conn, why string) {
	body := fmt.Sprintf("{\"error\": %q}\n", "too many connections: "+why+"; close some and retry")
	c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	c.Close()
}

func hostOf(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// conn gives its slot back once, when closed.
type conn struct {
	net.Conn
	l    *Listener
	host string
	once sync.Once
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.host) })
	return err
}
