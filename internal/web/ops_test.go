package web

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestMetricsByRoutePatternForLocalOrTokenHolders(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		const token = "a-long-metrics-token-0123456789"
		site := newTestSite(t, db, map[string]string{"TRIBE_METRICS_TOKEN": token})
		u := site.user("ada@example.com")
		site.call(u, "GET", "/api/tribe/status", nil)
		missing := store.NewID()
		site.call(u, "GET", "/api/sessions/"+missing, nil) // 404 from a pattern with a parameter
		page, err := http.Get(site.srv.URL + "/about")
		if err != nil {
			t.Fatal(err)
		}
		_ = page.Body.Close()

		scrape := func(hdr map[string]string) (int, string) {
			req, _ := http.NewRequest("GET", site.srv.URL+"/metrics", nil)
			for k, v := range hdr {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		status, body := scrape(nil)
		if status != 200 {
			t.Fatalf("local scrape: %d", status)
		}
		for _, want := range []string{
			`tribe_http_requests_total{method="GET",route="GET /api/tribe/status",status="200"} 1`,
			`tribe_http_requests_total{method="GET",route="GET /api/sessions/{id}",status="404"} 1`,
			`tribe_http_request_duration_seconds_bucket{route="GET /api/tribe/status",le=`,
			`tribe_http_requests_total{method="GET",route="/",status="200"} 1`,
			`tribe_mail_outbox_messages{status="pending"}`,
			`tribe_live_update_streams 0`,
			`go_sql_open_connections{db_name="write"}`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("metrics lack %s", want)
			}
		}
		// A page comes from memory: counted, kept out of the latency quantiles.
		if strings.Contains(body, `tribe_http_request_duration_seconds_count{route="/"}`) {
			t.Error("a page of the web app was observed in the latency histogram")
		}
		if strings.Contains(body, missing) {
			t.Error("raw paths must not become labels")
		}
		if status, _ := scrape(map[string]string{"X-Forwarded-For": "203.0.113.9"}); status != 404 {
			t.Errorf("a proxied scrape without the token: %d, want 404", status)
		}
		if status, _ := scrape(map[string]string{"X-Forwarded-For": "203.0.113.9", "Authorization": "Bearer wrong-token-wrong-token"}); status != 404 {
			t.Errorf("a wrong token: %d, want 404", status)
		}
		if status, body := scrape(map[string]string{"X-Forwarded-For": "203.0.113.9", "Authorization": "Bearer " + token}); status != 200 || !bytes.Contains([]byte(body), []byte("tribe_http_requests_total")) {
			t.Errorf("the token: %d", status)
		}
	})
}
