package mail

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"
	"unicode/utf8"

	"tribe/internal/clock"
	"tribe/internal/store"
)

// DefaultLease is the lease of a claimed message (WorkerOptions.Lease).
const DefaultLease = 30 * time.Second

// WorkerOptions tunes a Worker; zero fields take the defaults shown.
type WorkerOptions struct {
	// Poll is how often the outbox is checked without a Kick (1 s), so mail
	// queued by any server instance leaves within about a second.
	Poll time.Duration
	// Lease is how long a claimed message belongs to one worker without
	// word from it (30 s). The worker renews it every third of that while
	// it sends, however long the send takes, so a message still "sending"
	// after its lease was abandoned by a crash (kill -9, a lost machine)
	// and is claimed again, and sent again, within a lease.
	Lease time.Duration
	// SendTimeout bounds one delivery (2 min).
	SendTimeout time.Duration
	// Backoff is the wait after the first failure (30 s); it doubles with
	// each further failure up to MaxBackoff (1 h).
	Backoff    time.Duration
	MaxBackoff time.Duration
	// MaxAttempts is how many deliveries are tried before the message is
	// marked failed (15, about eleven hours of retrying).
	MaxAttempts int
	// Now is the clock (time.Now); tests move it forward.
	Now clock.Clock
}

func (o *WorkerOptions) defaults() {
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.SendTimeout <= 0 {
		o.SendTimeout = 2 * time.Minute
	}
	if o.Lease <= 0 {
		o.Lease = DefaultLease
	}
	if o.Backoff <= 0 {
		o.Backoff = 30 * time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = time.Hour
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 15
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// Worker delivers the outbox. Any number of workers, in one process or in
// several server instances on the same database, may run at once: a message
// is claimed in a transaction under a lease, so while they are alive no two
// workers send the same message.
type Worker struct {
	db     *store.DB
	sender Sender
	logger *slog.Logger
	opt    WorkerOptions
	kick   chan struct{}
}

// NewWorker returns a worker that delivers db's outbox through sender.
func NewWorker(db *store.DB, sender Sender, logger *slog.Logger, opt WorkerOptions) *Worker {
	opt.defaults()
	return &Worker{db: db, sender: sender, logger: logger, opt: opt, kick: make(chan struct{}, 1)}
}

// Kick wakes the worker now instead of at the next poll; it never blocks.
func (w *Worker) Kick() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// Run delivers due messages until ctx ends, then returns after the delivery
// in progress (if any) has finished and been recorded.
func (w *Worker) Run(ctx context.Context) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.kick:
		case <-timer.C:
		}
		if _, err := w.Drain(ctx); err != nil && ctx.Err() == nil {
			w.logger.Error("mail outbox", "err", err)
		}
		timer.Reset(w.opt.Poll)
	}
}

// Drain delivers messages one at a time until none is due or ctx ends, and
// returns how many it attempted.
func (w *Worker) Drain(ctx context.Context) (int, error) {
	n := 0
	for ctx.Err() == nil {
		ok, err := w.DeliverOne(ctx)
		if err != nil || !ok {
			return n, err
		}
		n++
	}
	return n, nil
}

// claimed is a message this worker holds under its lease.
type claimed struct {
	Outgoing
	attempts int
	lease    store.Time
}

// DeliverOne claims the next due message, sends it and records the outcome.
// It reports false when nothing was due.
func (w *Worker) DeliverOne(ctx context.Context) (bool, error) {
	due, err := w.anyDue(ctx)
	if err != nil || !due {
		return false, err
	}
	m, err := w.claim(ctx)
	if err != nil || m == nil {
		return false, err
	}
	// The send and its record finish even when shutdown begins, so a message
	// is neither cut off mid-transfer nor left "sending" until its lease ends.
	sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.opt.SendTimeout)
	stopRenewing := w.keepLease(m)
	sendErr := w.sender.Send(sendCtx, m.Outgoing)
	stopRenewing()
	cancel()
	recordCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if err := w.record(recordCtx, m, sendErr); err != nil {
		return true, err
	}
	return true, nil
}

