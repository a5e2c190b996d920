package events

import (
	"context"
	"testing"

	"tribe/internal/clock/clocktest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// present asks hub whether userID has a tab open anywhere.
func presentOn(t *testing.T, h *Hub, userID string) bool {
	t.Helper()
	ok, err := h.Present(context.Background(), userID)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// TestPresenceIsSeenFromEveryInstance: a member's stream on instance B is
// seen from instance A (both engines, two hubs over one database); it goes
// when their last stream there closes, when B closes, and, if B stops
// without a word, when its rows expire on the injected clock; B's heartbeat
// keeps a long-open tab present.
func TestPresenceIsSeenFromEveryInstance(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		c := clocktest.New()
		a := New(db, quietLogger(), WithClock(c.Now))
		b := New(db, quietLogger(), WithClock(c.Now))
		t.Cleanup(a.Close)

		if presentOn(t, a, "ada") {
			t.Fatal("present before any stream")
		}
		one, err := b.Subscribe(t.Context(), "ada")
		if err != nil {
			t.Fatal(err)
		}
		two, err := b.Subscribe(t.Context(), "ada")
		if err != nil {
			t.Fatal(err)
		}
		if !presentOn(t, a, "ada") || presentOn(t, a, "bob") {
			t.Fatal("A does not see Ada's tab on B, or sees Bob's that is not open")
		}
		one.Close()
		if !presentOn(t, a, "ada") {
			t.Fatal("Ada's second tab on B is open: still present")
		}
		two.Close()
		if presentOn(t, a, "ada") {
			t.Fatal("Ada closed her last tab on B: not present any more")
		}

		// A booking page's stream is nobody's presence.
		bk, err := b.Subscribe(t.Context(), BookingStream("b1"))
		if err != nil {
			t.Fatal(err)
		}
		defer bk.Close()
		var rows int
		if err := db.Read.QueryRow(`SELECT COUNT(*) FROM live_presence`).Scan(&rows); err != nil || rows != 0 {
			t.Fatalf("%d presence rows for a booking page (%v)", rows, err)
		}

		// A tab open long: the heartbeat keeps it; without one it expires.
		if _, err := b.Subscribe(t.Context(), "ada"); err != nil {
			t.Fatal(err)
		}
		c.Advance(presenceTTL - PresenceBeat)
		if err := b.Beat(t.Context()); err != nil {
			t.Fatal(err)
		}
		c.Advance(presenceTTL - PresenceBeat)
		if !presentOn(t, a, "ada") {
			t.Fatal("the heartbeat did not keep Ada's open tab present")
		}
		c.Advance(PresenceBeat + 1)
		if presentOn(t, a, "ada") {
			t.Fatal("B stopped beating (died): its row must expire")
		}
		if !presentOn(t, b, "ada") {
			t.Fatal("B itself still holds the stream")
		}
		if err := a.Beat(t.Context()); err != nil {
			t.Fatal(err)
		}
		if err := db.Read.QueryRow(`SELECT COUNT(*) FROM live_presence`).Scan(&rows); err != nil || rows != 0 {
			t.Fatalf("%d expired presence rows left after a heartbeat (%v)", rows, err)
		}
		if err := b.Beat(t.Context()); err != nil {
			t.Fatal(err)
		}
		if !presentOn(t, a, "ada") {
			t.Fatal("B's next heartbeat writes Ada's presence again")
		}
		b.Close()
		if presentOn(t, a, "ada") {
			t.Fatal("B closed: none of its streams is open")
		}
	})
}
