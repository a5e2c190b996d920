package community

import (
	"context"
	"testing"
	"time"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestTurnoutCountsGoingPresentAndBoth: the insights' per-session counts
// agree with the attendance sheet: going RSVPs, present (joined or
// corrected present, a correction to absent wins), and present of those
// going; sessions outside the range and cancelled ones are left out.
func TestTurnoutCountsGoingPresentAndBoth(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := showupSession(t, db, nil)
		gone := showupSession(t, db, nil)
		setStatus(t, db, gone.ID, "cancelled")
		users := map[string]string{}
		for _, name := range []string{"ann", "ben", "cat", "dan", "eve"} {
			users[name] = addUser(t, db, name+"@example.com")
		}
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := db.Write.ExecContext(ctx, q, args...); err != nil {
				t.Fatal(err)
			}
		}
		joined := store.At(showupStart)
		for _, r := range []struct {
			who   string
			going bool
		}{{"ann", true}, {"ben", true}, {"cat", true}, {"dan", false}} {
			exec(`INSERT INTO session_rsvps (session_id, user_id, going) VALUES ($1, $2, $3)`, s.ID, users[r.who], r.going)
		}
		// ann joined; ben joined but was corrected absent; dan (not going)
		// and eve (no RSVP) were corrected present.
		exec(`INSERT INTO session_attendance (session_id, user_id, joined_at) VALUES ($1, $2, $3)`, s.ID, users["ann"], joined)
		exec(`INSERT INTO session_attendance (session_id, user_id, joined_at, correction, corrected_at) VALUES ($1, $2, $3, 'absent', $3)`, s.ID, users["ben"], joined)
		exec(`INSERT INTO session_attendance (session_id, user_id, correction, corrected_at) VALUES ($1, $2, 'present', $3)`, s.ID, users["dan"], joined)
		exec(`INSERT INTO session_attendance (session_id, user_id, correction, corrected_at) VALUES ($1, $2, 'present', $3)`, s.ID, users["eve"], joined)

		got, err := Turnout(ctx, db, showupStart.Add(-time.Hour), showupStart.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].ID != s.ID || got[0].Going != 3 || got[0].Present != 3 || got[0].PresentGoing != 1 {
			t.Fatalf("turnout = %+v", got)
		}
		sheet, err := Attendance(ctx, db, s.ID, showupStart.Add(3*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if sheet.Going != got[0].Going || sheet.Present != got[0].Present {
			t.Fatalf("sheet %d going %d present, turnout %+v", sheet.Going, sheet.Present, got[0])
		}
		if none, err := Turnout(ctx, db, showupStart.Add(time.Hour), showupStart.Add(2*time.Hour)); err != nil || len(none) != 0 {
			t.Fatalf("outside the range: %+v %v", none, err)
		}
	})
}
