package metrics

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	return rec.Body.String()
}

func TestRequestsCountPerSeries(t *testing.T) {
	m := New(Sources{})
	for range 3 {
		m.Request("GET /api/sessions", http.MethodGet, 200, 2*time.Millisecond, false)
	}
	m.Request("GET /api/sessions", http.MethodGet, 401, time.Millisecond, false)
	m.Request("GET /api/events", http.MethodGet, 200, time.Minute, true)
	m.Request("/", http.MethodGet, 200, time.Microsecond, true)
	m.Request("", "BREW", 404, time.Millisecond, false)
	m.Request("", "PROPFIND", 404, time.Millisecond, false)
	out := scrape(t, m)
	for _, want := range []string{
		`tribe_http_requests_total{method="GET",route="GET /api/sessions",status="200"} 3`,
		`tribe_http_requests_total{method="GET",route="GET /api/sessions",status="401"} 1`,
		`tribe_http_request_duration_seconds_count{route="GET /api/sessions"} 4`,
		`tribe_http_requests_total{method="GET",route="GET /api/events",status="200"} 1`,
		`tribe_http_requests_total{method="GET",route="/",status="200"} 1`,
		// Made-up methods share one series.
		`tribe_http_requests_total{method="OTHER",route="unmatched",status="404"} 2`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	// A stream's minute-long life is not a request latency, nor is a file
	// served from memory one worth a quantile.
	for _, route := range []string{"GET /api/events", "/"} {
		if strings.Contains(out, `tribe_http_request_duration_seconds_count{route="`+route+`"}`) {
			t.Errorf("untimed %s was observed in the latency histogram", route)
		}
	}
}
