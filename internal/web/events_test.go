package web

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/auth"
	"tribe/internal/events"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// syncBuffer is a log destination tests can read while handlers write to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// sseMessage is one block of a server-sent-event stream.
type sseMessage struct {
	event, data, retry, comment string
}

type sseStream struct {
	msgs   chan sseMessage // closed when the stream ends
	cancel context.CancelFunc
}

// openStream connects to /api/events with the session token and reads the
// stream in the background.
func openStream(t *testing.T, baseURL, token string) *sseStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, baseURL+"/api/events", nil)
	req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: token})
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		cancel()
		t.Fatalf("GET /api/events: %d %s", resp.StatusCode, body)
	}
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	s := &sseStream{msgs: make(chan sseMessage, 64), cancel: cancel}
	go func() {
		defer close(s.msgs)
		defer func() { _ = resp.Body.Close() }()
		sc := bufio.NewScanner(resp.Body)
		var m sseMessage
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				if m != (sseMessage{}) {
					s.msgs <- m
				}
				m = sseMessage{}
				continue
			}
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "":
				m.comment = value
			case "event":
				m.event = value
			case "data":
				m.data = value
			case "retry":
				m.retry = value
			}
		}
	}()
	t.Cleanup(cancel)
	return s
}

// next returns the next block that is not a keep-alive comment.
func (s *sseStream) next(t *testing.T) sseMessage {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-s.msgs:
			if !ok {
				t.Fatal("stream ended")
			}
			if m.comment == "" {
				return m
			}
		case <-timeout:
			t.Fatal("no event within 10 s")
		}
	}
}

// ready reads the opening of a stream.
func (s *sseStream) ready(t *testing.T) {
	t.Helper()
	if m := s.next(t); m.retry != "3000" {
		t.Fatalf("first block %+v, want retry: 3000", m)
	}
	if m := s.next(t); m.event != "ready" {
		t.Fatalf("second block %+v, want the ready event", m)
	}
}

// expect asserts that the next event is a notice for topic.
func (s *sseStream) expect(t *testing.T, topic string) {
	t.Helper()
	m := s.next(t)
	if m.event != topic || m.data != `{"topic":"`+topic+`"}` {
		t.Fatalf("got %+v, want a %s notice", m, topic)
	}
}

// quiet asserts that no event (other than a keep-alive) arrives for d.
func (s *sseStream) quiet(t *testing.T, d time.Duration) {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case m, ok := <-s.msgs:
			if ok && m.comment == "" {
				t.Fatalf("unexpected %+v", m)
			}
		case <-timeout:
			return
		}
	}
}

// ended waits for the server to end the stream.
func (s *sseStream) ended(t *testing.T, within time.Duration) {
	t.Helper()
	timeout := time.After(within)
	for {
		select {
		case _, ok := <-s.msgs:
			if !ok {
				return
			}
		case <-timeout:
			t.Fatalf("stream still open after %s", within)
		}
	}
}

func TestEventsNeedASession(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	site := newTestSite(t, db, nil)
	srv := site.srv
	resp, body := get(t, srv, "/api/events", map[string]string{"Cookie": auth.CookieName + "=not-a-session"})
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, `"unauthorized"`) {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
}

func TestEventsStreamThroughTheFullHandler(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		site := newTestSite(t, db, nil)
		srv := site.srv
		token := site.user("ada@example.com").token
		openStream(t, srv.URL, token).ready(t)
	})
}

func TestEventsDeliverNoticesToTheRightUsers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		site := newTestSite(t, db, nil)
		s, srv := publisher{hub: site.s.Services.Hub, logger: site.s.Logger}, site.srv
		adaUser := site.user("ada@example.com")
		adaID, adaToken := adaUser.id, adaUser.token
		bobToken := site.user("bob@example.com").token
		ada, bob := openStream(t, srv.URL, adaToken), openStream(t, srv.URL, bobToken)
		ada.ready(t)
		bob.ready(t)

		s.publish(t.Context(), events.Event{Topic: events.TopicSessions})
		ada.expect(t, events.TopicSessions)
		bob.expect(t, events.TopicSessions)

		s.publish(t.Context(), events.Event{Topic: events.TopicSubscription, UserID: adaID})
		ada.expect(t, events.TopicSubscription)
		s.publish(t.Context(), events.Event{Topic: events.TopicCohorts})
		// bob never hears of ada's subscription: his next notice is cohorts.
		bob.expect(t, events.TopicCohorts)
		ada.expect(t, events.TopicCohorts)
		ada.quiet(t, 300*time.Millisecond)
	})
}

