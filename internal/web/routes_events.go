package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"tribe/internal/auth"
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

// publisher tells open browser tabs that something changed.
type publisher struct {
	hub    *events.Hub
	logger *slog.Logger
}

// publish sends e. It never fails the request that caused the change: a
// lost notice only delays a refresh.
func (p publisher) publish(ctx context.Context, e events.Event) {
	// The change is already made; a client hanging up now must not cancel
	// the notice about it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := p.hub.Publish(ctx, e); err != nil {
		p.logger.Warn("live update not sent", "topic", e.Topic, "err", err)
	}
}

// eventsAPI serves the live-update stream.
type eventsAPI struct {
	hub     *events.Hub
	auth    *auth.Service // whether a stream's session still lives
	logger  *slog.Logger
	streams *httpx.Streams
}

func newEventsAPI(hub *events.Hub, svc *auth.Service, logger *slog.Logger, heartbeat time.Duration) *eventsAPI {
	return &eventsAPI{hub: hub, auth: svc, logger: logger, streams: httpx.NewStreams(heartbeat, eventsRetry)}
}

func (a *eventsAPI) register(g *registrar) error {
	g.route("GET /api/events", member, a.serve)
	return nil
}

var (
	errTooManyStreams = errs.New(errs.TooManyStreams,
		"Too many open tabs are following live updates. Close some of them and reload this page.")
	errEventsUnavailable = errs.New(errs.Unavailable, "Live updates are not available right now.")
)

// serve streams live-update notices as server-sent events: cohorts and
// sessions to every signed-in user, subscription and profile only to the
// user they concern. A notice names a topic, never data; the page refetches.
func (a *eventsAPI) serve(w http.ResponseWriter, r *http.Request) error {
	p := caller(r)
	// Ending the stream is enough when the session is gone: the browser
	// reconnects, gets 401 and stops retrying.
	alive := func(ctx context.Context) bool {
		ok, err := a.auth.SessionActive(ctx, p.SessionID)
		if err != nil {
			if ctx.Err() == nil {
				a.logger.Warn("live-update stream: session check failed", "err", err)
			}
			return true
		}
		return ok
	}
	return relayNotices(w, r, notices{hub: a.hub, streams: a.streams, logger: a.logger}, p.UserID, nil, alive)
}

// notices is what a live-update stream is made of: the hub it follows, the
// streams it is written through and the log for what goes wrong.
type notices struct {
	hub     *events.Hub
	streams *httpx.Streams
	logger  *slog.Logger
}

// relayNotices follows key on the hub and relays its notices as server-sent
// events until the client leaves, the hub ends the subscription, or alive
// (asked at each heartbeat; nil for always) says no. keep picks the topics
// the page follows (nil for all). It is the one loop of every live stream.
func relayNotices(w http.ResponseWriter, r *http.Request, n notices, key string, keep func(topic string) bool, alive func(context.Context) bool) error {
	if n.streams.Stopping(r) {
		return httpx.ErrShuttingDown
	}
	sub, err := n.hub.Subscribe(r.Context(), key)
	switch {
	case errors.Is(err, events.ErrTooMany):
		return errTooManyStreams
	case err != nil:
		if r.Context().Err() != nil {
			return nil // the client went away
		}
		n.logger.Error("open live-update stream", "err", err)
		return errEventsUnavailable
	}
	defer sub.Close()

	stream, err := n.streams.Open(w, r)
	if err != nil {
		if !errors.Is(err, httpx.ErrShuttingDown) {
			n.logger.Warn("open live-update stream", "err", err)
		}
		return nil // Open answered a shutdown itself; anything else is a client gone
	}
	defer stream.Close()
	if stream.Send("ready", struct{}{}) != nil {
		return nil
	}
	for {
		select {
		case <-stream.Done():
			return nil
		case <-sub.Done():
			return nil
		case <-sub.Wake():
			for _, topic := range sub.Take() {
				if keep != nil && !keep(topic) {
					continue
				}
				if stream.Send(topic, events.Event{Topic: topic}) != nil {
					return nil
				}
			}
		case <-stream.Heartbeat():
			if alive != nil && !alive(stream.Context()) {
				return nil
			}
			if stream.KeepAlive() != nil {
				return nil
			}
		}
	}
}
