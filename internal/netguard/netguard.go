// Package netguard keeps the server's outgoing requests to addresses that
// someone else gave (the owner's calendar feeds, members' push endpoints)
// on the public internet: a client whose dialer refuses private, loopback,
// link-local and reserved addresses after name resolution and on every
// redirect, and a check of an address before it is stored.
package netguard

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrPrivateAddress is a connection refused because its host is not public.
var ErrPrivateAddress = errors.New("the address leads to a private or local network, which the server does not fetch from")

// PublicAddr reports whether ip is an address on the public internet: not
// loopback, private, link-local, shared (carrier NAT), multicast or
// reserved, nor an IPv6 form of an IPv4 address that is not public
// (IPv4-mapped, -compatible, -translated, NAT64, 6to4, Teredo).
func PublicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range reservedPrefixes {
		if p.Contains(ip) {
			return false
		}
	}
	// A 6to4 address (2002::/16) carries an IPv4 address that relays
	// reach: it is public only when that address is.
	if sixToFour.Contains(ip) {
		b := ip.As16()
		return PublicAddr(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
	}
	return true
}

var sixToFour = netip.MustParsePrefix("2002::/16")

var reservedPrefixes = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15",
		"198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001:db8::/32",
		// IPv4-compatible (::a.b.c.d, deprecated), IPv4-translated and
		// Teredo addresses carry an IPv4 address some stacks reach directly.
		"::/96", "::ffff:0:0:0/96", "2001::/32"} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// LocalHost reports whether a URL's host is, by its name or literal
// address, not on the public internet: a private or loopback address,
// "localhost" and its subdomains, or a name without a dot. Names that
// resolve to private addresses are caught by Client's dialer instead.
func LocalHost(u *url.URL) bool {
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if ip, err := netip.ParseAddr(host); err == nil {
		return !PublicAddr(ip)
	}
	return host == "" || host == "localhost" || strings.HasSuffix(host, ".localhost") || !strings.Contains(host, ".")
}

// ClientOptions shape Client.
type ClientOptions struct {
	// AllowPrivate lets the client reach private and loopback addresses
	// (tests and local development only).
	AllowPrivate bool
	// Timeout bounds a whole request.
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed; 0 follows none.
	MaxRedirects int
	// SchemeAllowed says whether a redirect may go to a scheme.
	SchemeAllowed func(scheme string) bool
}

// Client is an HTTP client whose dialer checks the address it actually
// connects to, after name resolution and on every redirect, so neither a
// name that resolves to a private address nor a redirect to one reaches the
// server's network. It never uses a proxy from the environment, which
// would dial for it unchecked.
func Client(o ClientOptions) *http.Client {
	allow := o.AllowPrivate
	dialer := &net.Dialer{Timeout: 10 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return ErrPrivateAddress
		}
		ip, err := netip.ParseAddr(host)
		if err != nil || (!allow && !PublicAddr(ip)) {
			return ErrPrivateAddress
		}
		return nil
	}}
	return &http.Client{
		Timeout: o.Timeout,
		Transport: &http.Transport{
			Proxy: nil, DialContext: dialer.DialContext, ForceAttemptHTTP2: true,
			TLSHandshakeTimeout: 10 * time.Second, ResponseHeaderTimeout: 15 * time.Second,
			MaxIdleConns: 4, IdleConnTimeout: 30 * time.Second,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > o.MaxRedirects {
				if o.MaxRedirects == 0 {
					return http.ErrUseLastResponse
				}
				return fmt.Errorf("more than %d redirects", o.MaxRedirects)
			}
			if o.SchemeAllowed != nil && !o.SchemeAllowed(req.URL.Scheme) {
				return errors.New("redirected away from https")
			}
			return nil
		},
	}
}
