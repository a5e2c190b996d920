// Package gaps keeps the knowledge gaps: questions asked of the site (the AI
// chat, which the console's ask goes through, and the MCP search tool) whose
// best knowledge-base match was weak (kb.Results.Weak). Only the question's
// text and the time it was asked are kept, never an address or an account,
// and only for Retention. The admins see them grouped by similar wording.
package gaps

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/clock"
	"tribe/internal/store"
)

// Retention is how long a question is kept.
const Retention = 90 * 24 * time.Hour

// MaxKept bounds the table between sweeps: a flood of odd questions cannot
// grow it without end; the sweep keeps the newest MaxKept.
const MaxKept = 20000

// maxQuestion is the longest question kept, in characters (the search's
// own limit).
const maxQuestion = 1000

// Service records and reads the gaps.
type Service struct {
	db     *store.DB
	now    clock.Clock
	logger *slog.Logger
}

// New returns the service over db; now is its clock (nil: time.Now).
func New(db *store.DB, now clock.Clock, logger *slog.Logger) *Service {
	if now == nil {
		now = time.Now
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, now: now, logger: logger}
}

// Record keeps question as asked now. It never fails the search it comes
// from: an error is logged. Blank questions are not kept.
func (s *Service) Record(ctx context.Context, question string) {
	q := strings.Join(strings.Fields(question), " ")
	if q == "" || !utf8.ValidString(q) {
		return
	}
	if utf8.RuneCountInString(q) > maxQuestion {
		q = string([]rune(q)[:maxQuestion])
	}
	// The search may be cancelled as it ends; the record is still kept.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := s.db.Write.ExecContext(ctx, `INSERT INTO knowledge_gaps (id, question, asked_at) VALUES ($1, $2, $3)`,
		store.NewID(), q, store.At(s.now())); err != nil {
		s.logger.Warn("knowledge gap not recorded", "err", err)
	}
}

// Sweep deletes the questions older than Retention and all but the newest
// MaxKept. Deleting is idempotent: two instances sweeping at once delete
// each row once between them and neither fails.
func (s *Service) Sweep(ctx context.Context) (int64, error) {
	cutoff := store.At(s.now().Add(-Retention))
	var n int64
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM knowledge_gaps WHERE asked_at < $1`, cutoff)
		if err != nil {
			return fmt.Errorf("delete old knowledge gaps: %w", err)
		}
		old, _ := res.RowsAffected()
		// SQLite needs a LIMIT before an OFFSET; -1 is "no limit".
		beyond := `SELECT id FROM knowledge_gaps ORDER BY asked_at DESC, id DESC LIMIT -1 OFFSET $1`
		if s.db.Dialect == store.Postgres {
			beyond = `SELECT id FROM knowledge_gaps ORDER BY asked_at DESC, id DESC OFFSET $1`
		}
		res, err = tx.ExecContext(ctx, `DELETE FROM knowledge_gaps WHERE id IN (`+beyond+`)`, MaxKept)
		if err != nil {
			return fmt.Errorf("trim knowledge gaps: %w", err)
		}
		over, _ := res.RowsAffected()
		n = old + over
		return nil
	})
	return n, err
}

// Run sweeps now and then every interval until ctx ends.
func (s *Service) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.logger.Error("knowledge gaps sweep", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// List groups the questions kept, most asked first (ties: asked last first).
func (s *Service) List(ctx context.Context) (Groups, error) {
	since := s.now().Add(-Retention)
	rows, err := s.db.Read.QueryContext(ctx,
		`SELECT question, asked_at FROM knowledge_gaps WHERE asked_at >= $1 ORDER BY asked_at DESC, id DESC LIMIT $2`,
		store.At(since), MaxKept)
	if err != nil {
		return Groups{}, fmt.Errorf("read knowledge gaps: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var asked []Asked
	for rows.Next() {
		var a Asked
		var at store.Time
		if err := rows.Scan(&a.Question, &at); err != nil {
			return Groups{}, fmt.Errorf("read knowledge gaps: %w", err)
		}
		a.At = at.Time
		asked = append(asked, a)
	}
	if err := rows.Err(); err != nil {
		return Groups{}, fmt.Errorf("read knowledge gaps: %w", err)
	}
	return Groups{Groups: Cluster(asked), Since: since.UTC()}, nil
}
