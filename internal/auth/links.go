package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"time"

	"tribe/internal/mail"
	"tribe/internal/store"
)

// createEmailToken stores a single-use link token for userID and returns it.
func (s *Service) createEmailToken(ctx context.Context, tx *sql.Tx, userID, purpose string) (string, error) {
	ttl := ConfirmTTL
	if purpose == "reset" {
		ttl = ResetTTL
	}
	now := s.clock()
	// Links of this user past their lifetime are of no further use.
	if _, err := tx.ExecContext(ctx,
		`DELETE FROM email_tokens WHERE user_id = $1 AND expires_at <= $2`, userID, now); err != nil {
		return "", fmt.Errorf("delete expired links: %w", err)
	}
	token, hash := newToken()
	_, err := tx.ExecContext(ctx,
		`INSERT INTO email_tokens (id, user_id, purpose, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		store.NewID(), userID, purpose, hash, now, store.At(now.Add(ttl)))
	if err != nil {
		return "", fmt.Errorf("store %s link: %w", purpose, err)
	}
	return token, nil
}

// ConfirmURL is the confirmation link for token.
func (s *Service) ConfirmURL(token string) string {
	return s.cfg.BaseURL + "/auth/confirm?token=" + url.QueryEscape(token)
}

// ResetURL is the password-reset link for token.
func (s *Service) ResetURL(token string) string {
	return s.cfg.BaseURL + "/auth?reset=true&token=" + url.QueryEscape(token)
}

func (s *Service) sendConfirmation(ctx context.Context, tx *sql.Tx, userID, email, name string) error {
	token, err := s.createEmailToken(ctx, tx, userID, "confirm")
	if err != nil {
		return err
	}
	_, err = mail.Enqueue(ctx, tx, confirmMail(email, name, s.ConfirmURL(token)))
	return err
}

// ResendConfirmation mails a new confirmation link to a signed-in user. It
// reports false when the address is already confirmed (nothing is sent).
func (s *Service) ResendConfirmation(ctx context.Context, userID string) (bool, error) {
	sent := false
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var email, name string
		var confirmed store.NullTime
		err := tx.QueryRowContext(ctx,
			`SELECT u.email, u.email_confirmed_at, COALESCE(p.full_name, '')
			 FROM users u LEFT JOIN profiles p ON p.id = u.id WHERE u.id = $1`, userID).Scan(&email, &confirmed, &name)
		if err != nil {
			return fmt.Errorf("load account: %w", err)
		}
		if confirmed.Valid {
			return nil
		}
		sent = true
		return s.sendConfirmation(ctx, tx, userID, email, name)
	})
	if err != nil {
		return false, fmt.Errorf("resend confirmation: %w", err)
	}
	return sent, nil
}

// ConfirmEmail uses a confirmation link on behalf of the signed-in user of
// ctx (WithPrincipal; the web layer puts it there). It gives ErrTokenUsed,
// ErrTokenExpired or ErrInvalidToken when the link cannot be used, and
// ErrConfirmNeedsSignIn when ctx holds no session of the account the link
// confirms. Confirming ends every other session of the account and revokes
// its other credentials (see revokeCredentials); the confirming session
// stays, and the profile name counts as the owner's, since its holder both
// signed in and proved the mailbox.
func (s *Service) ConfirmEmail(ctx context.Context, token string) error {
	if token == "" || len(token) > 128 {
		return ErrInvalidToken
	}
	p, _ := PrincipalFrom(ctx)
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		now := s.clock()
		var id, userID string
		var expires store.Time
		var used store.NullTime
		err := tx.QueryRowContext(ctx,
			`SELECT id, user_id, expires_at, used_at FROM email_tokens WHERE token_hash = $1 AND purpose = 'confirm'`,
			HashToken(token)).Scan(&id, &userID, &expires, &used)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return ErrInvalidToken
		case err != nil:
			return fmt.Errorf("look up confirmation link: %w", err)
		case used.Valid:
			return ErrTokenUsed
		case !expires.After(now.Time):
			return ErrTokenExpired
		case p == nil || p.UserID != userID:
			return ErrConfirmNeedsSignIn
		}
		res, err := tx.ExecContext(ctx, `UPDATE email_tokens SET used_at = $1 WHERE id = $2 AND used_at IS NULL`, now, id)
		if err != nil {
			return fmt.Errorf("use confirmation link: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrTokenUsed
		}
		if _, err := tx.ExecContext(ctx,
			`UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, $1), updated_at = $1 WHERE id = $2`,
			now, userID); err != nil {
			return fmt.Errorf("confirm address: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET name_confirmed = TRUE WHERE id = $1`, userID); err != nil {
			return fmt.Errorf("confirm profile name: %w", err)
		}
		return revokeCredentials(ctx, tx, userID, p.SessionID)
	})
}

