package events

import (
	"context"
	"fmt"
	"strings"
	"time"

	"tribe/internal/clock"
)

// Presence: which members have an open tab anywhere. A notification is
// pushed to a member's phone only when no tab of theirs shows it already,
// and with several instances the tab may be open on another instance than
// the one draining the push outbox. So each instance writes the members
// whose streams it holds to live_presence (migration 0026), on the first
// stream of a member and at every heartbeat, with an expiry; it deletes a
// member's row when their last stream here ends, and its rows when it
// closes. An instance that dies leaves rows that expire after presenceTTL:
// for that long a member whose tab it held may miss a push, never get two.
// SQLite is one instance by design but keeps the same table, so the rule
// is the same on both engines.

const (
	// PresenceBeat is how often KeepPresence renews this instance's rows.
	PresenceBeat = 30 * time.Second
	// presenceTTL is how long a row stays true without a heartbeat: three
	// beats, so one slow or missed beat does not drop a member.
	presenceTTL = 3 * PresenceBeat
	// presenceWrite bounds a presence write made as a stream ends, when no
	// request context is left to bound it.
	presenceWrite = 2 * time.Second
)

// Option changes how New builds a Hub.
type Option func(*Hub)

// WithClock sets the clock of presence expiry (tests move it).
func WithClock(c clock.Clock) Option { return func(h *Hub) { h.now = c } }

// present reports whether a stream name is a member's (booking pages follow
// "booking:{id}", signed-out pages nothing), whose presence counts.
func present(userID string) bool { return userID != "" && !strings.Contains(userID, ":") }

// syncPresence writes whether userID has a stream here now: a row expiring
// after presenceTTL, or none. Writes of one hub are serialized and each
// reads the count when it runs, so the last write says what holds last,
// whatever the order in which streams opened and closed.
func (h *Hub) syncPresence(ctx context.Context, userID string) error {
	if h.db == nil || !present(userID) {
		return nil
	}
	h.presenceMu.Lock()
	defer h.presenceMu.Unlock()
	h.mu.Lock()
	open := h.perUser[userID] > 0 && !h.closed
	h.mu.Unlock()
	var err error
	if open {
		_, err = h.db.Write.ExecContext(ctx, `INSERT INTO live_presence (instance, user_id, expires_unix) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, instance) DO UPDATE SET expires_unix = excluded.expires_unix`,
			h.instance, userID, h.now().Add(presenceTTL).Unix())
	} else {
		_, err = h.db.Write.ExecContext(ctx, `DELETE FROM live_presence WHERE instance = $1 AND user_id = $2`, h.instance, userID)
	}
	if err != nil {
		return fmt.Errorf("record live presence: %w", err)
	}
	return nil
}

// streamEnded forgets userID's presence here when their last stream went.
func (h *Hub) streamEnded(userID string) {
	ctx, cancel := context.WithTimeout(context.Background(), presenceWrite)
	defer cancel()
	if err := h.syncPresence(ctx, userID); err != nil {
		h.logger.Warn("live presence not cleared; it expires", "err", err)
	}
}

// Beat renews the rows of every member with a stream here and deletes the
// rows every instance let expire.
func (h *Hub) Beat(ctx context.Context) error {
	if h.db == nil {
		return nil
	}
	h.mu.Lock()
	users := make([]string, 0, len(h.perUser))
	for u := range h.perUser {
		if present(u) {
			users = append(users, u)
		}
	}
	h.mu.Unlock()
	for _, u := range users {
		if err := h.syncPresence(ctx, u); err != nil {
			return err
		}
	}
	if _, err := h.db.Write.ExecContext(ctx, `DELETE FROM live_presence WHERE expires_unix <= $1`, h.now().Unix()); err != nil {
		return fmt.Errorf("forget expired live presence: %w", err)
	}
	return nil
}

// KeepPresence runs Beat every interval until ctx ends (one of the
// instance's workers).
func (h *Hub) KeepPresence(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := h.Beat(ctx); err != nil && ctx.Err() == nil {
			h.logger.Warn("live presence heartbeat", "err", err)
		}
	}
}

// Present reports whether userID has a live-update stream open on any
// instance over this database: an open tab of the members area, which shows
// new notifications itself, so they need no push.
func (h *Hub) Present(ctx context.Context, userID string) (bool, error) {
	h.mu.Lock()
	here := h.perUser[userID] > 0
	h.mu.Unlock()
	if here || h.db == nil || !present(userID) {
		return here, nil
	}
	var there bool
	if err := h.db.Read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM live_presence WHERE user_id = $1 AND expires_unix > $2)`,
		userID, h.now().Unix()).Scan(&there); err != nil {
		return false, fmt.Errorf("read live presence: %w", err)
	}
	return there, nil
}

// forgetInstance deletes this instance's rows as it closes.
func (h *Hub) forgetInstance() {
	if h.db == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), presenceWrite)
	defer cancel()
	h.presenceMu.Lock()
	defer h.presenceMu.Unlock()
	if _, err := h.db.Write.ExecContext(ctx, `DELETE FROM live_presence WHERE instance = $1`, h.instance); err != nil {
		h.logger.Warn("live presence of this instance not cleared; it expires", "err", err)
	}
}
