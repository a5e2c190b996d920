package httpx

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
)

type noteKey struct{}

// Note is what a request's handlers leave for its log line and metrics: the
// internal error it answered with, and the route pattern that served it.
type Note struct {
	mu      sync.Mutex
	err     error
	pattern string
}

// WithNote returns r carrying a fresh Note, which the request logger reads
// after the handler has run, so an internal failure is logged once, on its
// request's line.
func WithNote(r *http.Request) (*http.Request, *Note) {
	n := &Note{}
	return r.WithContext(context.WithValue(r.Context(), noteKey{}, n)), n
}

// Err is the internal error WriteError answered with, if any.
func (n *Note) Err() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.err
}

// Pattern is the route pattern that served the request ("" when none matched).
func (n *Note) Pattern() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.pattern
}

// NotePattern records r.Pattern, set by the ServeMux that served r, on r's Note.
func NotePattern(r *http.Request) {
	if n, ok := r.Context().Value(noteKey{}).(*Note); ok {
		n.mu.Lock()
		n.pattern = r.Pattern
		n.mu.Unlock()
	}
}

func noteError(r *http.Request, err error) {
	if n, ok := r.Context().Value(noteKey{}).(*Note); ok {
		n.mu.Lock()
		n.err = err
		n.mu.Unlock()
		return
	}
	// Served without the request logger (a test, a tool): log it here.
	slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
}