// RequestPasswordReset mails a reset link when the address has an account
// and does nothing otherwise; the caller answers the same either way. An
// address CheckEmail refuses is refused at once (it cannot have an account). It
// takes at least the service's reset floor (ResetFloor by default) so the
// time it takes does not tell whether an account exists.
func (s *Service) RequestPasswordReset(ctx context.Context, email string) error {
	addr, err := CheckEmail(email)
	if err != nil {
		return err
	}
	start := time.Now()
	err = s.requestPasswordReset(ctx, addr.Key)
	if wait := s.resetFloor - time.Since(start); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return err
}

func (s *Service) requestPasswordReset(ctx context.Context, norm string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		var id, addr string
		err := tx.QueryRowContext(ctx, `SELECT id, email FROM users WHERE email_normalized = $1`, norm).Scan(&id, &addr)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("password reset: look up account: %w", err)
		}
		token, err := s.createEmailToken(ctx, tx, id, "reset")
		if err != nil {
			return err
		}
		_, err = mail.Enqueue(ctx, tx, resetMail(addr, s.ResetURL(token)))
		return err
	})
}

// ResetPassword uses a reset link to set a new password. It ends every
// session of the user and revokes its other credentials (revokeCredentials),
// marks the address confirmed (the link proved the mailbox), and starts one
// new session whose token it returns. When the address was not confirmed
// before, the reset is a takeover: the steps given WithTakeover clear what
// the account's maker wrote, in the same transaction (see takeOver).
func (s *Service) ResetPassword(ctx context.Context, token, password string, c Client) (*User, string, error) {
	if err := CheckPassword(password); err != nil {
		return nil, "", err
	}
	if token == "" || len(token) > 128 {
		return nil, "", ErrInvalidToken
	}
	hashToken := HashToken(token)
	// A cheap look first, so a made-up token costs no password hashing.
	var exists int
	err := s.db.Read.QueryRowContext(ctx,
		`SELECT 1 FROM email_tokens WHERE token_hash = $1 AND purpose = 'reset' AND used_at IS NULL AND expires_at > $2`,
		hashToken, s.clock()).Scan(&exists)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", ErrInvalidToken
	}
	if err != nil {
		return nil, "", fmt.Errorf("look up reset link: %w", err)
	}
	hash, err := s.hash(ctx, password)
	if err != nil {
		return nil, "", err
	}
	var userID, session, email string
	var after []func(context.Context)
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		after = nil
		now := s.clock()
		err := tx.QueryRowContext(ctx,
			`UPDATE email_tokens SET used_at = $1
			 WHERE token_hash = $2 AND purpose = 'reset' AND used_at IS NULL AND expires_at > $1
			 RETURNING user_id`, now, hashToken).Scan(&userID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrInvalidToken
		}
		if err != nil {
			return fmt.Errorf("use reset link: %w", err)
		}
		var confirmed store.NullTime
		if err := tx.QueryRowContext(ctx, `SELECT email_confirmed_at FROM users WHERE id = $1`, userID).Scan(&confirmed); err != nil {
			return fmt.Errorf("read account: %w", err)
		}
		if err := tx.QueryRowContext(ctx,
			`UPDATE users SET password_hash = $1, email_confirmed_at = COALESCE(email_confirmed_at, $2), updated_at = $2
			 WHERE id = $3 RETURNING email`, hash, now, userID).Scan(&email); err != nil {
			return fmt.Errorf("set password: %w", err)
		}
		if !confirmed.Valid {
			if after, err = s.takeOver(ctx, tx, userID); err != nil {
				return err
			}
		}
		// Any other reset link mailed earlier must not work after this one.
		if _, err := tx.ExecContext(ctx,
			`UPDATE email_tokens SET used_at = $1 WHERE user_id = $2 AND purpose = 'reset' AND used_at IS NULL`, now, userID); err != nil {
			return fmt.Errorf("retire reset links: %w", err)
		}
		// The resetter proved the mailbox but may not be whoever made the
		// account: nothing made before this point may act for it any more.
		// The profile name stays as it was, so a name typed before the
		// address was proven is still reported as unverified.
		if err := revokeCredentials(ctx, tx, userID, ""); err != nil {
			return err
		}
		if session, err = s.createSession(ctx, tx, userID, c); err != nil {
			return err
		}
		_, err = mail.Enqueue(ctx, tx, passwordChangedMail(email, s.cfg.BaseURL))
		return err
	})
	if errors.Is(err, ErrInvalidToken) {
		return nil, "", err
	}
	if err != nil {
		return nil, "", fmt.Errorf("reset password: %w", err)
	}
	for _, fn := range after {
		fn(context.WithoutCancel(ctx))
	}
	u, err := s.User(ctx, userID)
	if err != nil {
		return nil, "", err
	}
	return u, session, nil
}
