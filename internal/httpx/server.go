package httpx

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"tribe/internal/errs"
	"tribe/internal/ratelimit"
)

// Limits every HTTP server of the site runs with (NewServer, LimitListener).
const (
	// ReadTimeout is how long a whole request, body included, may take to
	// arrive: the slowest avatar upload (5 MB) a person should wait for.
	// Streams lift it for themselves (Streams.Open).
	ReadTimeout = 60 * time.Second
	// MaxConns caps the connections open at once.
	MaxConns = 4096
	// MaxConnsPerClient caps the connections of one client address (an IPv6
	// client by its /64), so that one client cannot take every connection
	// with slow requests: a browser opens 6, an office behind one NAT a few
	// dozen browsers' worth.
	MaxConnsPerClient = 256
	// HealthReserve of the MaxConns are kept for the health checks: once the
	// others are taken, a new connection may ask for HealthPaths only.
	HealthReserve = 64
)

// HealthPaths are the paths a connection of the health reserve may ask for.
var HealthPaths = []string{"/healthz", "/readyz"}

// NewServer is an http.Server for h with the site's timeouts: headers within
// 10 s, the whole request within ReadTimeout, so a client that sends headers
// and then trickles a body cannot hold a connection, and idle keep-alive
// connections closed after 120 s. Serve it on a LimitListener: a connection
// of the listener's health reserve gets one answer, to a health check, and
// is closed.
func NewServer(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           reserveGate(h),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       ReadTimeout,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          errorLog,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if lc, ok := c.(*limitConn); ok && lc.reserve {
				return context.WithValue(ctx, reserveKey{}, true)
			}
			return ctx
		},
	}
}

type reserveKey struct{}

// Refusals of the connection limits.
var (
	// errAtConnLimit answers a request other than a health check that came
	// on a connection of the health reserve.
	errAtConnLimit = errs.New(errs.Unavailable, "The server is at its connection limit. Please try again in a moment.").After(time.Second)
	errClientConns = errs.New(errs.RateLimited, "Too many connections from your address. Please close some and try again.")
)

func reserveGate(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Context().Value(reserveKey{}) == nil {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Connection", "close") // give the reserve slot back at once
		for _, p := range HealthPaths {
			if r.URL.Path == p {
				h.ServeHTTP(w, r)
				return
			}
		}
		WriteError(w, r, errAtConnLimit)
	})
}

// ConnLimits are the bounds of a LimitListener.
type ConnLimits struct {
	Max       int // connections open at once, the reserve included
	PerClient int // connections of one client address (ratelimit.AddrKey); 0 for none
	Reserve   int // of Max, kept for health checks (see NewServer)
	// Unlimited are peers the per-client cap does not apply to: the reverse
	// proxies, which carry every client's connections.
	Unlimited []netip.Prefix
}

// SiteConnLimits are the limits of `tribe serve`: the reverse proxies named
// in trusted are not capped per address.
func SiteConnLimits(trusted []netip.Prefix) ConnLimits {
	return ConnLimits{Max: MaxConns, PerClient: MaxConnsPerClient, Reserve: HealthReserve, Unlimited: trusted}
}

// LimitListener accepts at most lim.Max connections at once; Accept waits
// for a slot, so a flood of idle connections cannot use up the file
// descriptors. Of them, lim.Reserve are kept for health checks, and one
// client address may hold at most lim.PerClient: a connection over that is
// answered 429 and closed.
func LimitListener(l net.Listener, lim ConnLimits) net.Listener {
	reserve := min(max(lim.Reserve, 0), lim.Max-1)
	ll := &limitListener{
		Listener:  l,
		general:   make(chan struct{}, max(lim.Max-reserve, 1)),
		reserve:   make(chan struct{}, max(reserve, 0)),
		refusals:  make(chan struct{}, 64),
		perClient: lim.PerClient,
		unlimited: lim.Unlimited,
		byClient:  map[string]int{},
	}
	return ll
}

type limitListener struct {
	net.Listener
	general, reserve chan struct{}
	refusals         chan struct{} // refusals being written at once
	perClient        int
	unlimited        []netip.Prefix

	mu       sync.Mutex
	byClient map[string]int
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		reserve := l.takeSlot()
		free := func() {
			if reserve {
				<-l.reserve
			} else {
				<-l.general
			}
		}
		c, err := l.Listener.Accept()
		if err != nil {
			free()
			return nil, err
		}
		client, ok := l.admit(c)
		if !ok {
			free()
			l.refuse(c)
			continue
		}
		return &limitConn{Conn: c, reserve: reserve, release: func() {
			l.leave(client)
			free()
		}}, nil
	}
}

// takeSlot waits for a free slot, a general one first; it reports whether
// it took one of the health reserve.
func (l *limitListener) takeSlot() (reserve bool) {
	select {
	case l.general <- struct{}{}:
		return false
	default:
	}
	select {
	case l.general <- struct{}{}:
		return false
	case l.reserve <- struct{}{}:
		return true
	}
}

// admit counts c against its client address and reports the key it counts
// under ("" when uncounted), or false when the address is at its cap.
func (l *limitListener) admit(c net.Conn) (string, bool) {
	if l.perClient < 1 {
		return "", true
	}
	ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
	if err != nil {
		return "", true // not an IP connection: nothing to key by
	}
	addr := ap.Addr().Unmap()
	for _, p := range l.unlimited {
		if p.Contains(addr) {
			return "", true
		}
	}
	key := ratelimit.AddrKey(addr.String())
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byClient[key] >= l.perClient {
		return "", false
	}
	l.byClient[key]++
	return key, true
}

func (l *limitListener) leave(key string) {
	if key == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byClient[key]--; l.byClient[key] <= 0 {
		delete(l.byClient, key)
	}
}

// tooManyConns is the whole answer to a connection over the per-client cap.
var tooManyConns = func() []byte {
	b, _ := json.Marshal(ErrorBody{Error: ErrorDetail{Code: errClientConns.Code, Message: errClientConns.Message}})
	body := string(b) + "\n"
	return []byte("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\n" +
		"Cache-Control: no-store\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body)
}()

// refuse answers a connection over the per-client cap with a 429 and closes
// it, off the accept loop and within a second; when many refusals are under
// way at once it just closes the connection.
func (l *limitListener) refuse(c net.Conn) {
	select {
	case l.refusals <- struct{}{}:
	default:
		_ = c.Close()
		return
	}
	go func() {
		defer func() { <-l.refusals }()
		defer func() { _ = c.Close() }()
		_ = c.SetDeadline(time.Now().Add(time.Second))
		if _, err := c.Write(tooManyConns); err != nil {
			return
		}
		// Read what the client sent, so that closing does not reset the
		// connection before the answer is read.
		if tc, ok := c.(interface{ CloseWrite() error }); ok {
			_ = tc.CloseWrite()
			_, _ = io.Copy(io.Discard, io.LimitReader(c, 64<<10))
		}
	}()
}

// limitConn gives its slot back once, when it is closed.
type limitConn struct {
	net.Conn
	reserve bool
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