// keepLease renews m's lease every third of a lease until the returned
// function is called (which waits for it to stop), so that no other worker
// takes the message while this one is still sending it, and one that
// crashes loses it within a lease. m.lease follows the renewals; record
// identifies the claim by it. A renewal that finds the row taken stops.
func (w *Worker) keepLease(m *claimed) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(max(w.opt.Lease/3, time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			ctx, cancel := context.WithTimeout(context.Background(), max(w.opt.Lease/3, time.Second))
			next := store.At(w.opt.Now().Add(w.opt.Lease))
			res, err := w.db.Write.ExecContext(ctx,
				`UPDATE mail_outbox SET locked_until = $3 WHERE id = $1 AND status = 'sending' AND locked_until = $2`,
				m.ID, m.lease, next)
			cancel()
			if err != nil {
				w.logger.Warn("mail lease not renewed; will try again", "id", m.ID, "err", err)
				continue
			}
			if n, _ := res.RowsAffected(); n == 0 {
				w.logger.Warn("mail lease lost while sending; another worker may send it too", "id", m.ID)
				return
			}
			m.lease = next
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// recordTimeout bounds writing the outcome of one delivery.
const recordTimeout = 30 * time.Second

const dueCondition = `(status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND locked_until <= $1)`

// anyDue is a cheap read so that idle polling never takes the write lock.
func (w *Worker) anyDue(ctx context.Context) (bool, error) {
	var one int
	err := w.db.Read.QueryRowContext(ctx, `SELECT 1 FROM mail_outbox WHERE `+dueCondition+` LIMIT 1`, store.At(w.opt.Now())).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("check mail outbox: %w", err)
	}
	return true, nil
}

// claim takes the oldest due message under a new lease. On PostgreSQL, SKIP
// LOCKED lets concurrent workers take different rows; on SQLite the write
// transaction is exclusive, which serialises claims across processes too.
func (w *Worker) claim(ctx context.Context) (*claimed, error) {
	now := w.opt.Now()
	var m *claimed
	err := w.db.Tx(ctx, func(tx *sql.Tx) error {
		// A message whose every attempt was cut short by a crash stops here
		// rather than crashing the next worker too.
		if _, err := tx.ExecContext(ctx,
			`UPDATE mail_outbox SET status = 'failed', locked_until = NULL,
			     last_error = CASE WHEN last_error = '' THEN 'delivery interrupted too many times' ELSE last_error END
			 WHERE status = 'sending' AND locked_until <= $1 AND attempts >= $2`,
			store.At(now), w.opt.MaxAttempts); err != nil {
			return fmt.Errorf("fail abandoned mail: %w", err)
		}
		q := `SELECT id, to_addr, subject, text_body, html_body, attachments, list_unsubscribe, attempts, created_at FROM mail_outbox
		      WHERE ` + dueCondition + ` ORDER BY next_attempt_at, created_at, id LIMIT 1`
		if w.db.Dialect == store.Postgres {
			q += ` FOR UPDATE SKIP LOCKED`
		}
		var c claimed
		var (
			created store.Time
			files   string
		)
		err := tx.QueryRowContext(ctx, q, store.At(now)).Scan(&c.ID, &c.To, &c.Subject, &c.Text, &c.HTML, &files, &c.ListUnsubscribe, &c.attempts, &created)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("select due mail: %w", err)
		}
		if err := json.Unmarshal([]byte(files), &c.Attachments); err != nil {
			return fmt.Errorf("read attachments of mail %s: %w", c.ID, err)
		}
		c.CreatedAt = created.Time
		c.attempts++
		c.lease = store.At(now.Add(w.opt.Lease))
		if _, err := tx.ExecContext(ctx,
			`UPDATE mail_outbox SET status = 'sending', attempts = $2, locked_until = $3 WHERE id = $1`,
			c.ID, c.attempts, c.lease); err != nil {
			return fmt.Errorf("claim mail %s: %w", c.ID, err)
		}
		m = &c
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("claim mail: %w", err)
	}
	return m, nil
}

// record stores the outcome of one attempt. The lease value identifies this
// claim: if the lease ran out and another worker took the message, the row is
// no longer ours and is left alone.
func (w *Worker) record(ctx context.Context, m *claimed, sendErr error) error {
	now := w.opt.Now()
	var (
		res sql.Result
		err error
	)
	var perm *PermanentError
	switch {
	case sendErr == nil:
		res, err = w.db.Write.ExecContext(ctx,
			`UPDATE mail_outbox SET status = 'sent', sent_at = $2, locked_until = NULL, last_error = ''
			 WHERE id = $1 AND status = 'sending' AND locked_until = $3`, m.ID, store.At(now), m.lease)
		w.logger.Info("mail sent", "id", m.ID, "to", m.To, "subject", m.Subject, "attempt", m.attempts)
	case errors.As(sendErr, &perm) || m.attempts >= w.opt.MaxAttempts:
		res, err = w.db.Write.ExecContext(ctx,
			`UPDATE mail_outbox SET status = 'failed', locked_until = NULL, last_error = $2
			 WHERE id = $1 AND status = 'sending' AND locked_until = $3`, m.ID, truncate(sendErr.Error()), m.lease)
		w.logger.Error("mail failed for good", "id", m.ID, "to", m.To, "attempt", m.attempts, "err", sendErr)
	default:
		next := now.Add(w.Backoff(m.attempts))
		res, err = w.db.Write.ExecContext(ctx,
			`UPDATE mail_outbox SET status = 'pending', locked_until = NULL, last_error = $2, next_attempt_at = $4
			 WHERE id = $1 AND status = 'sending' AND locked_until = $3`, m.ID, truncate(sendErr.Error()), m.lease, store.At(next))
		w.logger.Warn("mail not sent; will retry", "id", m.ID, "to", m.To, "attempt", m.attempts,
			"retry_at", next.UTC().Format(time.RFC3339), "err", sendErr)
	}
	if err != nil {
		return fmt.Errorf("record mail %s: %w", m.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		w.logger.Warn("mail lease expired before its outcome was recorded", "id", m.ID)
	}
	return nil
}

// Backoff is the wait before the next try after attempt failures.
func (w *Worker) Backoff(attempts int) time.Duration {
	d := w.opt.Backoff
	for i := 1; i < attempts && d < w.opt.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, w.opt.MaxBackoff)
}

func truncate(s string) string {
	const limit = 1000
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
