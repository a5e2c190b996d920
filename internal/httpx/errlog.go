package httpx

import (
	"log/slog"
	"net/http"
	"sync"
)

// Recorder is the response writer the request logger hands to the handlers:
// it keeps the status and size of the response, and what the handlers leave
// for the request's log line and metrics (the internal error the request was
// answered with, the route pattern that served it). Handlers reach it through
// the writer they were given, so the request itself is not copied to carry it.
type Recorder struct {
	http.ResponseWriter
	status int
	bytes  int

	mu      sync.Mutex // an error may be noted by a handler's own goroutine
	err     error
	pattern string
}

// NewRecorder wraps w.
func NewRecorder(w http.ResponseWriter) *Recorder { return &Recorder{ResponseWriter: w} }

// recorders keeps Recorders between requests: one per request was a tenth
// of what the site's own work on a page allocates.
var recorders = sync.Pool{New: func() any { return new(Recorder) }}

// AcquireRecorder is NewRecorder from a pool. Hand it back with Release
// once the handlers have returned: net/http forbids using a response
// writer after that, so nothing holds it any more.
func AcquireRecorder(w http.ResponseWriter) *Recorder {
	rec := recorders.Get().(*Recorder)
	rec.ResponseWriter = w
	return rec
}

// Release clears rec and gives it back to the pool of AcquireRecorder.
func (rec *Recorder) Release() {
	rec.ResponseWriter, rec.status, rec.bytes, rec.err, rec.pattern = nil, 0, 0, nil, ""
	recorders.Put(rec)
}

// WriteHeader remembers the first status sent.
func (rec *Recorder) WriteHeader(code int) {
	if rec.status == 0 {
		rec.status = code
	}
	rec.ResponseWriter.WriteHeader(code)
}

func (rec *Recorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	n, err := rec.ResponseWriter.Write(b)
	rec.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach Flush for streaming responses.
func (rec *Recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// Status is the status sent (200 when the handler wrote nothing).
func (rec *Recorder) Status() int {
	if rec.status == 0 {
		return http.StatusOK
	}
	return rec.status
}

// Bytes is the size of the body sent.
func (rec *Recorder) Bytes() int { return rec.bytes }

// Err is the internal error WriteError answered with, if any.
func (rec *Recorder) Err() error {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.err
}

// Pattern is the route pattern that served the request ("" when none matched).
func (rec *Recorder) Pattern() string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.pattern
}

// Outcome is what the request's log line and metrics read once the
// handlers are done: Status, Pattern and Err, under one lock.
func (rec *Recorder) Outcome() (status int, pattern string, err error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.Status(), rec.pattern, rec.err
}

// NotePattern records r.Pattern, set by the ServeMux that served r, on the
// Recorder behind w.
func NotePattern(w http.ResponseWriter, r *http.Request) {
	if rec := recorderOf(w); rec != nil {
		rec.mu.Lock()
		rec.pattern = r.Pattern
		rec.mu.Unlock()
	}
}

func noteError(w http.ResponseWriter, r *http.Request, err error) {
	if rec := recorderOf(w); rec != nil {
		rec.mu.Lock()
		rec.err = err
		rec.mu.Unlock()
		return
	}
	// Served without the request logger (a test, a tool): log it here.
	slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
}

// recorderOf finds the Recorder behind w, looking through writers that
// wrap another (Unwrap, as http.ResponseController does).
func recorderOf(w http.ResponseWriter) *Recorder {
	for w != nil {
		if rec, ok := w.(*Recorder); ok {
			return rec
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
	return nil
}
