package inbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tribe/internal/push"
	"tribe/internal/store"
)

// The push outbox. Notify queues a row per notification to push, in the
// notification's own transaction; every instance's worker drains the rows
// that are due. A row is claimed with one UPDATE that only one instance
// can win (the lease, as the calendar worker's), pushed, and deleted by the
// holder of the lease, so each push goes out once between instances. An
// instance that dies mid-push leaves a lease that lapses, and the row is
// pushed again: at most once more, and only then.

const (
	// pushLease keeps other instances off a claimed row: longer than a
	// push to ten browsers can take.
	pushLease = 2 * time.Minute
	// maxPushAttempts is how often a push that could not be delivered is
	// tried before it is given up (the notification stays in the centre).
	maxPushAttempts = 5
	// drainBatch is how many due rows one pass looks at.
	drainBatch = 50
)

// Kick wakes the push worker (a push was queued).
func (s *Service) Kick() {
	select {
	case s.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// Run drains the push outbox now, on every Kick and every interval, until
// ctx ends.
func (s *Service) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.DrainPush(ctx); err != nil && ctx.Err() == nil {
			s.logger.Error("push outbox", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.wake:
		}
	}
}

// DrainPush pushes every due row this instance can claim and returns how
// many it handled.
func (s *Service) DrainPush(ctx context.Context) (int, error) {
	if s.push == nil {
		return 0, nil
	}
	handled := 0
	for {
		now := s.now()
		rows, err := s.db.ReadRows(ctx, fmt.Sprintf(`SELECT id FROM push_outbox
			WHERE next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1) ORDER BY next_attempt_at LIMIT %d`, drainBatch),
			store.At(now))
		if err != nil {
			return handled, fmt.Errorf("due pushes: %w", err)
		}
		var due []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				_ = rows.Close()
				return handled, fmt.Errorf("due pushes: %w", err)
			}
			due = append(due, id)
		}
		if err := rows.Close(); err != nil {
			return handled, fmt.Errorf("due pushes: %w", err)
		}
		if len(due) == 0 {
			return handled, nil
		}
		progress := false
		for _, id := range due {
			ok, err := s.pushOne(ctx, id, now)
			if err != nil {
				return handled, err
			}
			if ok {
				handled++
				progress = true
			}
		}
		if !progress {
			// Every due row is another instance's now.
			return handled, nil
		}
	}
}

// pushOne claims row id and, when this instance won it, pushes it.
func (s *Service) pushOne(ctx context.Context, id string, now time.Time) (bool, error) {
	token := store.NewID()
	res, err := s.db.Write.ExecContext(ctx, `UPDATE push_outbox SET lease_token = $1, lease_until = $2
		WHERE id = $3 AND next_attempt_at <= $4 AND (lease_until IS NULL OR lease_until <= $4)`,
		token, store.At(now.Add(pushLease)), id, store.At(now))
	if err != nil {
		return false, fmt.Errorf("claim push: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return false, err
	}
	var (
		userID, kind, title, body, link, group string
		attempts                               int
	)
	err = s.db.Write.QueryRowContext(ctx, `SELECT o.user_id, o.attempts, n.kind, n.title, n.body, n.link, n.group_key
		FROM push_outbox o JOIN notifications n ON n.id = o.notification_id WHERE o.id = $1`, id).
		Scan(&userID, &attempts, &kind, &title, &body, &link, &group)
	if errors.Is(err, sql.ErrNoRows) {
		return true, s.forget(ctx, id, token)
	}
	if err != nil {
		return false, fmt.Errorf("read claimed push: %w", err)
	}
	// A member with the members area open, on any instance, sees the
	// notification arrive in it; a push on top would tell them twice.
	if s.hub != nil {
		open, err := s.hub.Present(ctx, userID)
		if err != nil {
			return false, err // the lease lapses and the push is tried again
		}
		if open {
			return true, s.forget(ctx, id, token)
		}
	}
	tag := group
	if tag == "" {
		tag = id
	}
	result, err := s.push.Send(ctx, userID, push.Message{Title: title, Body: body, Link: link, Tag: tag, Urgency: urgencyOf(kind)})
	if err != nil {
		return false, err
	}
	if result.Sent == 0 && result.Failed > 0 && attempts+1 < maxPushAttempts {
		// Nobody got it and some push service may take it later.
		backoff := time.Duration(1<<attempts) * time.Minute
		_, err := s.db.Write.ExecContext(ctx, `UPDATE push_outbox SET attempts = attempts + 1, next_attempt_at = $1,
			lease_token = NULL, lease_until = NULL WHERE id = $2 AND lease_token = $3`, store.At(s.now().Add(backoff)), id, token)
		if err != nil {
			return true, fmt.Errorf("postpone push: %w", err)
		}
		return true, nil
	}
	return true, s.forget(ctx, id, token)
}

// forget deletes a row this instance holds the lease of.
func (s *Service) forget(ctx context.Context, id, token string) error {
	if _, err := s.db.Write.ExecContext(ctx, `DELETE FROM push_outbox WHERE id = $1 AND lease_token = $2`, id, token); err != nil {
		return fmt.Errorf("finish push: %w", err)
	}
	return nil
}

// urgencyOf is how soon a browser should wake for kind (RFC 8030):
// reactions can wait, what is addressed to the member cannot.
func urgencyOf(kind string) string {
	switch kind {
	case KindReaction:
		return push.UrgencyLow
	case KindReminder:
		return push.UrgencyHigh
	}
	return push.UrgencyNormal
}
