// Package waitlist keeps the tribe's wait list: one entry per address,
// confirmed by e-mail, listed and exported for admins.
package waitlist

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"tribe/internal/auth"
	"tribe/internal/csvx"
	"tribe/internal/mail"
	"tribe/internal/store"
)

// Entry is one person on the wait list.
type Entry struct {
	ID        string
	FullName  string
	Email     string
	CreatedAt time.Time
}

// Join adds a person to the wait list and queues the confirmation e-mail in
// the same transaction. It reports false, sending nothing, when the address
// is already on the list. Names and addresses are validated like sign-up's
// (an address is kept in the one form auth.CheckEmail gives).
func Join(ctx context.Context, db *store.DB, fullName, email, baseURL string) (bool, error) {
	name, err := auth.CheckFullName(fullName)
	if err != nil {
		return false, err
	}
	addr, err := auth.CheckEmail(email)
	if err != nil {
		return false, err
	}
	added := false
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`INSERT INTO waitlist (id, full_name, email, email_normalized, created_at) VALUES ($1, $2, $3, $4, $5)
			 ON CONFLICT (email_normalized) DO NOTHING`,
			store.NewID(), name, addr.Mailbox, addr.Key, store.Now())
		if err != nil {
			return fmt.Errorf("insert wait-list entry: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("insert wait-list entry: %w", err)
		}
		if n == 0 {
			return nil
		}
		added = true
		_, err = mail.Enqueue(ctx, tx, joinedMail(addr.Mailbox, name, baseURL))
		return err
	})
	if err != nil {
		return false, fmt.Errorf("join wait list: %w", err)
	}
	return added, nil
}

// List returns every entry, newest first.
func List(ctx context.Context, db *store.DB) ([]Entry, error) {
	rows, err := db.Read.QueryContext(ctx,
		`SELECT id, full_name, email, created_at FROM waitlist ORDER BY created_at DESC, id DESC`)
	if err != nil {
		return nil, fmt.Errorf("list wait list: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []Entry{}
	for rows.Next() {
		var e Entry
		var created store.Time
		if err := rows.Scan(&e.ID, &e.FullName, &e.Email, &created); err != nil {
			return nil, fmt.Errorf("list wait list: %w", err)
		}
		e.CreatedAt = created.Time
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list wait list: %w", err)
	}
	return out, nil
}

// WriteCSV writes entries as CSV (csvx: CRLF, formula-safe) with a header row.
func WriteCSV(w *csvx.Writer, entries []Entry) error {
	if err := w.Write("full_name", "email", "joined_at"); err != nil {
		return err
	}
	for _, e := range entries {
		if err := w.Write(e.FullName, e.Email, e.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z")); err != nil {
			return err
		}
	}
	return w.Flush()
}

func joinedMail(to, name, base string) mail.Message {
	return mail.Compose(mail.Content{
		To:      to,
		Subject: "You're on the tribe wait list",
		Heading: "You're on the list, " + name,
		Paragraphs: []string{
			"Thanks for joining the wait list for the tribe. This e-mail confirms your place.",
			"What happens next: the tribe is at capacity right now. When spots open up we will e-mail you at this address, and people on the wait list get priority access before spots are offered to anyone else.",
			"There is nothing else you need to do until then.",
		},
		Button: &mail.Link{Label: "Read about the tribe", URL: base + "/tribe"},
		Footer: "You received this because this address was added to the wait list. If it was not you, ignore this message and we will not write again unless a spot opens.",
	})
}
