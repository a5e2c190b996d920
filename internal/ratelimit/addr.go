package ratelimit

import "net/netip"

// AddrKey is the key of a client address in every per-address limit: an
// IPv4 address as it is, an IPv6 address by its /64 network. A subscriber
// is usually given a whole /64 and may use any of its 2⁶⁴ addresses, so
// keying by the full address would give one client unlimited allowances.
// An IPv4-mapped IPv6 address counts as its IPv4 address; a string that is
// no address is its own key.
func AddrKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64) // cannot fail: 64 bits is within an IPv6 address
	return p.String()
}
