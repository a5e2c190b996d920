package levels

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tribe/internal/clock"
	"tribe/internal/community"
	"tribe/internal/store"
)

// Service reads progress and keeps awards. Build one with New and share it.
type Service struct {
	db  *store.DB
	now clock.Clock
}

// Option changes how New builds a Service.
type Option func(*Service)

// WithClock replaces time.Now (tests).
func WithClock(c clock.Clock) Option { return func(s *Service) { s.now = c } }

// New builds the levels service over db.
func New(db *store.DB, opts ...Option) *Service {
	s := &Service{db: db, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// CountsOf counts what the user has done, from the rows.
func (s *Service) CountsOf(ctx context.Context, userID string) (Counts, error) {
	var c Counts
	var err error
	if c.Attended, err = community.AttendedCount(ctx, s.db, userID); err != nil {
		return c, err
	}
	if c.Projects, err = community.ProjectsShared(ctx, s.db, userID); err != nil {
		return c, err
	}
	rows, err := s.db.ReadRows(ctx, `SELECT kind, COUNT(*) FROM awards WHERE user_id = $1 AND status = 'accepted' GROUP BY kind`, userID)
	if err != nil {
		return c, fmt.Errorf("count awards of %s: %w", userID, err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var kind string
		var n int
		if err := rows.Scan(&kind, &n); err != nil {
			return c, fmt.Errorf("count awards of %s: %w", userID, err)
		}
		switch kind {
		case KindContribution:
			c.Contributions = n
		case KindMentoring:
			c.Mentored = n
		case KindWorkshop:
			c.Workshops = n
		}
	}
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("count awards of %s: %w", userID, err)
	}
	return c, nil
}

// LevelOf is the name of the user's level now.
func (s *Service) LevelOf(ctx context.Context, userID string) (string, error) {
	c, err := s.CountsOf(ctx, userID)
	if err != nil {
		return "", err
	}
	return Compute(c).Level, nil
}

// LevelsOfAll is the level of every member who has done anything towards
// one (the others are Apprentice), counted as CountsOf counts, for all
// members in two queries: the members export reads it.
func (s *Service) LevelsOfAll(ctx context.Context) (map[string]string, error) {
	attended, err := community.AttendedCounts(ctx, s.db)
	if err != nil {
		return nil, err
	}
	counts := map[string]*Counts{}
	of := func(id string) *Counts {
		c := counts[id]
		if c == nil {
			c = &Counts{}
			counts[id] = c
		}
		return c
	}
	for id, n := range attended {
		of(id).Attended = n
	}
	shared, err := community.ProjectsSharedCounts(ctx, s.db)
	if err != nil {
		return nil, err
	}
	for id, n := range shared {
		of(id).Projects = n
	}
	rows, err := s.db.Read.QueryContext(ctx, `SELECT user_id, kind, COUNT(*) FROM awards WHERE status = 'accepted' GROUP BY user_id, kind`)
	if err != nil {
		return nil, fmt.Errorf("count awards: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var id, kind string
		var n int
		if err := rows.Scan(&id, &kind, &n); err != nil {
			return nil, fmt.Errorf("count awards: %w", err)
		}
		c := of(id)
		switch kind {
		case KindContribution:
			c.Contributions = n
		case KindMentoring:
			c.Mentored = n
		case KindWorkshop:
			c.Workshops = n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count awards: %w", err)
	}
	out := make(map[string]string, len(counts))
	for id, c := range counts {
		out[id] = Compute(*c).Level
	}
	return out, nil
}

// ProgressOf is the user's progress now.
func (s *Service) ProgressOf(ctx context.Context, userID string) (Progress, error) {
	c, err := s.CountsOf(ctx, userID)
	if err != nil {
		return Progress{}, err
	}
	st := Compute(c)
	p := Progress{Level: st.Level, Rank: st.Rank, Attended: c.Attended, Projects: c.Projects,
		Contributions: c.Contributions, Mentored: c.Mentored, Workshops: c.Workshops, Next: st.Next}
	if st.Rank > 1 {
		seen, err := s.seenRank(ctx, s.db.Read, userID)
		if err != nil {
			return Progress{}, err
		}
		if st.Rank > seen {
			p.Reached = st.Level
		}
	}
	return p, nil
}

// seenRank is the rank of the highest level the user was congratulated
// for, 1 when never.
func (s *Service) seenRank(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, userID string) (int, error) {
	var level string
	err := q.QueryRowContext(ctx, `SELECT level FROM level_notices WHERE user_id = $1`, userID).Scan(&level)
	if errors.Is(err, sql.ErrNoRows) {
		return 1, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read level notice of %s: %w", userID, err)
	}
	return max(1, RankOf(level)), nil
}

// MarkSeen records that the user was congratulated for reaching level.
// Only a level the member has reached counts, and a lower one never
// replaces a higher one, so the congratulation for each level shows once.
func (s *Service) MarkSeen(ctx context.Context, userID string, in SeenInput) error {
	rank := RankOf(in.Level)
	if rank == 0 {
		return errLevelName
	}
	c, err := s.CountsOf(ctx, userID)
	if err != nil {
		return err
	}
	if rank > Compute(c).Rank {
		return errNotReached
	}
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		seen, err := s.seenRank(ctx, tx, userID)
		if err != nil {
			return err
		}
		if rank <= seen {
			return nil
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO level_notices (user_id, level, seen_at) VALUES ($1, $2, $3)
			 ON CONFLICT (user_id) DO UPDATE SET level = excluded.level, seen_at = excluded.seen_at`,
			userID, Table[rank-1].Name, store.At(s.now()))
		if err != nil {
			return fmt.Errorf("record level notice of %s: %w", userID, err)
		}
		return nil
	})
}
