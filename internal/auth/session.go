package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"tribe/internal/store"
)

// Client describes where a request came from; it is kept with a session so a
// user could later see their devices.
type Client struct {
	UserAgent string
	IP        string
}

// createSession starts a session for userID inside tx and returns the cookie
// token. Expired sessions are deleted on the way, so the table does not grow.
func (s *Service) createSession(ctx context.Context, tx *sql.Tx, userID string, c Client) (string, error) {
	now := s.clock()
	if _, err := tx.ExecContext(ctx, `DELETE FROM auth_sessions WHERE expires_at <= $1`, now); err != nil {
		return "", fmt.Errorf("delete expired sessions: %w", err)
	}
	token, hash := newToken()
	ua := c.UserAgent
	if len(ua) > 512 {
		ua = ua[:512]
	}
	_, err := tx.ExecContext(ctx,
		`INSERT INTO auth_sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, ip)
		 VALUES ($1, $2, $3, $4, $4, $5, $6, $7)`,
		store.NewID(), userID, hash, now, store.At(now.Add(SessionTTL)), ua, c.IP)
	if err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	return token, nil
}

// Authenticate maps a cookie token to the signed-in user. It answers nil for
// an unknown or expired session. When the session was last extended more than
// RenewEvery ago, it is extended to SessionTTL from now and renewed is true:
// the caller sends the cookie again with a fresh lifetime.
func (s *Service) Authenticate(ctx context.Context, token string) (p *Principal, renewed bool, err error) {
	if token == "" || len(token) > 128 {
		return nil, false, nil
	}
	now := s.clock()
	var (
		lastSeen  store.Time
		emailNorm string
		confirmed store.NullTime
		granted   bool
	)
	p = &Principal{}
	err = s.db.ReadRow(ctx,
		`SELECT s.id, s.user_id, s.last_seen_at, u.email, u.email_normalized, u.email_confirmed_at,
		        EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin')
		 FROM auth_sessions s JOIN users u ON u.id = s.user_id
		 WHERE s.token_hash = $1 AND s.expires_at > $2`,
		HashToken(token), now).Scan(&p.SessionID, &p.UserID, &lastSeen, &p.Email, &emailNorm, &confirmed, &granted)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("look up session: %w", err)
	}
	p.EmailConfirmed = confirmed.Valid
	p.Admin = s.isAdmin(emailNorm, p.EmailConfirmed, granted)
	if now.Sub(lastSeen.Time) >= RenewEvery {
		_, err := s.db.Write.ExecContext(ctx,
			`UPDATE auth_sessions SET last_seen_at = $1, expires_at = $2 WHERE id = $3`,
			now, store.At(now.Add(SessionTTL)), p.SessionID)
		if err != nil {
			return nil, false, fmt.Errorf("renew session: %w", err)
		}
		renewed = true
	}
	return p, renewed, nil
}

// ForgetSession deletes the session behind a token that no longer works
// (expired), so a stale cookie costs one lookup, not one per request.
func (s *Service) ForgetSession(ctx context.Context, token string) error {
	_, err := s.db.Write.ExecContext(ctx,
		`DELETE FROM auth_sessions WHERE token_hash = $1 AND expires_at <= $2`, HashToken(token), s.clock())
	if err != nil {
		return fmt.Errorf("delete expired session: %w", err)
	}
	return nil
}

// SignOut ends one session, or with global every session of its user.
func (s *Service) SignOut(ctx context.Context, p *Principal, global bool) error {
	var err error
	if global {
		_, err = s.db.Write.ExecContext(ctx, `DELETE FROM auth_sessions WHERE user_id = $1`, p.UserID)
	} else {
		_, err = s.db.Write.ExecContext(ctx, `DELETE FROM auth_sessions WHERE id = $1`, p.SessionID)
	}
	if err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	return nil
}

// SessionActive reports whether a browser session still exists and has not
// expired. It only reads, so a long-lived stream does not extend the session.
func (s *Service) SessionActive(ctx context.Context, sessionID string) (bool, error) {
	var n int
	err := s.db.Read.QueryRowContext(ctx,
		`SELECT count(*) FROM auth_sessions WHERE id = $1 AND expires_at > $2`, sessionID, s.clock()).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("check session: %w", err)
	}
	return n > 0, nil
}
