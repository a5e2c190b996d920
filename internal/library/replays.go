package library

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"tribe/internal/access"
	"tribe/internal/store"
)

// Replays maps each session that has a published library item to the item
// its card links to ("Watch the replay"): its recording when it has one,
// else its newest item. Every signed-in viewer gets the links, as every
// viewer sees the titles in the list; the item's page says what is locked.
func (s *Service) Replays(ctx context.Context, v access.Viewer) (map[string]string, error) {
	if v.Anonymous() {
		return nil, errNotSignedIn
	}
	rows, err := s.db.ReadRows(ctx, `SELECT session_id, id FROM library_items
		WHERE session_id IS NOT NULL AND published_at IS NOT NULL AND published_at <= $1
		ORDER BY CASE WHEN kind = 'recording' THEN 0 ELSE 1 END, published_at DESC, id`, store.At(s.o.Clock()))
	if err != nil {
		return nil, fmt.Errorf("list replays: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string]string{}
	for rows.Next() {
		var session, id string
		if err := rows.Scan(&session, &id); err != nil {
			return nil, fmt.Errorf("list replays: %w", err)
		}
		if _, seen := out[session]; !seen {
			out[session] = id
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list replays: %w", err)
	}
	return out, nil
}

// Play is one member playing one recording on one day (UTC).
type Play struct {
	Day            time.Time
	UserID, ItemID string
	// Finished: the member finished the recording that day.
	Finished bool
}

// Plays lists the days members played recordings in [from, to), the
// history behind Insights' "replays watched".
func Plays(ctx context.Context, db *store.DB, from, to time.Time) ([]Play, error) {
	rows, err := db.ReadRows(ctx, `SELECT day, user_id, item_id, finished FROM library_plays
		WHERE day >= $1 AND day < $2 ORDER BY day, user_id, item_id`,
		from.UTC().Format(time.DateOnly), to.UTC().Format(time.DateOnly))
	if err != nil {
		return nil, fmt.Errorf("list replay plays: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []Play{}
	for rows.Next() {
		var p Play
		var day string
		if err := rows.Scan(&day, &p.UserID, &p.ItemID, &p.Finished); err != nil {
			return nil, fmt.Errorf("list replay plays: %w", err)
		}
		if p.Day, err = time.Parse(time.DateOnly, day); err != nil {
			return nil, fmt.Errorf("replay play day %q: %w", day, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list replay plays: %w", err)
	}
	return out, nil
}

// recordPlay notes that a member played a recording today (UTC), and
// whether they finished it with this save.
func recordPlay(ctx context.Context, tx *sql.Tx, itemID, userID string, now time.Time, finished bool) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO library_plays (item_id, user_id, day, finished) VALUES ($1, $2, $3, $4)
		ON CONFLICT (item_id, user_id, day) DO UPDATE SET finished = (library_plays.finished OR excluded.finished)`,
		itemID, userID, now.UTC().Format(time.DateOnly), finished)
	if err != nil {
		return fmt.Errorf("record play: %w", err)
	}
	return nil
}
