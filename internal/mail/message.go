// Package mail writes outgoing e-mail to a persistent outbox and delivers it
// through SMTP with retries; without SMTP the outbox is the development mailbox.
package mail

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/mail"
	"strings"

	"tribe/internal/store"
)

// Message is one e-mail to one recipient. Text is required; HTML is optional.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
}

// Execer is satisfied by *sql.DB and *sql.Tx, so a message can be queued in the
// same transaction as the change that causes it.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Enqueue writes m to the outbox; the delivery worker sends it later. It
// returns the new message's id.
func Enqueue(ctx context.Context, db Execer, m Message) (string, error) {
	if _, err := mail.ParseAddress(m.To); err != nil {
		return "", fmt.Errorf("enqueue mail: bad recipient %q: %w", m.To, err)
	}
	if strings.TrimSpace(m.Subject) == "" || strings.TrimSpace(m.Text) == "" {
		return "", errors.New("enqueue mail: subject and text body are required")
	}
	id := store.NewID()
	_, err := db.ExecContext(ctx,
		`INSERT INTO mail_outbox (id, to_addr, subject, text_body, html_body, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		id, m.To, m.Subject, m.Text, m.HTML, store.Now())
	if err != nil {
		return "", fmt.Errorf("enqueue mail to %s: %w", m.To, err)
	}
	return id, nil
}
