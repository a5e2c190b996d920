package events

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func subscribe(t *testing.T, h *Hub, userID string) *Subscription {
	t.Helper()
	s, err := h.Subscribe(t.Context(), userID)
	if err != nil {
		t.Fatalf("subscribe %q: %v", userID, err)
	}
	t.Cleanup(s.Close)
	return s
}

// collect gathers topics from s until every wanted topic has arrived.
func collect(t *testing.T, s *Subscription, want ...string) []string {
	t.Helper()
	var got []string
	deadline := time.After(10 * time.Second)
	for {
		if !slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(got, w) }) {
			return got
		}
		select {
		case <-s.Wake():
			got = append(got, s.Take()...)
		case <-deadline:
			t.Fatalf("waited for %v, got %v", want, got)
		}
	}
}

// quiet asserts that nothing arrives at s for a while.
func quiet(t *testing.T, s *Subscription, d time.Duration) {
	t.Helper()
	select {
	case <-s.Wake():
		if got := s.Take(); len(got) > 0 {
			t.Fatalf("expected no notice, got %v", got)
		}
	case <-time.After(d):
	}
}

func TestHubDeliversToTheRightSubscribers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := New(db, quietLogger())
		t.Cleanup(h.Close)
		ada := subscribe(t, h, "ada")
		ada2 := subscribe(t, h, "ada") // a second tab
		bob := subscribe(t, h, "bob")

		if err := h.Publish(t.Context(), Event{Topic: TopicCohorts}); err != nil {
			t.Fatal(err)
		}
		for _, s := range []*Subscription{ada, ada2, bob} {
			if got := collect(t, s, TopicCohorts); !slices.Equal(got, []string{TopicCohorts}) {
				t.Fatalf("broadcast: got %v", got)
			}
		}

		if err := h.Publish(t.Context(), Event{Topic: TopicSubscription, UserID: "ada"}); err != nil {
			t.Fatal(err)
		}
		collect(t, ada, TopicSubscription)
		collect(t, ada2, TopicSubscription)
		// On PostgreSQL the notification also comes back through the
		// listener; it must not be delivered a second time, and bob must
		// never see ada's subscription.
		quiet(t, ada, 500*time.Millisecond)
		quiet(t, bob, 100*time.Millisecond)
	})
}

func TestHubRejectsUnknownTopics(t *testing.T) {
	h := New(nil, quietLogger())
	s := subscribe(t, h, "ada")
	if err := h.Publish(t.Context(), Event{Topic: "cohorts\ndata: x"}); err == nil {
		t.Fatal("an unknown topic was accepted")
	}
	quiet(t, s, 50*time.Millisecond)
}

func TestSlowSubscriberNeverBlocksPublishers(t *testing.T) {
	h := New(nil, quietLogger())
	slow := subscribe(t, h, "ada") // never reads until the end
	fast := subscribe(t, h, "bob")

	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 20000 {
			topic := []string{TopicSessions, TopicCohorts, TopicProfile}[i%3]
			user := ""
			if topic == TopicProfile {
				user = "ada"
			}
			if err := h.Publish(context.Background(), Event{Topic: topic, UserID: user}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("publishing to a subscriber that does not read blocked")
	}
	// Repeats coalesce: one pending notice per topic, oldest first.
	if got := slow.Take(); !slices.Equal(got, []string{TopicSessions, TopicCohorts, TopicProfile}) {
		t.Fatalf("slow subscriber holds %v", got)
	}
	if got := fast.Take(); !slices.Equal(got, []string{TopicSessions, TopicCohorts}) {
		t.Fatalf("other user's subscriber holds %v", got)
	}
}

func TestCloseEndsSubscriptions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := New(db, quietLogger())
		s := subscribe(t, h, "ada")
		h.Close()
		select {
		case <-s.Done():
		default:
			t.Fatal("subscription still open after Close")
		}
		if _, err := h.Subscribe(t.Context(), "ada"); err != ErrClosed {
			t.Fatalf("subscribe after close: %v", err)
		}
		if h.listener != nil {
			t.Fatal("listener still running after Close")
		}
	})
}

// twoInstances opens two hubs, each with its own connection pool, on one
// fresh PostgreSQL schema.
func twoInstances(t *testing.T) (a, b *Hub, admin *sql.DB) {
	t.Helper()
	url := storetest.NewPostgresSchema(t)
	dbA := storetest.Open(t, url, t.TempDir())
	dbB := storetest.Open(t, url, t.TempDir())
	a, b = New(dbA, quietLogger()), New(dbB, quietLogger())
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	return a, b, dbA.Write
}

