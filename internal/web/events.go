package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"tribe/internal/auth"
	"tribe/internal/events"
)

// Stream timing. The heartbeat keeps proxies from closing an idle stream and
// is when a stream notices that its session has ended; retry is how long the
// browser waits before reconnecting a dropped stream.
const (
	eventsHeartbeat = 25 * time.Second
	eventsRetry     = 3 * time.Second
)

// publish tells open browser tabs that something changed. It never fails the
// request that caused the change: a lost notice only delays a refresh.
func (s *server) publish(ctx context.Context, e events.Event) {
	if s.hub == nil {
		return
	}
	// The change is already made; a client hanging up now must not cancel
	// the notice about it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := s.hub.Publish(ctx, e); err != nil {
		s.Logger.Warn("live update not sent", "topic", e.Topic, "err", err)
	}
}

// registerEvents creates the live-update hub and adds GET /api/events.
func (s *server) registerEvents(mux *http.ServeMux) error {
	s.hub = events.New(s.DB, s.Logger)
	es := newEventStreams(s, eventsHeartbeat)
	mux.Handle("GET /api/events", allow(member, es.serve))
	return nil
}

// eventStreams serves the live-update streams of one handler.
type eventStreams struct {
	s         *server
	heartbeat time.Duration

	mu sync.Mutex
	// stopping holds, per http.Server serving this handler, a channel closed
	// when that server begins a graceful shutdown, so open streams end at
	// once instead of holding shutdown up until its deadline.
	stopping map[*http.Server]chan struct{}
}

func newEventStreams(s *server, heartbeat time.Duration) *eventStreams {
	return &eventStreams{s: s, heartbeat: heartbeat, stopping: make(map[*http.Server]chan struct{})}
}

// shutdownSignal returns a channel closed when the server that received r
// shuts down (nil, which never fires, when r came from no http.Server).
func (es *eventStreams) shutdownSignal(r *http.Request) <-chan struct{} {
	srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server)
	if !ok {
		return nil
	}
	es.mu.Lock()
	defer es.mu.Unlock()
	ch, ok := es.stopping[srv]
	if !ok {
		ch = make(chan struct{})
		es.stopping[srv] = ch
		srv.RegisterOnShutdown(func() { close(ch) })
	}
	return ch
}

// serve streams live-update notices as server-sent events: cohorts and
// sessions to every signed-in user, subscription and profile only to the
// user they concern. A notice names a topic, never data; the page refetches.
func (es *eventStreams) serve(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.PrincipalFrom(r.Context())
	stop := es.shutdownSignal(r)
	select {
	case <-stop:
		writeError(w, http.StatusServiceUnavailable, "shutting_down", "The server is restarting. Please try again shortly.")
		return
	default:
	}
	sub, err := es.s.hub.Subscribe(r.Context(), p.UserID)
	switch {
	case errors.Is(err, events.ErrTooMany):
		writeError(w, http.StatusTooManyRequests, "too_many_streams",
			"Too many open tabs are following live updates. Close some of them and reload this page.")
		return
	case err != nil:
		if r.Context().Err() == nil {
			es.s.Logger.Error("open live-update stream", "err", err)
			writeError(w, http.StatusServiceUnavailable, "events_unavailable", "Live updates are not available right now.")
		}
		return
	}
	defer sub.Close()

	rc := http.NewResponseController(w)
	// A stream outlives any write timeout meant for ordinary responses.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		es.s.Logger.Warn("clear write deadline of live-update stream", "err", err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	send := func(format string, args ...any) bool {
		if _, err := fmt.Fprintf(w, format, args...); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("retry: %d\n\nevent: ready\ndata: {}\n\n", eventsRetry.Milliseconds()) {
		return
	}
	tick := time.NewTicker(es.heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-stop:
			return
		case <-sub.Done():
			return
		case <-sub.Wake():
			for _, topic := range sub.Take() {
				data, _ := json.Marshal(events.Event{Topic: topic})
				if !send("event: %s\ndata: %s\n\n", topic, data) {
					return
				}
			}
		case <-tick.C:
			// Ending the stream is enough when the session is gone: the
			// browser reconnects, gets 401 and stops retrying.
			alive, err := es.s.authService().SessionActive(r.Context(), p.SessionID)
			if err != nil {
				if r.Context().Err() == nil {
					es.s.Logger.Warn("live-update stream: session check failed", "err", err)
				}
			} else if !alive {
				return
			}
			if !send(": keep-alive\n\n") {
				return
			}
		}
	}
}
