package auth

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"

	"tribe/internal/store"
)

// Account is an existing account as the members import finds it.
type Account struct {
	ID       string
	Email    string
	FullName string
	// Confirmed is whether the address was ever proven. An account whose
	// address was not may have been made by someone who does not own the
	// mailbox (see takeOver): nothing is given to it until the owner
	// proves it.
	Confirmed bool
}

// AccountByEmailTx finds the account of an address (already checked with
// CheckEmail, so key is its one form) inside the caller's transaction; nil
// when there is none.
func (s *Service) AccountByEmailTx(ctx context.Context, tx *sql.Tx, key string) (*Account, error) {
	var a Account
	var confirmed store.NullTime
	err := tx.QueryRowContext(ctx, `SELECT u.id, u.email, COALESCE(p.full_name, ''), u.email_confirmed_at FROM users u
		 LEFT JOIN profiles p ON p.id = u.id WHERE u.email_normalized = $1`, key).Scan(&a.ID, &a.Email, &a.FullName, &confirmed)
	a.Confirmed = confirmed.Valid
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("find account: %w", err)
	}
	return &a, nil
}

// LockedPasswordHash is a password hash for accounts made without a
// password (the members import): the hash of random bytes nobody keeps, so
// no password signs in, while a sign-in attempt costs the same hashing as
// any other. Make one per import; it is slow on purpose.
func (s *Service) LockedPasswordHash(ctx context.Context) (string, error) {
	return s.hash(ctx, rand.Text()+rand.Text())
}

// CreateImportedTx creates the account and profile of a member moved in
// from elsewhere, inside the caller's transaction. name and email must have
// passed CheckFullName and CheckEmail (mailbox and key are the address's two
// forms), and the account is created now; hash comes from LockedPasswordHash. No mail is sent and the
// address is not confirmed: the member chooses a password with "Forgot
// password", whose link confirms the address. It returns the new id, or ""
// when the address already has an account.
func (s *Service) CreateImportedTx(ctx context.Context, tx *sql.Tx, name, mailbox, key, hash string) (string, error) {
	at := s.clock()
	id := store.NewID()
	res, err := tx.ExecContext(ctx,
		`INSERT INTO users (id, email, email_normalized, password_hash, created_at, updated_at)
		 VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (email_normalized) DO NOTHING`,
		id, mailbox, key, hash, at)
	if err != nil {
		return "", fmt.Errorf("insert imported user: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return "", err
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO profiles (id, email, full_name, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)`,
		id, mailbox, name, at); err != nil {
		return "", fmt.Errorf("insert imported profile: %w", err)
	}
	return id, nil
}