func TestNoticesReachOtherInstances(t *testing.T) {
	a, b, _ := twoInstances(t)
	ada := subscribe(t, b, "ada")
	bob := subscribe(t, b, "bob")

	if err := a.Publish(t.Context(), Event{Topic: TopicSessions}); err != nil {
		t.Fatal(err)
	}
	collect(t, ada, TopicSessions)
	collect(t, bob, TopicSessions)

	if err := a.Publish(t.Context(), Event{Topic: TopicSubscription, UserID: "bob"}); err != nil {
		t.Fatal(err)
	}
	if got := collect(t, bob, TopicSubscription); !slices.Equal(got, []string{TopicSubscription}) {
		t.Fatalf("bob got %v", got)
	}
	quiet(t, ada, 300*time.Millisecond)

	// A deployment in another schema of the same database hears nothing.
	other := New(storetest.Open(t, storetest.NewPostgresSchema(t), t.TempDir()), quietLogger())
	t.Cleanup(other.Close)
	stranger := subscribe(t, other, "ada")
	if err := a.Publish(t.Context(), Event{Topic: TopicCohorts}); err != nil {
		t.Fatal(err)
	}
	collect(t, ada, TopicCohorts)
	quiet(t, stranger, 300*time.Millisecond)
}

func TestListenerRecoversFromATerminatedConnection(t *testing.T) {
	a, b, admin := twoInstances(t)
	s := subscribe(t, b, "ada")
	b.mu.Lock()
	l := b.listener
	b.mu.Unlock()
	pid := l.pid.Load()
	if pid == 0 {
		t.Fatal("listener has no connection after Subscribe returned")
	}

	var killed bool
	if err := admin.QueryRowContext(t.Context(), "SELECT pg_terminate_backend($1)", int64(pid)).Scan(&killed); err != nil || !killed {
		t.Fatalf("terminate listener backend %d: %v %v", pid, killed, err)
	}
	// Once back, the listener asks every stream to refresh everything,
	// since notices sent while it was away are lost.
	collect(t, s, TopicCohorts, TopicSessions, TopicSubscription, TopicProfile, TopicTribe, TopicProgress, TopicProjects, TopicCommunity, TopicNotifications)
	if now := l.pid.Load(); now == 0 || now == pid {
		t.Fatalf("listener backend after reconnect: %d (was %d)", now, pid)
	}
	if err := a.Publish(t.Context(), Event{Topic: TopicProfile, UserID: "ada"}); err != nil {
		t.Fatal(err)
	}
	if got := collect(t, s, TopicProfile); !slices.Equal(got, []string{TopicProfile}) {
		t.Fatalf("after reconnect got %v", got)
	}
}

func TestListenerStopsWithTheLastSubscriber(t *testing.T) {
	_, b, admin := twoInstances(t)
	s := subscribe(t, b, "ada")
	b.mu.Lock()
	pid := b.listener.pid.Load()
	b.mu.Unlock()
	s.Close()

	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := admin.QueryRowContext(t.Context(), "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", int64(pid)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("listener backend %d still connected after the last subscriber left", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.listener != nil {
		t.Fatal("hub still has a listener")
	}
}

func TestStreamsPerUserAreBounded(t *testing.T) {
	h := New(nil, quietLogger())
	var subs []*Subscription
	for range MaxStreamsPerUser {
		subs = append(subs, subscribe(t, h, "ada"))
	}
	if _, err := h.Subscribe(t.Context(), "ada"); err != ErrTooMany {
		t.Fatalf("stream %d: %v", MaxStreamsPerUser+1, err)
	}
	subscribe(t, h, "bob") // others are not affected
	subs[0].Close()
	subscribe(t, h, "ada") // a closed stream frees its place
}

func TestServerTopicsReachWatchersNotBrowsers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := New(db, quietLogger())
		t.Cleanup(h.Close)
		browser := subscribe(t, h, "ada")
		w, err := h.Watch(t.Context(), TopicKB)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Close)
		if err := h.Publish(t.Context(), Event{Topic: TopicKB}); err != nil {
			t.Fatal(err)
		}
		if got := collect(t, w, TopicKB); !slices.Equal(got, []string{TopicKB}) {
			t.Fatalf("watcher got %v", got)
		}
		quiet(t, browser, 200*time.Millisecond)
		// A watcher hears only what it asked for.
		if err := h.Publish(t.Context(), Event{Topic: TopicCohorts}); err != nil {
			t.Fatal(err)
		}
		collect(t, browser, TopicCohorts)
		quiet(t, w, 200*time.Millisecond)
		if _, err := h.Watch(t.Context(), TopicCohorts); err == nil {
			t.Fatal("a browser topic was accepted as a server topic")
		}
	})
}

func TestWatchersFollowOtherInstancesAndResync(t *testing.T) {
	a, b, admin := twoInstances(t)
	w, err := b.Watch(t.Context(), TopicKB)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	if err := a.Publish(t.Context(), Event{Topic: TopicKB}); err != nil {
		t.Fatal(err)
	}
	collect(t, w, TopicKB)

	// Watchers do not count as a user's streams, and they keep the
	// listener alive on their own.
	b.mu.Lock()
	pid, users := b.listener.pid.Load(), len(b.perUser)
	b.mu.Unlock()
	if users != 0 {
		t.Fatalf("a watch counted as a user's stream: %d", users)
	}
	var killed bool
	if err := admin.QueryRowContext(t.Context(), "SELECT pg_terminate_backend($1)", int64(pid)).Scan(&killed); err != nil || !killed {
		t.Fatalf("terminate listener backend %d: %v %v", pid, killed, err)
	}
	// After the gap the watcher is told its topic again, and nothing else.
	if got := collect(t, w, TopicKB); !slices.Equal(got, []string{TopicKB}) {
		t.Fatalf("after reconnect got %v", got)
	}
}
