package forum

import (
	"context"
	"fmt"
	"time"

	"tribe/internal/store"
)

// Highlight is one thread a digest names: its title, its link (a path of
// the members area) and how much happened on it.
type Highlight struct {
	ID, Title, Link string
	Replies         int
}

// Highlights is what a digest tells of the community after a time: the
// busiest threads (most replies and 🔥 since then; announcements aside,
// which everyone was told of) and the questions still waiting for an
// answer, at most n of each, only what everyone may see.
func Highlights(ctx context.Context, db *store.DB, since time.Time, n int) (top, unanswered []Highlight, err error) {
	at := store.At(since)
	top, err = highlights(ctx, db, `SELECT t.id, t.title,
		(SELECT COUNT(*) FROM forum_replies r WHERE r.thread_id = t.id AND r.hidden_at IS NULL AND r.created_at > $1) AS replies,
		(SELECT COUNT(*) FROM forum_replies r WHERE r.thread_id = t.id AND r.hidden_at IS NULL AND r.created_at > $1) +
		(SELECT COUNT(*) FROM forum_thread_reactions x WHERE x.thread_id = t.id AND x.created_at > $1) AS activity
		FROM forum_threads t
		WHERE t.hidden_at IS NULL AND t.category <> 'announcement' AND t.last_activity_at > $1
		ORDER BY activity DESC, t.last_activity_at DESC, t.id LIMIT $2`, at, n)
	if err != nil {
		return nil, nil, err
	}
	kept := top[:0]
	for _, h := range top {
		if h.Replies > 0 {
			kept = append(kept, h)
		}
	}
	unanswered, err = highlights(ctx, db, `SELECT t.id, t.title, 0, 0 FROM forum_threads t
		WHERE t.hidden_at IS NULL AND `+unansweredSQL+` AND t.created_at > $1
		ORDER BY t.created_at DESC, t.id LIMIT $2`, at, n)
	if err != nil {
		return nil, nil, err
	}
	return kept, unanswered, nil
}

func highlights(ctx context.Context, db *store.DB, q string, args ...any) ([]Highlight, error) {
	rows, err := db.ReadRows(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("community highlights: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []Highlight
	for rows.Next() {
		var h Highlight
		var activity int
		if err := rows.Scan(&h.ID, &h.Title, &h.Replies, &activity); err != nil {
			return nil, fmt.Errorf("community highlights: %w", err)
		}
		h.Link = threadLink(h.ID)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("community highlights: %w", err)
	}
	return out, nil
}
