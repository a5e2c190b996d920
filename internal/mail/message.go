// Package mail writes outgoing e-mail to a persistent outbox and delivers it
// through SMTP with retries; without SMTP the outbox is the development mailbox.
package mail

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/mail"
	"strings"

	"tribe/internal/store"
)

// Message is one e-mail to one recipient. Text is required; HTML and
// attachments are optional.
type Message struct {
	To          string
	Subject     string
	Text        string
	HTML        string
	Attachments []Attachment
	// ListUnsubscribe is the https URL that unsubscribes the recipient from
	// this kind of mail in one click (RFC 8058): sent as List-Unsubscribe
	// with List-Unsubscribe-Post, so mail clients offer their own button.
	// Empty for mail a member cannot opt out of (sign-up, resets).
	ListUnsubscribe string
}

// Attachment is a file sent with a message, such as a calendar invitation.
type Attachment struct {
	Filename string `json:"filename"`
	// ContentType is the full media type with its parameters, e.g.
	// "text/calendar; method=REQUEST; charset=UTF-8".
	ContentType string `json:"content_type"`
	Data        []byte `json:"data"`
}

// maxAttachments bounds the files of one message; invitations need one.
const maxAttachments = 5

// Execer is satisfied by *sql.DB and *sql.Tx, so a message can be queued in the
// same transaction as the change that causes it.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Enqueue writes m to the outbox; the delivery worker sends it later. It
// returns the new message's id.
func Enqueue(ctx context.Context, db Execer, m Message) (string, error) {
	id, _, err := enqueue(ctx, db, "", m)
	return id, err
}

// EnqueueOnce writes m to the outbox unless a message with the same key was
// queued before, by this process or another instance on the same database
// (a unique index decides). It reports whether m was queued now. Keys name
// what a planned message is for, e.g. a booking's reminder and its time.
func EnqueueOnce(ctx context.Context, db Execer, key string, m Message) (bool, error) {
	if key == "" || len(key) > 200 {
		return false, fmt.Errorf("enqueue mail: key %q must be 1 to 200 characters", key)
	}
	_, queued, err := enqueue(ctx, db, key, m)
	return queued, err
}

// DropPlanned deletes the messages not yet sent whose key starts with
// prefix (what they were planned for no longer holds, e.g. a cancelled
// booking's reminders) and returns how many. A message being sent is left.
func DropPlanned(ctx context.Context, db Execer, prefix string) (int64, error) {
	if prefix == "" {
		return 0, errors.New("drop planned mail: empty key prefix")
	}
	res, err := db.ExecContext(ctx, `DELETE FROM mail_outbox WHERE status = 'pending'
		AND substr(idempotency_key, 1, $1) = $2`, len(prefix), prefix)
	if err != nil {
		return 0, fmt.Errorf("drop planned mail %s: %w", prefix, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("drop planned mail %s: %w", prefix, err)
	}
	return n, nil
}

func enqueue(ctx context.Context, db Execer, key string, m Message) (string, bool, error) {
	if _, err := mail.ParseAddress(m.To); err != nil {
		return "", false, fmt.Errorf("enqueue mail: bad recipient %q: %w", m.To, err)
	}
	if strings.TrimSpace(m.Subject) == "" || strings.TrimSpace(m.Text) == "" {
		return "", false, errors.New("enqueue mail: subject and text body are required")
	}
	if len(m.Attachments) > maxAttachments {
		return "", false, fmt.Errorf("enqueue mail: %d attachments, at most %d", len(m.Attachments), maxAttachments)
	}
	for _, a := range m.Attachments {
		if _, _, err := mime.ParseMediaType(a.ContentType); err != nil || a.Filename == "" || strings.ContainsAny(a.Filename, "/\\\r\n\"") {
			return "", false, fmt.Errorf("enqueue mail: attachment %q of type %q", a.Filename, a.ContentType)
		}
	}
	files := m.Attachments
	if files == nil {
		files = []Attachment{}
	}
	raw, err := json.Marshal(files)
	if err != nil {
		return "", false, fmt.Errorf("enqueue mail: attachments: %w", err)
	}
	if m.ListUnsubscribe != "" && (!strings.HasPrefix(m.ListUnsubscribe, "https://") && !strings.HasPrefix(m.ListUnsubscribe, "http://") ||
		strings.ContainsAny(m.ListUnsubscribe, "<>\r\n \t")) {
		return "", false, fmt.Errorf("enqueue mail: unsubscribe link %q is not an http(s) URL", m.ListUnsubscribe)
	}
	var idem any
	if key != "" {
		idem = key
	}
	id := store.NewID()
	res, err := db.ExecContext(ctx,
		`INSERT INTO mail_outbox (id, to_addr, subject, text_body, html_body, attachments, idempotency_key, next_attempt_at, list_unsubscribe)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
		id, m.To, m.Subject, m.Text, m.HTML, string(raw), idem, store.Now(), m.ListUnsubscribe)
	if err != nil {
		return "", false, fmt.Errorf("enqueue mail to %s: %w", m.To, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return "", false, fmt.Errorf("enqueue mail to %s: %w", m.To, err)
	}
	if n == 0 {
		return "", false, nil
	}
	return id, true, nil
}
