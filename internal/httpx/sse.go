package httpx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"tribe/internal/errs"
)

// ErrShuttingDown refuses a new stream while the server is stopping.
var ErrShuttingDown = errs.New(errs.ShuttingDown, "The server is restarting. Please try again shortly.")

// Streams opens server-sent-event streams for one handler and ends them when
// the http.Server serving them begins a graceful shutdown, so open streams
// never hold shutdown up until its deadline.
type Streams struct {
	heartbeat time.Duration
	retry     time.Duration

	mu       sync.Mutex
	stopping map[*http.Server]chan struct{}
}

// NewStreams returns streams that send a keep-alive every heartbeat and ask
// browsers to wait retry before reconnecting a dropped stream. A zero retry
// sends no retry hint: streams that answer one request (the AI chat) are
// read by fetch, not EventSource, and are never reconnected.
func NewStreams(heartbeat, retry time.Duration) *Streams {
	return &Streams{heartbeat: heartbeat, retry: retry, stopping: make(map[*http.Server]chan struct{})}
}

// shutdownSignal returns a channel closed when the server that received r
// shuts down (nil, which never fires, when r came from no http.Server).
func (st *Streams) shutdownSignal(r *http.Request) <-chan struct{} {
	srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server)
	if !ok {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	ch, ok := st.stopping[srv]
	if !ok {
		ch = make(chan struct{})
		st.stopping[srv] = ch
		srv.RegisterOnShutdown(func() { close(ch) })
	}
	return ch
}

// Stopping reports whether the server that received r is shutting down.
func (st *Streams) Stopping(r *http.Request) bool {
	select {
	case <-st.shutdownSignal(r):
		return true
	default:
		return false
	}
}

// Stream is one open server-sent-events response.
type Stream struct {
	w      http.ResponseWriter
	rc     *http.ResponseController
	ctx    context.Context
	cancel context.CancelFunc
	tick   *time.Ticker
}

// Open starts a stream on w: it lifts the write deadline meant for ordinary
// responses, sends the headers and the retry hint, and returns the stream.
// It answers ErrShuttingDown itself and returns it when the server is
// stopping. Call Close when done.
func (st *Streams) Open(w http.ResponseWriter, r *http.Request) (*Stream, error) {
	stop := st.shutdownSignal(r)
	if st.Stopping(r) {
		WriteError(w, r, ErrShuttingDown)
		return nil, ErrShuttingDown
	}
	rc := http.NewResponseController(w)
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return nil, fmt.Errorf("clear write deadline of stream: %w", err)
	}
	if err := rc.SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return nil, fmt.Errorf("clear read deadline of stream: %w", err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	ctx, cancel := context.WithCancel(r.Context())
	if stop != nil {
		go func() {
			select {
			case <-stop:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	s := &Stream{w: w, rc: rc, ctx: ctx, cancel: cancel, tick: time.NewTicker(st.heartbeat)}
	if st.retry > 0 {
		if err := s.write(fmt.Sprintf("retry: %d\n\n", st.retry.Milliseconds())); err != nil {
			s.Close()
			return nil, err
		}
	} else if err := s.rc.Flush(); err != nil {
		// The headers go out now, so the client knows the stream started.
		s.Close()
		return nil, err
	}
	return s, nil
}

// Context ends when the client goes away, the server shuts down or the
// stream is closed; work done for the stream should use it.
func (s *Stream) Context() context.Context { return s.ctx }

// Done is closed when the stream's context ends.
func (s *Stream) Done() <-chan struct{} { return s.ctx.Done() }

// Heartbeat ticks when a keep-alive is due; answer it with KeepAlive.
func (s *Stream) Heartbeat() <-chan time.Time { return s.tick.C }

// Send writes one event with data encoded as JSON and flushes it.
func (s *Stream) Send(event string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encode %s event: %w", event, err)
	}
	return s.write("event: " + event + "\ndata: " + string(b) + "\n\n")
}

// SendData writes one unnamed event, "data: {json}", and flushes it: the
// wire format of OpenAI-compatible streams, which name no events.
func (s *Stream) SendData(data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encode data event: %w", err)
	}
	return s.write("data: " + string(b) + "\n\n")
}

// SendDone writes "data: [DONE]", the last line of an OpenAI-compatible
// stream.
func (s *Stream) SendDone() error { return s.write("data: [DONE]\n\n") }

// KeepAlive writes a comment that keeps proxies from closing an idle stream.
func (s *Stream) KeepAlive() error { return s.write(": keep-alive\n\n") }

// Close releases the stream's timer and context.
func (s *Stream) Close() {
	s.tick.Stop()
	s.cancel()
}

func (s *Stream) write(frame string) error {
	if _, err := s.w.Write([]byte(frame)); err != nil {
		return err
	}
	return s.rc.Flush()
}
