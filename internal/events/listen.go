package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// Reconnect backoff of the listener, and how often an idle listener checks
// that its connection is still alive (a silently dropped TCP connection
// would otherwise leave it waiting forever).
const (
	backoffMin = 250 * time.Millisecond
	backoffMax = 30 * time.Second
	idlePing   = 30 * time.Second
)

// notice is the JSON payload of a notification.
type notice struct {
	Topic string `json:"topic"`
	User  string `json:"user"`
	From  string `json:"from"` // instance that published it
	NS    string `json:"ns"`   // schema of the publisher
}

// listener is one run of the LISTEN loop, alive while the hub has
// subscribers.
type listener struct {
	stop  context.CancelFunc
	ready chan struct{} // closed once LISTEN first succeeds
	pid   atomic.Uint32 // backend process id of the current connection, 0 when none
}

// startListener starts the LISTEN loop. The caller holds h.mu.
func (h *Hub) startListener() *listener {
	ctx, cancel := context.WithCancel(context.Background())
	l := &listener{stop: cancel, ready: make(chan struct{})}
	h.listeners.Go(func() { h.listen(ctx, l) })
	return l
}

// listen keeps a LISTEN connection open until ctx ends, reconnecting with
// backoff. After any gap it tells every subscriber to refresh everything,
// because notices sent during the gap are gone.
func (h *Hub) listen(ctx context.Context, l *listener) {
	backoff := backoffMin
	missed := false // whether notices may have been lost since subscribers started
	for {
		up := func() {
			backoff = backoffMin
			select {
			case <-l.ready:
			default:
				close(l.ready)
			}
			if missed {
				h.logger.Info("live updates: database listener reconnected")
				h.resync()
			}
		}
		err := h.listenOnce(ctx, l, up)
		if ctx.Err() != nil {
			return
		}
		missed = true
		h.logger.Warn("live updates: database listener lost; reconnecting", "err", err, "retry_in", backoff)
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		backoff = min(backoff*2, backoffMax)
	}
}

// listenOnce opens a connection, runs LISTEN, calls up, and relays
// notifications until the connection fails or ctx ends.
func (h *Hub) listenOnce(ctx context.Context, l *listener, up func()) error {
	conn, err := h.connect(ctx)
	if err != nil {
		return err
	}
	defer func() {
		l.pid.Store(0)
		closeCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = conn.Close(closeCtx)
	}()
	var ns string
	if err := conn.QueryRow(ctx, "SELECT current_schema()").Scan(&ns); err != nil {
		return fmt.Errorf("read schema of listener connection: %w", err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+Channel); err != nil {
		return fmt.Errorf("listen on %s: %w", Channel, err)
	}
	l.pid.Store(conn.PgConn().PID())
	up()
	for {
		waitCtx, cancel := context.WithTimeout(ctx, idlePing)
		n, err := conn.WaitForNotification(waitCtx)
		cancel()
		switch {
		case err == nil:
			h.receive(ns, n.Payload)
		case ctx.Err() != nil:
			return ctx.Err()
		case pgconn.Timeout(err) || errors.Is(err, context.DeadlineExceeded):
			// Quiet period: prove the connection still answers. A deadline
			// does not break a pgx connection, so it stays usable.
			pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := conn.Ping(pingCtx)
			cancel()
			if err != nil {
				return fmt.Errorf("listener connection check: %w", err)
			}
		default:
			return fmt.Errorf("wait for notification: %w", err)
		}
	}
}

// connect opens a connection of its own for LISTEN, with the same settings
// as the store's pool (taken from a pooled connection, so the URL, search
// path and credentials always match). A pooled connection is not used:
// LISTEN is session state that must not leak to other requests, it would
// hold one of the pool's connections forever, and a terminated listener must
// not hand a broken connection back to the pool.
func (h *Hub) connect(ctx context.Context) (*pgx.Conn, error) {
	c, err := h.db.Write.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("get a connection to copy listener settings: %w", err)
	}
	var cfg *pgx.ConnConfig
	err = c.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("database driver connection is %T, not pgx", dc)
		}
		cfg = sc.Conn().Config()
		return nil
	})
	_ = c.Close()
	if err != nil {
		return nil, fmt.Errorf("copy listener settings: %w", err)
	}
	// The copied settings carry the pooled connection's own notification
	// hook; without clearing it notifications would land on that connection.
	cfg.OnNotification = nil
	cfg.RuntimeParams["application_name"] = "tribe live updates"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open listener connection: %w", err)
	}
	return conn, nil
}

// receive delivers a notification from another instance of this deployment.
func (h *Hub) receive(ns, payload string) {
	var n notice
	if err := json.Unmarshal([]byte(payload), &n); err != nil {
		h.logger.Warn("live updates: unreadable notification", "err", err)
		return
	}
	if n.NS != ns || n.From == h.instance || (!Known(n.Topic) && !serverTopic(n.Topic)) {
		return
	}
	h.deliver(Event{Topic: n.Topic, UserID: n.User})
}
