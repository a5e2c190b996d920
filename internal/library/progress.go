package library

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// progressOf reads a member's place in an item (zero when none).
func (s *Service) progressOf(ctx context.Context, q querier, userID, id string) (Progress, error) {
	var p Progress
	err := q.QueryRowContext(ctx, `SELECT position_s, completed FROM library_progress WHERE user_id = $1 AND item_id = $2`,
		userID, id).Scan(&p.PositionS, &p.Completed)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("read progress: %w", err)
	}
	return p, nil
}

// SaveProgress records where v is in an item they may open. Reaching
// CompletedShare of its duration marks it finished; a finished item stays
// finished until the member unmarks it (completed: false), so watching it
// again from the start keeps the mark. Playing a recording is noted for
// the day (library_plays), for Insights' "replays watched".
func (s *Service) SaveProgress(ctx context.Context, v access.Viewer, id string, in ProgressInput) (*Progress, error) {
	if in.PositionS < 0 || in.PositionS > MaxDuration {
		return nil, errs.Field("position_s", fmt.Sprintf("The position must be 0 to %d seconds.", MaxDuration))
	}
	r, err := s.openable(ctx, v, id)
	if err != nil {
		return nil, err
	}
	p := Progress{PositionS: in.PositionS}
	if r.durationS > 0 && p.PositionS > r.durationS {
		p.PositionS = r.durationS
	}
	now := store.At(s.o.Clock())
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		old, err := s.progressOf(ctx, tx, v.UserID, id)
		if err != nil {
			return err
		}
		switch {
		case in.Completed != nil:
			p.Completed = *in.Completed
		default:
			p.Completed = old.Completed || (r.durationS > 0 && float64(p.PositionS) >= CompletedShare*float64(r.durationS))
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO library_progress (item_id, user_id, position_s, completed, updated_at)
			VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (user_id, item_id) DO UPDATE SET position_s = excluded.position_s, completed = excluded.completed,
			updated_at = excluded.updated_at`,
			id, v.UserID, p.PositionS, p.Completed, now)
		if err != nil || r.kind != KindRecording || (p.PositionS == 0 && !p.Completed) {
			return err
		}
		return recordPlay(ctx, tx, id, v.UserID, s.o.Clock(), p.Completed && !old.Completed)
	})
	if err != nil {
		return nil, wrap("save progress", err)
	}
	return &p, nil
}

// Stats counts the members who started and who finished an item (admins).
func (s *Service) Stats(ctx context.Context, v access.Viewer, id string) (*Stats, error) {
	if !v.Admin {
		return nil, ErrForAdmins
	}
	if _, err := loadRow(ctx, s.db.Read, id, false); err != nil {
		return nil, wrap("read library item", err)
	}
	var st Stats
	err := s.db.Read.QueryRowContext(ctx, `SELECT
			COALESCE(SUM(CASE WHEN position_s > 0 OR completed THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN completed THEN 1 ELSE 0 END), 0)
		FROM library_progress WHERE item_id = $1`, id).Scan(&st.Started, &st.Finished)
	if err != nil {
		return nil, fmt.Errorf("library stats: %w", err)
	}
	return &st, nil
}
