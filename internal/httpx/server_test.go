package httpx

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"testing"
	"time"
)

func TestLimitListenerCapsOpenConnections(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := LimitListener(inner, ConnLimits{Max: 2})
	defer func() { _ = ln.Close() }()
	accepted := make(chan net.Conn, 3)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = c.Close() }()
	}
	first, second := <-accepted, <-accepted
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted while two were open")
	case <-time.After(200 * time.Millisecond):
	}
	_ = first.Close()
	_ = first.Close() // closing twice frees one slot, not two
	select {
	case c := <-accepted:
		_ = c.Close()
	case <-time.After(2 * time.Second):
		t.Fatal("closing a connection did not free its slot")
	}
	_ = second.Close()
}

// limitedSite serves, on 127.0.0.1 with NewServer on a LimitListener, a
// handler that reads each request's whole body (so a slow POST holds its
// connection) and answers 200 "ok". It returns the address.
func limitedSite(t *testing.T, lim ConnLimits) string {
	t.Helper()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, "ok")
	}), nil)
	go func() { _ = srv.Serve(LimitListener(inner, lim)) }()
	t.Cleanup(func() { _ = srv.Close() })
	return inner.Addr().String()
}

// dialFrom opens a connection to addr from the loopback address from
// (127.0.0.2 is another client on the same machine), closed with the test.
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial from %s: %v", from, err)
	}
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// slowPost sends the headers of a 60,000-byte POST and one byte of its body.
func slowPost(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	c := dialFrom(t, from, addr)
	if _, err := io.WriteString(c, "POST /upload HTTP/1.1\r\nHost: site\r\nContent-Length: 60000\r\n\r\na"); err != nil {
		t.Fatal(err)
	}
	return c
}

// get asks for path on a new connection from from and reads the answer
// within 5 s.
func get(t *testing.T, from, addr, path string) (*http.Response, string) {
	t.Helper()
	c := dialFrom(t, from, addr)
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: site\r\n\r\n", path); err != nil {
		t.Fatalf("GET %s from %s: %v", path, from, err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("GET %s from %s: %v", path, from, err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

func errorCode(t *testing.T, body string) string {
	t.Helper()
	var e ErrorBody
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	return e.Error.Code
}

// TestOneClientCannotTakeEveryConnection: 4,200 slow POSTs (headers, then
// one byte of a 60,000-byte body) from one address held all 4,096
// connections. One address now holds at most PerClient; the next is
// answered 429 and closed, while other clients are served, and a closed
// connection gives its place back.
func TestOneClientCannotTakeEveryConnection(t *testing.T) {
	addr := limitedSite(t, ConnLimits{Max: 24, PerClient: 8, Reserve: 2})
	slow := make([]net.Conn, 0, 8)
	for range 8 {
		slow = append(slow, slowPost(t, "127.0.0.1", addr))
	}
	resp, body := get(t, "127.0.0.1", addr, "/")
	if resp.StatusCode != http.StatusTooManyRequests || errorCode(t, body) != "rate_limited" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a 9th connection from the same address: %d %q", resp.StatusCode, body)
	}
	if resp, body := get(t, "127.0.0.2", addr, "/"); resp.StatusCode != http.StatusOK || body != "ok" {
		t.Fatalf("another client: %d %q", resp.StatusCode, body)
	}
	_ = slow[0].Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, _ := get(t, "127.0.0.1", addr, "/")
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed connection did not give its place back: %d", resp.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHealthAnswersWhenEveryConnectionIsTaken: with every connection held by
// slow POSTs, /healthz waited 25 s. The health reserve answers health checks
// at once; any other request on it is told the server is at its limit, and
// each reserve connection is closed after its one answer.
func TestHealthAnswersWhenEveryConnectionIsTaken(t *testing.T) {
	addr := limitedSite(t, ConnLimits{Max: 12, PerClient: 4, Reserve: 2})
	// The 10 general slots: 4 + 4 + 2 slow POSTs from three clients.
	for from, n := range map[string]int{"127.0.0.1": 4, "127.0.0.2": 4, "127.0.0.3": 2} {
		for range n {
			slowPost(t, from, addr)
		}
	}
	for range 3 { // more than the reserve: each answer frees its slot
		start := time.Now()
		resp, body := get(t, "127.0.0.4", addr, "/healthz")
		if resp.StatusCode != http.StatusOK || body != "ok" || !resp.Close {
			t.Fatalf("/healthz with every connection taken: %d %q close=%v", resp.StatusCode, body, resp.Close)
		}
		t.Logf("/healthz answered in %v", time.Since(start))
		resp, body = get(t, "127.0.0.4", addr, "/readyz")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("/readyz with every connection taken: %d %q", resp.StatusCode, body)
		}
		resp, body = get(t, "127.0.0.4", addr, "/api/search")
		if resp.StatusCode != http.StatusServiceUnavailable || errorCode(t, body) != "unavailable" || !resp.Close {
			t.Fatalf("another path on the reserve: %d %q", resp.StatusCode, body)
		}
	}
}

// TestReverseProxiesAreNotCappedPerAddress: a trusted proxy carries every
// client's connections, so it is not held to one client's share.
func TestReverseProxiesAreNotCappedPerAddress(t *testing.T) {
	addr := limitedSite(t, ConnLimits{Max: 24, PerClient: 2, Unlimited: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	for range 4 {
		slowPost(t, "127.0.0.1", addr)
	}
	if resp, body := get(t, "127.0.0.1", addr, "/"); resp.StatusCode != http.StatusOK {
		t.Fatalf("the proxy's 5th connection: %d %q", resp.StatusCode, body)
	}
	slowPost(t, "127.0.0.2", addr)
	slowPost(t, "127.0.0.2", addr)
	if resp, _ := get(t, "127.0.0.2", addr, "/"); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a client's 3rd connection: %d", resp.StatusCode)
	}
}
