package notify

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"tribe/internal/store"
)

// member is one account as the digest and the at-risk list read it: who,
// what they chose, and the traces of their activity.
type member struct {
	recipient
	Confirmed    bool
	Settings     Settings
	CreatedAt    time.Time
	LastSeen     *time.Time
	LastRSVP     *time.Time
	LastJoin     *time.Time
	DigestAt     *time.Time
	Subscription string // "" without a subscription row
	SubscribedAt *time.Time
	CohortID     string
	Cohort       string
	CohortJoined *time.Time
}

// lastActivity is the latest visit, RSVP or join; nil when none.
func (m *member) lastActivity() *time.Time {
	var out *time.Time
	for _, t := range []*time.Time{m.LastSeen, m.LastRSVP, m.LastJoin} {
		if t != nil && (out == nil || t.After(*out)) {
			out = t
		}
	}
	return out
}

// awaySince is when the member was last active, or joined when never.
func (m *member) awaySince() time.Time {
	if t := m.lastActivity(); t != nil {
		return *t
	}
	return m.CreatedAt
}

// members reads every account with a profile, with its activity. The
// tribe has tens to hundreds of members, so the rules that read them (who
// is away, who is at risk) run in Go over one query rather than in SQL
// written twice for two engines.
func (s *Service) members(ctx context.Context) ([]*member, error) {
	rows, err := s.db.ReadRows(ctx, `SELECT u.id, u.email, COALESCE(p.full_name, ''), u.email_confirmed_at IS NOT NULL, u.created_at,
			COALESCE(n.session_reminders, TRUE), COALESCE(n.weekly_digest, TRUE),
			COALESCE(n.cohort_projects, TRUE), COALESCE(n.level_reached, TRUE), COALESCE(n.time_zone, ''),
			a.last_seen_at, a.digest_at, rv.at, jn.at, COALESCE(sub.status, ''), sub.created_at,
			COALESCE(c.id, ''), COALESCE(c.name, ''), cm.joined_at
		FROM users u
		JOIN profiles p ON p.id = u.id
		LEFT JOIN notification_settings n ON n.user_id = u.id
		LEFT JOIN member_activity a ON a.user_id = u.id
		LEFT JOIN (SELECT user_id, MAX(updated_at) AS at FROM session_rsvps GROUP BY user_id) rv ON rv.user_id = u.id
		LEFT JOIN (SELECT user_id, MAX(joined_at) AS at FROM session_attendance WHERE joined_at IS NOT NULL GROUP BY user_id) jn ON jn.user_id = u.id
		LEFT JOIN subscriptions sub ON sub.user_id = u.id
		LEFT JOIN cohort_members cm ON cm.user_id = u.id
		LEFT JOIN cohorts c ON c.id = cm.cohort_id
		ORDER BY u.created_at, u.id`)
	if err != nil {
		return nil, fmt.Errorf("read members: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []*member
	for rows.Next() {
		var (
			m                                          member
			created                                    store.Time
			seen, digest, rsvp, join, subSince, joined store.NullTime
		)
		if err := rows.Scan(&m.UserID, &m.Email, &m.Name, &m.Confirmed, &created,
			&m.Settings.SessionReminders, &m.Settings.WeeklyDigest, &m.Settings.CohortProjects, &m.Settings.LevelReached,
			&m.Settings.TimeZone, &seen, &digest, &rsvp, &join, &m.Subscription, &subSince, &m.CohortID, &m.Cohort, &joined); err != nil {
			return nil, fmt.Errorf("read members: %w", err)
		}
		m.Zone = m.Settings.TimeZone
		m.CreatedAt = created.Time
		m.LastSeen, m.DigestAt, m.LastRSVP, m.LastJoin, m.SubscribedAt = ptr(seen), ptr(digest), ptr(rsvp), ptr(join), ptr(subSince)
		m.CohortJoined = ptr(joined)
		out = append(out, &m)
	}
	return out, rows.Err()
}

func ptr(t store.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	v := t.Time.Time
	return &v
}

// lockActivity makes sure the member's activity row exists and, on
// PostgreSQL, locks it until tx ends, so two instances deciding the same
// member's digest or congratulation decide one after the other (SQLite's
// write transaction already does).
func (s *Service) lockActivity(ctx context.Context, tx *sql.Tx, userID string) (digestAt *time.Time, announced string, err error) {
	if _, err := tx.ExecContext(ctx, `INSERT INTO member_activity (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING`, userID); err != nil {
		return nil, "", fmt.Errorf("lock activity of %s: %w", userID, err)
	}
	q := `SELECT digest_at, COALESCE(level_announced, '') FROM member_activity WHERE user_id = $1`
	if s.db.Dialect == store.Postgres {
		q += ` FOR UPDATE`
	}
	var d store.NullTime
	if err := tx.QueryRowContext(ctx, q, userID).Scan(&d, &announced); err != nil {
		return nil, "", fmt.Errorf("lock activity of %s: %w", userID, err)
	}
	return ptr(d), announced, nil
}
