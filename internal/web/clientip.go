package web

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"tribe/internal/ratelimit"
)

// clientIP is the address of the person behind a request, used for rate limits
// and the session list. It is the connection's peer, unless that peer is one of
// the reverse proxies named in TRIBE_TRUSTED_PROXIES: then X-Forwarded-For is
// read from the right, skipping trusted proxies, and the first other address is
// the client. Reading from the right matters: everything left of the last
// trusted hop was written by the client and could be anything.
func clientIP(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !isTrusted(peer, trusted) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		addr, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			// A malformed hop cannot be traced further; the last good address stands.
			break
		}
		peer = addr.Unmap()
		if !isTrusted(peer, trusted) {
			break
		}
	}
	return peer.String()
}

// clientKey is the request's client as every per-address limit keys it:
// its address, an IPv6 client by its /64 (ratelimit.AddrKey).
func clientKey(r *http.Request, trusted []netip.Prefix) string {
	return ratelimit.AddrKey(clientIP(r, trusted))
}

// proxyHeaders are the headers by which proxies and CDNs name a client or
// the original request. Which one a proxy adds is its own configuration
// (nginx's X-Real-IP, Cloudflare's CF-Connecting-IP, …), so a request
// carrying any of them is treated as proxied.
var proxyHeaders = []string{
	"Forwarded", "X-Real-IP", "Via", "X-Client-IP", "True-Client-IP", "CF-Connecting-IP",
	"Fastly-Client-IP", "X-Cluster-Client-IP", "X-Original-Forwarded-For", "X-ProxyUser-IP",
}

// proxied reports whether r carries a header a proxy adds: any of
// proxyHeaders or any X-Forwarded-* (For, Host, Proto, Port, Server, …).
// Such a request is never "from this machine", whatever its peer address.
func proxied(r *http.Request) bool {
	for _, h := range proxyHeaders {
		if len(r.Header.Values(h)) > 0 { // Values canonicalises the name
			return true
		}
	}
	for name := range r.Header {
		if strings.HasPrefix(name, "X-Forwarded-") {
			return true
		}
	}
	return false
}

func isTrusted(addr netip.Addr, trusted []netip.Prefix) bool {
	addr = addr.Unmap()
	for _, p := range trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}
