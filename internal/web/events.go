package web

import (
	"context"
	"errors"
	"net/http"
	"time"

	"tribe/internal/errs"
	"tribe/internal/events"
	"tribe/internal/httpx"
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

// registerEvents adds GET /api/events.
func (s *server) registerEvents(mux *http.ServeMux) error {
	heartbeat := eventsHeartbeat
	if s.heartbeat > 0 {
		heartbeat = s.heartbeat
	}
	s.streams = httpx.NewStreams(heartbeat, eventsRetry)
	s.route(mux, "GET /api/events", member, s.serveEvents)
	return nil
}

var (
	errTooManyStreams = errs.New(errs.TooManyStreams,
		"Too many open tabs are following live updates. Close some of them and reload this page.")
	errEventsUnavailable = errs.New(errs.Unavailable, "Live updates are not available right now.")
)

// serveEvents streams live-update notices as server-sent events: cohorts and
// sessions to every signed-in user, subscription and profile only to the
// user they concern. A notice names a topic, never data; the page refetches.
func (s *server) serveEvents(w http.ResponseWriter, r *http.Request) {
	p := caller(r)
	if s.streams.Stopping(r) {
		httpx.WriteError(w, r, httpx.ErrShuttingDown)
		return
	}
	sub, err := s.hub.Subscribe(r.Context(), p.UserID)
	switch {
	case errors.Is(err, events.ErrTooMany):
		httpx.WriteError(w, r, errTooManyStreams)
		return
	case err != nil:
		if r.Context().Err() == nil {
			s.Logger.Error("open live-update stream", "err", err)
			httpx.WriteError(w, r, errEventsUnavailable)
		}
		return
	}
	defer sub.Close()

	stream, err := s.streams.Open(w, r)
	if err != nil {
		if !errors.Is(err, httpx.ErrShuttingDown) {
			s.Logger.Warn("open live-update stream", "err", err)
		}
		return
	}
	defer stream.Close()
	if stream.Send("ready", struct{}{}) != nil {
		return
	}
	for {
		select {
		case <-stream.Done():
			return
		case <-sub.Done():
			return
		case <-sub.Wake():
			for _, topic := range sub.Take() {
				if stream.Send(topic, events.Event{Topic: topic}) != nil {
					return
				}
			}
		case <-stream.Heartbeat():
			// Ending the stream is enough when the session is gone: the
			// browser reconnects, gets 401 and stops retrying.
			alive, err := s.authService().SessionActive(stream.Context(), p.SessionID)
			if err != nil {
				if stream.Context().Err() == nil {
					s.Logger.Warn("live-update stream: session check failed", "err", err)
				}
			} else if !alive {
				return
			}
			if stream.KeepAlive() != nil {
				return
			}
		}
	}
}
