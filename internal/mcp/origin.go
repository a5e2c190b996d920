package mcp

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"tribe/internal/errs"
)

// OriginPolicy decides which browser pages the endpoint answers. It stands in
// for the SDK's localhost protection (which refuses the public Host header a
// same-host reverse proxy forwards) and for the site's CSRF check (which
// refuses every cross-site POST), with one rule that fits an endpoint that is
// anonymous, read-only and never reads a cookie:
//
//   - no Origin header (assistants, command-line clients, SDKs): served;
//   - the site's own origin (TRIBE_BASE_URL): served;
//   - any other origin, when the request addresses the site by its public
//     name (Host is TRIBE_BASE_URL's host): served, with CORS. This is an
//     ordinary cross-origin read of public data, like the JSON files the site
//     already serves with Access-Control-Allow-Origin: *; no credentials are
//     ever allowed, so a page learns nothing it could not fetch itself;
//   - a loopback origin (localhost, 127.0.0.1, [::1]) calling a loopback
//     address: served, so tools on a developer's machine can use a local
//     server;
//   - anything else is refused with 403. That covers DNS rebinding, where a
//     page's own name is made to resolve to this server (its Origin and the
//     Host it sends are the attacker's name, never the site's), and a foreign
//     page reaching the server through a loopback or private address.
type OriginPolicy struct {
	origin string // scheme://host[:port] of TRIBE_BASE_URL, lower case, default port dropped
	host   string // host[:port] of TRIBE_BASE_URL, as a Host header carries it
}

// NewOriginPolicy returns the policy for a site published at baseURL.
func NewOriginPolicy(baseURL string) (OriginPolicy, error) {
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return OriginPolicy{}, fmt.Errorf("mcp: base URL %q is not an http(s) URL", baseURL)
	}
	host := canonicalHost(u.Scheme, u.Host)
	return OriginPolicy{origin: u.Scheme + "://" + host, host: host}, nil
}

var errForeignOrigin = errs.New(errs.Forbidden,
	"This MCP endpoint does not answer pages from that origin at this address. Connect to the site's public address, or from a client without an Origin header.")

// Check returns nil when r may be served, otherwise a Forbidden *errs.Error.
func (p OriginPolicy) Check(r *http.Request) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	o, err := url.Parse(origin)
	if err != nil || o.Host == "" {
		// "null" (sandboxed frames, files) and garbage name no page we could
		// trust as local; through the public name they are still served.
		o = &url.URL{}
	}
	originHost := canonicalHost(o.Scheme, o.Host)
	if o.Host != "" && o.Scheme+"://"+originHost == p.origin {
		return nil
	}
	// Browsers send Host as host[:port]; the scheme is not in it, so a
	// default port is dropped for both schemes.
	host := strings.ToLower(r.Host)
	host = strings.TrimSuffix(strings.TrimSuffix(host, ":80"), ":443")
	if host == p.host {
		return nil
	}
	if o.Host != "" && loopback(host) && loopback(originHost) {
		return nil
	}
	return errForeignOrigin
}

// canonicalHost lower-cases host[:port] and drops the scheme's default port.
func canonicalHost(scheme, host string) string {
	host = strings.ToLower(host)
	switch {
	case scheme == "http" && strings.HasSuffix(host, ":80"):
		return strings.TrimSuffix(host, ":80")
	case scheme == "https" && strings.HasSuffix(host, ":443"):
		return strings.TrimSuffix(host, ":443")
	}
	return host
}

// loopback reports whether host[:port] names this machine's loopback
// interface: a name no other site can make a browser use for itself.
func loopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
