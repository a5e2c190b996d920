package httpx

import (
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits every HTTP server of the site runs with (NewServer, LimitListener).
const (
	// ReadTimeout is how long a whole request, body included, may take to
	// arrive: the slowest avatar upload (5 MB) a person should wait for.
	// Streams lift it for themselves (Streams.Open).
	ReadTimeout = 60 * time.Second
	// MaxConns caps the connections open at once.
	MaxConns = 4096
)

// NewServer is an http.Server for h with the site's timeouts: headers within
// 10 s, the whole request within ReadTimeout, so a client that sends headers
// and then trickles a body cannot hold a connection, and idle keep-alive
// connections closed after 120 s. Serve it on a LimitListener.
func NewServer(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       ReadTimeout,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          errorLog,
	}
}

// LimitListener accepts at most max connections at once; Accept waits for a
// slot, so a flood of idle connections cannot use up the file descriptors.
func LimitListener(l net.Listener, max int) net.Listener {
	return &limitListener{Listener: l, slots: make(chan struct{}, max)}
}

type limitListener struct {
	net.Listener
	slots chan struct{}
}

func (l *limitListener) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
}

// limitConn gives its slot back once, when it is closed.
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
