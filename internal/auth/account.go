package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tribe/internal/errs"
	"tribe/internal/mail"
	"tribe/internal/store"
)

// User is an account as the web app sees it: profile, admin rights and
// subscription included.
type User struct {
	ID             string
	Email          string
	EmailConfirmed bool
	FullName       string
	AvatarURL      *string
	IsAdmin        bool
	// NameUnverified: the address is confirmed, but the profile name was
	// set before it was, possibly by someone who signed up with an address
	// they did not own. It stays true until the owner saves their profile.
	NameUnverified bool
	CreatedAt      time.Time
	// Subscription is nil for a free member.
	Subscription *Subscription
}

// SignUpInput is what a person types to create an account.
type SignUpInput struct {
	FullName string
	Email    string
	Password string
}

// SignUp creates the account, its profile, a confirmation link (mailed) and a
// first session, all in one transaction, and returns the user and the
// session token. An address that already has an account gives ErrEmailTaken
// and a notice to that account's owner; of two simultaneous sign-ups with one
// address exactly one succeeds.
func (s *Service) SignUp(ctx context.Context, in SignUpInput, c Client) (*User, string, error) {
	name, err := CheckFullName(in.FullName)
	if err != nil {
		return nil, "", err
	}
	addr, err := CheckEmail(in.Email)
	if err != nil {
		return nil, "", err
	}
	email, norm := addr.Mailbox, addr.Key
	if err := CheckPassword(in.Password); err != nil {
		return nil, "", err
	}
	hash, err := s.hash(ctx, in.Password)
	if err != nil {
		return nil, "", err
	}
	id := store.NewID()
	var token string
	taken := false
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		now := s.clock()
		// ON CONFLICT DO NOTHING makes the loser of a race see zero rows
		// instead of an error that would abort a PostgreSQL transaction.
		res, err := tx.ExecContext(ctx,
			`INSERT INTO users (id, email, email_normalized, password_hash, created_at, updated_at)
			 VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (email_normalized) DO NOTHING`,
			id, email, norm, hash, now)
		if err != nil {
			return fmt.Errorf("insert user: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("insert user: %w", err)
		} else if n == 0 {
			taken = true
			return s.mailSignUpAttempt(ctx, tx, norm)
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO profiles (id, email, full_name, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)`,
			id, email, name, now); err != nil {
			return fmt.Errorf("insert profile: %w", err)
		}
		if err := s.sendConfirmation(ctx, tx, id, email, name); err != nil {
			return err
		}
		token, err = s.createSession(ctx, tx, id, c)
		return err
	})
	if err != nil {
		return nil, "", fmt.Errorf("sign up: %w", err)
	}
	if taken {
		return nil, "", ErrEmailTaken
	}
	u, err := s.User(ctx, id)
	if err != nil {
		return nil, "", err
	}
	return u, token, nil
}

// mailSignUpAttempt tells an account's owner that someone tried to sign up
// with their address, so a taken address is not a silent dead end.
func (s *Service) mailSignUpAttempt(ctx context.Context, tx *sql.Tx, norm string) error {
	var email string
	if err := tx.QueryRowContext(ctx, `SELECT email FROM users WHERE email_normalized = $1`, norm).Scan(&email); err != nil {
		return fmt.Errorf("find existing account: %w", err)
	}
	_, err := mail.Enqueue(ctx, tx, signUpAttemptMail(email, s.cfg.BaseURL))
	return err
}

// SignIn checks an address and password and starts a new session. An unknown
// address and a wrong password both give ErrInvalidCredentials after the same
// hashing work.
func (s *Service) SignIn(ctx context.Context, email, password string, c Client) (*User, string, error) {
	addr, err := CheckEmail(email)
	if err != nil {
		return nil, "", err
	}
	norm := addr.Key
	if password == "" {
		return nil, "", errs.Field("password", "Password is required.")
	}
	if len(password) > 4*MaxPasswordLen {
		// Cannot match any account; still pay the hashing cost.
		if _, err := s.verify(ctx, "", s.dummy()); err != nil {
			return nil, "", err
		}
		return nil, "", ErrInvalidCredentials
	}
	var id, hash string
	err = s.db.Read.QueryRowContext(ctx,
		`SELECT id, password_hash FROM users WHERE email_normalized = $1`, norm).Scan(&id, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := s.verify(ctx, password, s.dummy()); err != nil {
			return nil, "", err
		}
		return nil, "", ErrInvalidCredentials
	}
	if err != nil {
		return nil, "", fmt.Errorf("sign in: look up account: %w", err)
	}
	if _, _, _, err := decodeHash(hash); err != nil {
		// A hash no password can match (an account stored without one):
		// the same answer and cost as a wrong password, so a failure here
		// neither errs nor tells which addresses have such accounts.
		if _, err := s.verify(ctx, password, s.dummy()); err != nil {
			return nil, "", err
		}
		return nil, "", ErrInvalidCredentials
	}
	ok, err := s.verify(ctx, password, hash)
	if err != nil {
		return nil, "", fmt.Errorf("sign in: %w", err)
	}
	if !ok {
		return nil, "", ErrInvalidCredentials
	}
	rehash := ""
	if needsRehash(hash, s.params) {
		if rehash, err = s.hash(ctx, password); err != nil {
			return nil, "", err
		}
	}
	var token string
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		if rehash != "" {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $1 WHERE id = $2 AND password_hash = $3`,
				rehash, id, hash); err != nil {
				return fmt.Errorf("upgrade password hash: %w", err)
			}
		}
		var err error
		token, err = s.createSession(ctx, tx, id, c)
		return err
	})
	if err != nil {
		return nil, "", fmt.Errorf("sign in: %w", err)
	}
	u, err := s.User(ctx, id)
	if err != nil {
		return nil, "", err
	}
	return u, token, nil
}

// User loads an account with profile, admin rights and subscription; nil
// without error when it does not exist.
func (s *Service) User(ctx context.Context, id string) (*User, error) {
	var (
		u         User
		norm      string
		confirmed store.NullTime
		created   store.Time
		granted   bool
		nameOK    bool
	)
	err := s.db.Read.QueryRowContext(ctx,
		`SELECT u.id, u.email, u.email_normalized, u.email_confirmed_at, u.created_at,
		        COALESCE(p.full_name, ''), p.avatar_url, COALESCE(p.name_confirmed, TRUE),
		        EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin')
		 FROM users u
		 LEFT JOIN profiles p ON p.id = u.id
		 WHERE u.id = $1`, id).Scan(&u.ID, &u.Email, &norm, &confirmed, &created,
		&u.FullName, &u.AvatarURL, &nameOK, &granted)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load user %s: %w", id, err)
	}
	u.EmailConfirmed = confirmed.Valid
	u.NameUnverified = u.EmailConfirmed && !nameOK
	u.CreatedAt = created.Time
	u.IsAdmin = s.isAdmin(norm, u.EmailConfirmed, granted)
	if u.Subscription, err = subscriptionOf(ctx, s.db, id); err != nil {
		return nil, err
	}
	return &u, nil
}
