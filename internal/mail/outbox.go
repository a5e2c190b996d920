package mail

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tribe/internal/store"
)

// ErrNotFound is returned by Get for an id the outbox does not hold.
var ErrNotFound = errors.New("mail not found")

// Stored is one outbox row as the development mailbox shows it.
type Stored struct {
	ID        string
	To        string
	Subject   string
	Text      string
	HTML      string
	Status    string // pending, sending, sent or failed
	Attempts  int
	LastError string
	CreatedAt time.Time
}

const storedColumns = `id, to_addr, subject, text_body, html_body, status, attempts, last_error, created_at`

func scanStored(row interface{ Scan(...any) error }) (Stored, error) {
	var s Stored
	var created store.Time
	err := row.Scan(&s.ID, &s.To, &s.Subject, &s.Text, &s.HTML, &s.Status, &s.Attempts, &s.LastError, &created)
	s.CreatedAt = created.Time
	return s, err
}

// List returns up to limit outbox messages, newest first.
func List(ctx context.Context, db *store.DB, limit int) ([]Stored, error) {
	rows, err := db.Read.QueryContext(ctx,
		`SELECT `+storedColumns+` FROM mail_outbox ORDER BY created_at DESC, id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("list mail outbox: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []Stored{}
	for rows.Next() {
		s, err := scanStored(rows)
		if err != nil {
			return nil, fmt.Errorf("read mail outbox: %w", err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list mail outbox: %w", err)
	}
	return out, nil
}

// Get returns one outbox message, or ErrNotFound.
func Get(ctx context.Context, db *store.DB, id string) (Stored, error) {
	s, err := scanStored(db.Read.QueryRowContext(ctx, `SELECT `+storedColumns+` FROM mail_outbox WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Stored{}, ErrNotFound
	}
	if err != nil {
		return Stored{}, fmt.Errorf("get mail %s: %w", id, err)
	}
	return s, nil
}

// CountByStatus is the number of outbox messages in each status.
func CountByStatus(ctx context.Context, db *store.DB) (map[string]int, error) {
	rows, err := db.Read.QueryContext(ctx, `SELECT status, COUNT(*) FROM mail_outbox GROUP BY status`)
	if err != nil {
		return nil, fmt.Errorf("count outbox: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string]int{}
	for rows.Next() {
		var status string
		var n int
		if err := rows.Scan(&status, &n); err != nil {
			return nil, fmt.Errorf("count outbox: %w", err)
		}
		out[status] = n
	}
	return out, rows.Err()
}
