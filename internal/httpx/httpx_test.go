package httpx

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tribe/internal/errs"
)

func TestEveryCodeHasAStatus(t *testing.T) {
	for _, code := range errs.Codes() {
		s, ok := statusOf[code]
		if !ok {
			t.Errorf("code %q has no status", code)
			continue
		}
		if s < 400 || s > 599 {
			t.Errorf("code %q maps to %d, not an error status", code, s)
		}
	}
	if len(statusOf) != len(errs.Codes()) {
		t.Errorf("the status table has %d codes, errs.Codes() %d", len(statusOf), len(errs.Codes()))
	}
}

func decodeError(t *testing.T, rec *httptest.ResponseRecorder) ErrorDetail {
	t.Helper()
	var body ErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("error body %q: %v", rec.Body.String(), err)
	}
	return body.Error
}

func TestWriteErrorAnswersCodedErrorsAsTheyAre(t *testing.T) {
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/", nil)
	WriteError(rec, r, errs.Field("title", "Please enter a title"))
	if d := decodeError(t, rec); rec.Code != 400 || d.Code != "invalid" || d.Message != "Please enter a title" || d.Field != "title" {
		t.Fatalf("%d %+v", rec.Code, d)
	}
	if got := rec.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control %q", got)
	}
}

func TestWriteErrorHidesInternalErrorsAndNotesThem(t *testing.T) {
	rec := httptest.NewRecorder()
	note := NewRecorder(rec)
	r := httptest.NewRequest("GET", "/", nil)
	secret := errors.New("pq: password authentication failed for user tribe")
	// Through a writer wrapping the recorder, as a handler may have.
	WriteError(wrapped{note}, r, secret)
	d := decodeError(t, rec)
	if rec.Code != 500 || d.Code != "internal" || strings.Contains(rec.Body.String(), "password") {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	if !errors.Is(note.Err(), secret) {
		t.Fatalf("the request's note holds %v", note.Err())
	}
}

func TestWriteErrorSaysNothingToAClientThatLeft(t *testing.T) {
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/", nil)
	ctx, cancel := contextWithCancel(r)
	cancel()
	WriteError(rec, r.WithContext(ctx), errors.New("context canceled"))
	if rec.Body.Len() != 0 {
		t.Fatalf("answered %q", rec.Body.String())
	}
}

func TestNotePatternRecordsTheMatchedRoute(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/cohorts/{id}", func(http.ResponseWriter, *http.Request) {})
	r := httptest.NewRequest("GET", "/api/cohorts/42", nil)
	note := NewRecorder(httptest.NewRecorder())
	mux.ServeHTTP(note, r)
	NotePattern(note, r)
	if note.Pattern() != "GET /api/cohorts/{id}" {
		t.Fatalf("pattern %q", note.Pattern())
	}
}

// wrapped is a writer wrapping another, as http.ResponseController expects.
type wrapped struct{ http.ResponseWriter }

func (w wrapped) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// TestRetryAfterTravelsWithTheError: a refusal that knows when to come back
// carries it in the one error type, and WriteError turns it into
// Retry-After (whole seconds, rounded up, at least 1), also through a
// wrapped error; After leaves the shared refusal it copies unchanged.
func TestRetryAfterTravelsWithTheError(t *testing.T) {
	shared := errs.New(errs.RateLimited, "Too many.")
	for _, c := range []struct {
		err  error
		want string
	}{
		{shared.After(90 * time.Second), "90"},
		{shared.After(1500 * time.Millisecond), "2"},
		{shared.After(time.Millisecond), "1"},
		{fmt.Errorf("hold: %w", shared.After(31*time.Minute)), "1860"},
		{shared, ""},
	} {
		rec := httptest.NewRecorder()
		WriteError(rec, httptest.NewRequest("POST", "/", nil), c.err)
		if rec.Code != 429 || rec.Header().Get("Retry-After") != c.want {
			t.Errorf("%v: %d, Retry-After %q, want 429 and %q", c.err, rec.Code, rec.Header().Get("Retry-After"), c.want)
		}
	}
	if shared.RetryAfter != 0 {
		t.Errorf("After changed the shared error: %v", shared.RetryAfter)
	}
}
