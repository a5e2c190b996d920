package notify

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"tribe/internal/clock"
	"tribe/internal/levels"
	"tribe/internal/store"
)

// Service keeps members' notification settings and plans their mail. Build
// one per process with New and share it: it remembers, per member, when it
// last wrote their last visit.
type Service struct {
	db      *store.DB
	levels  *levels.Service
	baseURL string
	now     clock.Clock
	logger  *slog.Logger

	// seen is when this process last recorded each member's visit, so a
	// signed-in request costs a write at most once an hour per member.
	seen sync.Map // user id -> time.Time

	keyMu sync.Mutex
	key   []byte // the unsubscribe signing key, once read

	extraMu sync.Mutex
	extra   map[string]optOutKind // kinds of mail other packages send (AddOptOut)
	inApp   InApp                 // the notification centre (SetInApp)
}

// InApp puts a notice in a member's notification centre: kind "level" or
// "reminder", a title, a body and a path on the site.
type InApp func(ctx context.Context, userID, kind, title, body, link string) error

// SetInApp gives the service the notification centre, which it tells of
// levels reached. Call it while building the services.
func (s *Service) SetInApp(fn InApp) { s.inApp = fn }

// Option changes how New builds a Service.
type Option func(*Service)

// WithClock replaces time.Now (tests).
func WithClock(c clock.Clock) Option { return func(s *Service) { s.now = c } }

// WithLogger sets where planning problems are logged.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.logger = l } }

// New builds the service over db. baseURL is the site's address, the
// start of every link in the mail.
func New(db *store.DB, lv *levels.Service, baseURL string, opts ...Option) *Service {
	s := &Service{db: db, levels: lv, baseURL: strings.TrimRight(baseURL, "/"), now: time.Now, logger: slog.Default()}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Sweep does the planned work once: reminders due, digests due, level
// congratulations owed and new projects of a cohort are queued. Every instance runs it; each mail is
// queued once between them.
func (s *Service) Sweep(ctx context.Context) error {
	_, err1 := s.PlanReminders(ctx)
	_, err2 := s.PlanDigests(ctx)
	_, err3 := s.PlanLevelMails(ctx)
	_, err4 := s.PlanProjectMails(ctx)
	return errors.Join(err1, err2, err3, err4)
}

// seenEvery is how often a member's visit is written: the digest and the
// at-risk list count days, so an hour is exact enough.
const seenEvery = time.Hour

// Touch records that the member was seen now (a signed-in request). It
// writes at most once an hour per member and process, and the database
// keeps the write from repeating across instances within that hour.
func (s *Service) Touch(ctx context.Context, userID string) error {
	if userID == "" {
		return nil
	}
	now := s.now()
	if last, ok := s.seen.Load(userID); ok && now.Sub(last.(time.Time)) < seenEvery && !now.Before(last.(time.Time)) {
		return nil
	}
	s.seen.Store(userID, now)
	_, err := s.db.Write.ExecContext(ctx,
		`INSERT INTO member_activity (user_id, last_seen_at) SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM users WHERE id = $1)
		 ON CONFLICT (user_id) DO UPDATE SET last_seen_at = excluded.last_seen_at
		 WHERE member_activity.last_seen_at IS NULL OR member_activity.last_seen_at < $3`,
		userID, store.At(now), store.At(now.Add(-seenEvery)))
	if err != nil {
		s.seen.Delete(userID)
		return err
	}
	return nil
}
