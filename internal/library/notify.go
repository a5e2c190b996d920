package library

import (
	"context"
	"fmt"

	"tribe/internal/billing"
	"tribe/internal/community"
	"tribe/internal/store"
)

// announce tells the members who RSVP'd "going" to the item's session and
// did not attend it that its replay is up, once per item: the first change
// that finds it published with a session claims it (notified_at), so two
// instances or two edits never tell twice. Members without tribe access
// now are left out (they could not open it). A failure is logged: the
// item's change is made.
func (s *Service) announce(ctx context.Context, r *row) {
	if s.o.Notify == nil || r == nil || !r.sessionID.Valid || !r.published(s.o.Clock()) {
		return
	}
	if err := s.tellMissed(ctx, r); err != nil {
		s.o.Logger.Error("replay notices not sent", "item", r.id, "err", err)
	}
}

func (s *Service) tellMissed(ctx context.Context, r *row) error {
	res, err := s.db.Write.ExecContext(ctx, `UPDATE library_items SET notified_at = $1 WHERE id = $2 AND notified_at IS NULL`,
		store.At(s.o.Clock()), r.id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	rows, err := s.db.Read.QueryContext(ctx, `SELECT r.user_id FROM session_rsvps r
		WHERE r.session_id = $1 AND r.going
		AND NOT EXISTS (SELECT 1 FROM session_attendance a WHERE a.session_id = r.session_id AND a.user_id = r.user_id AND `+community.AttendedSQL+`)
		ORDER BY r.user_id`, r.sessionID.String)
	if err != nil {
		return err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			_ = rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var out []Notice
	for _, id := range ids {
		ok, err := billing.HasAccess(ctx, s.db, id)
		if err != nil {
			return err
		}
		if ok {
			out = append(out, Notice{MemberID: id, Title: "The replay is up: " + r.title,
				Body: "You missed the live session; watch it when it suits you.", Link: "/members/library/" + r.id})
		}
	}
	if len(out) == 0 {
		return nil
	}
	if err := s.o.Notify(ctx, out); err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	return nil
}
