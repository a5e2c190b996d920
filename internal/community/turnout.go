package community

import (
	"context"
	"fmt"
	"time"

	"tribe/internal/store"
)

// SessionTurnout is one session's RSVPs and attendance, for the owner's
// insights.
type SessionTurnout struct {
	ID       string
	Title    string
	StartsAt time.Time
	// Going said they would come; Present came (attendance as the sheet
	// counts it); PresentGoing came of those going.
	Going, Present, PresentGoing int
}

// Turnout lists the sessions that start in [from, to), cancelled ones left
// out, with their counts, in start order.
func Turnout(ctx context.Context, db *store.DB, from, to time.Time) ([]SessionTurnout, error) {
	all, err := loadSessions(ctx, db)
	if err != nil {
		return nil, err
	}
	out := []SessionTurnout{}
	index := map[string]int{}
	for _, s := range all {
		if s.Status == "cancelled" || s.StartsAt.Before(from) || !s.StartsAt.Before(to) {
			continue
		}
		index[s.ID] = len(out)
		out = append(out, SessionTurnout{ID: s.ID, Title: s.Title, StartsAt: s.StartsAt})
	}
	if len(out) == 0 {
		return out, nil
	}
	rows, err := db.Read.QueryContext(ctx, `
		SELECT session_id, SUM(going), SUM(present), SUM(going * present) FROM (
		    SELECT r.session_id, 1 AS going, CASE WHEN a.session_id IS NOT NULL AND `+attendedSQL+` THEN 1 ELSE 0 END AS present
		      FROM session_rsvps r LEFT JOIN session_attendance a ON a.session_id = r.session_id AND a.user_id = r.user_id
		     WHERE r.going = TRUE
		    UNION ALL
		    SELECT a.session_id, 0, 1 FROM session_attendance a
		     WHERE `+attendedSQL+` AND NOT EXISTS (SELECT 1 FROM session_rsvps r
		           WHERE r.session_id = a.session_id AND r.user_id = a.user_id AND r.going = TRUE)
		) t GROUP BY session_id`)
	if err != nil {
		return nil, fmt.Errorf("read session turnout: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var (
			id                   string
			going, present, both int
		)
		if err := rows.Scan(&id, &going, &present, &both); err != nil {
			return nil, fmt.Errorf("read session turnout: %w", err)
		}
		if i, ok := index[id]; ok {
			out[i].Going, out[i].Present, out[i].PresentGoing = going, present, both
		}
	}
	return out, rows.Err()
}
