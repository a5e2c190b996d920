// Package auth holds accounts, password hashing, browser sessions, e-mail
// confirmation and password reset, rate limits and roles.
package auth

import "context"

// CookieName is the browser-session cookie. Its value is an opaque random
// token; auth_sessions.token_hash holds hex(sha256(token)), never the token.
const CookieName = "tribe_session"

// Principal is the signed-in user behind a request, decided on the server.
type Principal struct {
	UserID         string
	SessionID      string
	Email          string
	EmailConfirmed bool
	// Admin is true only for a confirmed address that configuration or an
	// operator grant makes an admin.
	Admin bool
}

type principalKey struct{}

// WithPrincipal returns a context carrying p.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the signed-in user of a request context, if any.
func PrincipalFrom(ctx context.Context) (*Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(*Principal)
	return p, ok && p != nil
}
