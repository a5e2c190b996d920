package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"tribe/internal/mail/mailtest"
	"tribe/internal/store/storetest"
)

// Two binaries on one PostgreSQL database behave as one site: a session made
// on A works on B, a change on A reaches a live-update stream on B, and each
// outbox message is delivered once although both instances run a mail worker.
func TestTwoInstancesOnOnePostgres(t *testing.T) {
	bin := buildBinary(t)
	dbURL := storetest.NewPostgresSchema(t)
	smtp := mailtest.Start(t)
	env := func() []string {
		return []string{"DATABASE_URL=" + dbURL, "TRIBE_DATA_DIR=" + t.TempDir(), "SMTP_URL=" + smtp.URL(), "SMTP_FROM=tribe@example.com"}
	}
	a, _ := startServer(t, bin, env())
	b, _ := startServer(t, bin, env())

	post := func(base, path, cookie, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if cookie != "" {
			req.Header.Set("Cookie", cookie)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		return resp
	}
	resp := post(a, "/api/auth/signup", "", `{"full_name":"Ada","email":"ada@example.com","password":"analytical"}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("sign up on A: %d", resp.StatusCode)
	}
	cookie := strings.Split(resp.Header.Get("Set-Cookie"), ";")[0]

	// The session made on A signs the user in on B.
	req, _ := http.NewRequest("GET", b+"/api/auth/session", nil)
	req.Header.Set("Cookie", cookie)
	sess, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(sess.Body)
	_ = sess.Body.Close()
	if !strings.Contains(string(body), `"email":"ada@example.com"`) {
		t.Fatalf("the session from A on B: %s", body)
	}

	// A cohort made on A reaches the stream open on B.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, "GET", b+"/api/events", nil)
	req.Header.Set("Cookie", cookie)
	stream, err := http.DefaultClient.Do(req)
	if err != nil || stream.StatusCode != 200 {
		t.Fatalf("stream on B: %v %v", stream, err)
	}
	defer func() { _ = stream.Body.Close() }()
	waitFor := eventNames(t, ctx, stream.Body, "on B")
	waitFor("ready")
	if resp := post(a, "/api/cohorts", cookie, `{"name":"Builders"}`); resp.StatusCode != http.StatusCreated {
		t.Fatalf("create cohort on A: %d", resp.StatusCode)
	}
	waitFor("cohorts")

	// Mail queued on either instance leaves once: the sign-up confirmation
	// plus ten wait-list confirmations, half through each instance.
	for i := range 10 {
		base := a
		if i%2 == 1 {
			base = b
		}
		if resp := post(base, "/api/waitlist", "", fmt.Sprintf(`{"full_name":"Guest %d","email":"guest%d@example.com"}`, i, i)); resp.StatusCode != http.StatusCreated {
			t.Fatalf("wait list %d: %d", i, resp.StatusCode)
		}
	}
	smtp.WaitFor(t, 11, 30*time.Second)
	time.Sleep(3 * time.Second) // both workers poll every second: time for a duplicate to show
	got := smtp.Messages()
	seen := map[string]int{}
	for _, m := range got {
		seen[m.MessageID]++
	}
	if len(got) != 11 || len(seen) != 11 {
		t.Fatalf("want 11 messages each sent once, got %d messages with %d distinct ids", len(got), len(seen))
	}
}

// eventNames reads the event names of a live-update stream as they come and
// returns a function that waits for the next event called name (skipping
// others), failing the test when the stream ends or ctx does first; where
// says which stream, for the failure message.
func eventNames(t *testing.T, ctx context.Context, body io.Reader, where string) func(name string) {
	t.Helper()
	events := make(chan string, 16)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(body)
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				events <- name
			}
		}
	}()
	return func(name string) {
		t.Helper()
		for {
			select {
			case got, ok := <-events:
				if !ok {
					t.Fatalf("the stream %s ended before %q", where, name)
				}
				if got == name {
					return
				}
			case <-ctx.Done():
				t.Fatalf("no %q event %s", name, where)
			}
		}
	}
}