func TestEventsReachStreamsOnAnotherInstance(t *testing.T) {
	t.Parallel()
	url := storetest.NewPostgresSchema(t)
	dbA := storetest.Open(t, url, t.TempDir())
	dbB := storetest.Open(t, url, t.TempDir())
	siteA, siteB := newTestSite(t, dbA, nil), newTestSite(t, dbB, nil)
	a, srvA, srvB := publisher{hub: siteA.s.Services.Hub, logger: siteA.s.Logger}, siteA.srv, siteB.srv

	ada := siteA.user("ada@example.com")
	adaID, adaToken := ada.id, ada.token
	bobToken := siteA.user("bob@example.com").token
	adaOnB, bobOnB := openStream(t, srvB.URL, adaToken), openStream(t, srvB.URL, bobToken)
	adaOnA := openStream(t, srvA.URL, adaToken)
	for _, s := range []*sseStream{adaOnB, bobOnB, adaOnA} {
		s.ready(t)
	}

	a.publish(t.Context(), events.Event{Topic: events.TopicCohorts})
	adaOnB.expect(t, events.TopicCohorts)
	bobOnB.expect(t, events.TopicCohorts)
	adaOnA.expect(t, events.TopicCohorts)

	a.publish(t.Context(), events.Event{Topic: events.TopicProfile, UserID: adaID})
	adaOnB.expect(t, events.TopicProfile)
	adaOnA.expect(t, events.TopicProfile)
	bobOnB.quiet(t, 300*time.Millisecond)
	// The publishing instance delivers once, not again from its listener.
	adaOnA.quiet(t, 300*time.Millisecond)
}

func TestEventsStreamEndsWithTheSession(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		site := newTestSite(t, db, nil, withHeartbeat(100*time.Millisecond))
		srv := site.srv
		ada := site.user("ada@example.com")
		sessionID, token := ada.sessionID, ada.token
		st := openStream(t, srv.URL, token)
		st.ready(t)
		st.quiet(t, 300*time.Millisecond) // heartbeats pass while the session lives
		if _, err := db.Write.ExecContext(t.Context(), `DELETE FROM auth_sessions WHERE id = $1`, sessionID); err != nil {
			t.Fatal(err)
		}
		st.ended(t, 2*time.Second)
	})
}

func TestEventsStreamEndsWhenTheClientLeaves(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	var log syncBuffer
	site := newTestSite(t, db, nil, withLog(&log))
	srv := site.srv
	token := site.user("ada@example.com").token
	st := openStream(t, srv.URL, token)
	st.ready(t)
	st.cancel()
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(log.String(), "path=/api/events") {
		if time.Now().After(deadline) {
			t.Fatal("the stream's request did not finish after the client went away")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestShutdownEndsStreams(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		site := newTestSite(t, db, nil)
		srv := site.srv
		token := site.user("ada@example.com").token
		st := openStream(t, srv.URL, token)
		st.ready(t)

		ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
		defer cancel()
		start := time.Now()
		if err := srv.Config.Shutdown(ctx); err != nil {
			t.Fatalf("shutdown with an open stream: %v", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("shutdown took %s", d)
		}
		st.ended(t, time.Second)
	})
}

func TestEventsRefuseTooManyStreamsOfOneUser(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	site := newTestSite(t, db, nil)
	srv := site.srv
	token := site.user("ada@example.com").token
	for range events.MaxStreamsPerUser {
		openStream(t, srv.URL, token).ready(t)
	}
	resp, body := get(t, srv, "/api/events", map[string]string{"Cookie": auth.CookieName + "=" + token})
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, `"too_many_streams"`) {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
}
