package community

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/clock/clocktest"
	"tribe/internal/csvx"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// showupStart is when the sessions of these tests start: an hour after the
// test clock's fixed start (clocktest.New, 09:00 UTC).
var showupStart = time.Date(2026, time.January, 5, 10, 0, 0, 0, time.UTC)

func showupSession(t *testing.T, db *store.DB, maxAttendees *int) *Session {
	t.Helper()
	s, err := CreateSession(context.Background(), db, "", SessionInput{
		Title: "Agent memory", Date: "2026-01-05", Time: "10:00", Duration: "2 hours", Timezone: "UTC",
		MaxAttendees: maxAttendees, JoinURL: "https://zoom.us/j/1", MeetingLink: "https://meet.example/x",
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// setStatus sets a session's status as stored, whatever the real time (the
// tests' sessions are dated by the test clock).
func setStatus(t *testing.T, db *store.DB, id, status string) {
	t.Helper()
	if _, err := db.Write.ExecContext(context.Background(), `UPDATE live_sessions SET status = $1 WHERE id = $2`, status, id); err != nil {
		t.Fatal(err)
	}
}

func subscriber(id string) access.Viewer { return access.Viewer{UserID: id, Member: true} }

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

// TestRSVPIsRememberedAndChangeableUntilTheStart: the answer is the
// member's, counted, changeable before the start and frozen after it.
func TestRSVPIsRememberedAndChangeableUntilTheStart(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.New()
		s := showupSession(t, db, nil)
		ada, bob := subscriber(addUser(t, db, "ada@example.com")), subscriber(addUser(t, db, "bob@example.com"))

		if err := SetRSVP(ctx, db, ada, s.ID, RSVPInput{Going: yes()}, c.Now()); err != nil {
			t.Fatal(err)
		}
		if err := SetRSVP(ctx, db, bob, s.ID, RSVPInput{Going: no()}, c.Now()); err != nil {
			t.Fatal(err)
		}
		view, err := GetSession(ctx, db, ada, s.ID, c.Now())
		if err != nil {
			t.Fatal(err)
		}
		if view.Going != 1 || view.MyRSVP == nil || !*view.MyRSVP {
			t.Fatalf("Ada's view: going %d, mine %v", view.Going, view.MyRSVP)
		}
		list, err := ListSessions(ctx, db, bob, c.Now())
		if err != nil {
			t.Fatal(err)
		}
		if list[0].Going != 1 || list[0].MyRSVP == nil || *list[0].MyRSVP {
			t.Fatalf("Bob's view: going %d, mine %v", list[0].Going, list[0].MyRSVP)
		}
		anon, _ := GetSession(ctx, db, access.Viewer{}, s.ID, c.Now())
		if anon.MyRSVP != nil || anon.Going != 1 {
			t.Fatalf("someone who never answered: %+v", anon)
		}

		// Ada changes her mind a minute before the start.
		c.Set(showupStart.Add(-time.Minute))
		if err := SetRSVP(ctx, db, ada, s.ID, RSVPInput{Going: no()}, c.Now()); err != nil {
			t.Fatal(err)
		}
		if view, _ := GetSession(ctx, db, ada, s.ID, c.Now()); view.Going != 0 || *view.MyRSVP {
			t.Fatalf("after changing: %+v", view)
		}
		// At the start the answer is frozen.
		c.Set(showupStart)
		wantErr(t, SetRSVP(ctx, db, ada, s.ID, RSVPInput{Going: yes()}, c.Now()), ErrSessionStarted)
		if n := count(t, db, `SELECT COUNT(*) FROM session_rsvps WHERE going`); n != 0 {
			t.Fatalf("a refused RSVP wrote: %d going", n)
		}
	})
}

// TestRSVPRefusals: free members, a missing answer, cancelled, started,
// over and unknown sessions are refused with nothing written.
func TestRSVPRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.New()
		s := showupSession(t, db, nil)
		free := access.Viewer{UserID: addUser(t, db, "free@example.com")}
		ada := subscriber(addUser(t, db, "ada@example.com"))

		wantErr(t, SetRSVP(ctx, db, free, s.ID, RSVPInput{Going: yes()}, c.Now()), ErrRSVPForMembers)
		wantInvalid(t, SetRSVP(ctx, db, ada, s.ID, RSVPInput{}, c.Now()), "going", "Say whether you are going: true or false.")
		wantCode(t, SetRSVP(ctx, db, ada, "no-such-session", RSVPInput{Going: yes()}, c.Now()), errs.NotFound)

		live := showupSession(t, db, nil)
		setStatus(t, db, live.ID, "live")
		wantErr(t, SetRSVP(ctx, db, ada, live.ID, RSVPInput{Going: yes()}, c.Now()), ErrSessionStarted)

		cancelled := showupSession(t, db, nil)
		setStatus(t, db, cancelled.ID, "cancelled")
		wantErr(t, SetRSVP(ctx, db, ada, cancelled.ID, RSVPInput{Going: yes()}, c.Now()), ErrSessionCancelled)

		c.Set(showupStart.Add(3 * time.Hour)) // over
		wantErr(t, SetRSVP(ctx, db, ada, s.ID, RSVPInput{Going: no()}, c.Now()), ErrSessionStarted)

		if n := count(t, db, `SELECT COUNT(*) FROM session_rsvps`); n != 0 {
			t.Fatalf("refusals wrote %d rsvps", n)
		}
		// An admin without a subscription answers like a subscriber.
		c.Set(showupStart.Add(-2 * time.Hour))
		admin := access.Viewer{UserID: addUser(t, db, "owner@example.com"), Admin: true}
		if err := SetRSVP(ctx, db, admin, s.ID, RSVPInput{Going: yes()}, c.Now()); err != nil {
			t.Fatal(err)
		}
	})
}

// TestManyMembersRSVPAtOnceCountExactly: concurrent answers to one session
// are each counted once, and a session with max_attendees never takes more
// than that, on both engines (run with -race).
func TestManyMembersRSVPAtOnceCountExactly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.New()
		open := showupSession(t, db, nil)
		seats := 10
		capped := showupSession(t, db, &seats)
		const members = 40
		ids := make([]string, members)
		for i := range ids {
			ids[i] = addUser(t, db, "m"+string(rune('a'+i%26))+strings.Repeat("x", i/26)+"@example.com")
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		full, other := 0, []error{}
		for i, id := range ids {
			wg.Go(func() {
				v := subscriber(id)
				// Each member says no first, then yes: the answer is replaced, not added.
				for _, going := range []*bool{no(), yes()} {
					if err := SetRSVP(ctx, db, v, open.ID, RSVPInput{Going: going}, c.Now()); err != nil {
						mu.Lock()
						other = append(other, err)
						mu.Unlock()
					}
				}
				err := SetRSVP(ctx, db, v, capped.ID, RSVPInput{Going: yes()}, c.Now())
				mu.Lock()
				defer mu.Unlock()
				switch {
				case errors.Is(err, ErrSessionFull):
					full++
				case err != nil:
					other = append(other, err)
				}
				_ = i
			})
		}
		wg.Wait()
		if len(other) > 0 {
			t.Fatalf("%d RSVPs failed, first: %v", len(other), other[0])
		}
		list, err := ListSessions(ctx, db, subscriber(ids[0]), c.Now())
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, v := range list {
			got[v.ID] = v.Going
		}
		if got[open.ID] != members {
			t.Errorf("open session: %d going, want %d", got[open.ID], members)
		}
		if got[capped.ID] != seats || full != members-seats {
			t.Errorf("capped session: %d going and %d refused as full, want %d and %d", got[capped.ID], full, seats, members-seats)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM session_rsvps WHERE session_id = $1`, capped.ID); n != seats {
			t.Errorf("capped session has %d rows, want %d: a refused RSVP wrote", n, seats)
		}
	})
}

// TestJoinRecordsAttendanceOnlyInsideTheWindow: a click from 15 minutes
// before the start until the end counts (once); earlier or later it only
// redirects; free members never get the link.
func TestJoinRecordsAttendanceOnlyInsideTheWindow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.New()
		s := showupSession(t, db, nil)
		ada := subscriber(addUser(t, db, "ada@example.com"))
		free := access.Viewer{UserID: addUser(t, db, "free@example.com")}

		steps := []struct {
			at     time.Time
			record bool
		}{
			{showupStart.Add(-JoinEarly - time.Second), false},
			{showupStart.Add(-JoinEarly), true},
			{showupStart.Add(time.Hour), true}, // again: still one session attended
			{showupStart.Add(2*time.Hour - time.Second), true},
			{showupStart.Add(2 * time.Hour), false}, // the end
		}
		for _, st := range steps {
			c.Set(st.at)
			j, err := Join(ctx, db, ada, s.ID, c.Now())
			if err != nil {
				t.Fatal(err)
			}
			if j.MeetingURL != "https://zoom.us/j/1" || j.Recorded != st.record {
				t.Errorf("join at %v: %+v, want recorded=%v", st.at, j, st.record)
			}
		}
		var joined store.Time
		if err := db.Read.QueryRowContext(ctx, `SELECT joined_at FROM session_attendance WHERE user_id = $1`, ada.UserID).Scan(&joined); err != nil {
			t.Fatal(err)
		}
		if !joined.Equal(showupStart.Add(-JoinEarly)) {
			t.Errorf("joined_at %v, want the first click in the window", joined.Time)
		}
		if n, err := AttendedCount(ctx, db, ada.UserID); err != nil || n != 1 {
			t.Errorf("attended %d (%v), want 1", n, err)
		}

		c.Set(showupStart)
		if _, err := Join(ctx, db, free, s.ID, c.Now()); !errors.Is(err, ErrJoinForMembers) {
			t.Errorf("a free member joined: %v", err)
		}
		if _, err := Join(ctx, db, access.Viewer{}, s.ID, c.Now()); !errors.Is(err, ErrJoinForMembers) {
			t.Errorf("an anonymous caller joined: %v", err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM session_attendance WHERE user_id = $1`, free.UserID); n != 0 {
			t.Error("a free member's click was recorded")
		}

		// No link yet: nothing to join and nothing recorded.
		bare, err := CreateSession(ctx, db, "", SessionInput{Title: "No link", Date: "2026-01-05", Time: "10:00", Duration: "1 hour", Timezone: "UTC"})
		if err != nil {
			t.Fatal(err)
		}
		wantErr(t, func() error { _, err := Join(ctx, db, ada, bare.ID, c.Now()); return err }(), ErrNoMeetingLink)
		setStatus(t, db, s.ID, "cancelled")
		wantErr(t, func() error { _, err := Join(ctx, db, ada, s.ID, c.Now()); return err }(), ErrSessionCancelled)
		// A cancelled session's attendance does not count.
		if n, _ := AttendedCount(ctx, db, ada.UserID); n != 0 {
			t.Errorf("attendance at a cancelled session counted: %d", n)
		}
	})
}

// TestAdminCorrectsAttendance: present and absent override the join, the
// sheet says who corrected and when, and nothing is accepted before the
// start.
func TestAdminCorrectsAttendance(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.New()
		s := showupSession(t, db, nil)
		owner := addUser(t, db, "owner@example.com")
		ada := subscriber(addUser(t, db, "ada@example.com"))
		bob := subscriber(addUser(t, db, "bob@example.com"))
		if err := SetRSVP(ctx, db, ada, s.ID, RSVPInput{Going: yes()}, c.Now()); err != nil {
			t.Fatal(err)
		}

		// Before the start: refused, nothing written.
		_, err := CorrectAttendance(ctx, db, owner, s.ID, AttendanceInput{UserID: bob.UserID, Present: yes()}, c.Now())
		wantErr(t, err, ErrSessionNotStarted)
		if n := count(t, db, `SELECT COUNT(*) FROM session_attendance`); n != 0 {
			t.Fatal("a refused correction wrote")
		}

		c.Set(showupStart.Add(10 * time.Minute))
		if _, err := Join(ctx, db, ada, s.ID, c.Now()); err != nil {
			t.Fatal(err)
		}
		c.Set(showupStart.Add(3 * time.Hour))
		for _, bad := range []AttendanceInput{{UserID: " ", Present: yes()}, {UserID: bob.UserID}} {
			if _, err := CorrectAttendance(ctx, db, owner, s.ID, bad, c.Now()); !errs.Is(err, errs.Invalid) {
				t.Errorf("%+v: %v, want invalid", bad, err)
			}
		}
		_, err = CorrectAttendance(ctx, db, owner, s.ID, AttendanceInput{UserID: "nobody", Present: yes()}, c.Now())
		wantCode(t, err, errs.NotFound)

		if _, err := CorrectAttendance(ctx, db, owner, s.ID, AttendanceInput{UserID: bob.UserID, Present: yes()}, c.Now()); err != nil {
			t.Fatal(err)
		}
		sheet, err := CorrectAttendance(ctx, db, owner, s.ID, AttendanceInput{UserID: ada.UserID, Present: no()}, c.Now())
		if err != nil {
			t.Fatal(err)
		}
		if len(sheet.Rows) != 2 || sheet.Going != 1 || sheet.Present != 1 || !sheet.Started {
			t.Fatalf("sheet: %+v", sheet)
		}
		a, b := sheet.Rows[0], sheet.Rows[1] // ordered by name
		if a.FullName != "ada" || a.RSVP == nil || !*a.RSVP || a.JoinedAt == nil || a.Present ||
			a.Correction == nil || *a.Correction != "absent" || a.CorrectedBy == nil || *a.CorrectedBy != "owner" ||
			a.CorrectedAt == nil || !a.CorrectedAt.Equal(c.Now()) {
			t.Errorf("Ada's row: %+v", a)
		}
		if b.FullName != "bob" || b.RSVP != nil || b.JoinedAt != nil || !b.Present || *b.Correction != "present" {
			t.Errorf("Bob's row: %+v", b)
		}
		if n, _ := AttendedCount(ctx, db, ada.UserID); n != 0 {
			t.Errorf("Ada marked absent still counts %d", n)
		}
		if n, _ := AttendedCount(ctx, db, bob.UserID); n != 1 {
			t.Errorf("Bob marked present counts %d", n)
		}
		// The same sheet, read again.
		again, err := Attendance(ctx, db, s.ID, c.Now())
		if err != nil || len(again.Rows) != 2 || again.Present != 1 {
			t.Fatalf("read again: %+v, %v", again, err)
		}
	})
}

// TestAttendanceCSVIsRFC4180AndFormulaSafe: CRLF line ends, quoted fields
// where needed, and no cell a spreadsheet would run as a formula.
func TestAttendanceCSVIsRFC4180AndFormulaSafe(t *testing.T) {
	joined := time.Date(2026, 1, 5, 9, 50, 0, 0, time.UTC)
	going := true
	present := "present"
	by := "=HYPERLINK(\"http://evil\")"
	sheet := &AttendanceSheet{Title: "Agent memory: live!", StartsAt: showupStart, Rows: []AttendanceRow{
		{FullName: "=cmd|' /C calc'!A0", Email: "a@example.com", RSVP: &going, JoinedAt: &joined, Present: true},
		{FullName: "Bob, \"the builder\"\nJr", Email: "+b@example.com", Correction: &present, CorrectedBy: &by, CorrectedAt: &joined, Present: true},
		{FullName: "-1+1", Email: "@c@example.com"},
	}}
	var buf bytes.Buffer
	if err := sheet.WriteCSV(csvx.NewWriter(&buf)); err != nil {
		t.Fatal(err)
	}
	raw := buf.String()
	if !strings.HasSuffix(raw, "\r\n") || strings.Count(raw, "\n") != strings.Count(raw, "\r\n") {
		t.Fatalf("every line must end in CRLF: %q", raw)
	}
	recs, err := csv.NewReader(strings.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || strings.Join(recs[0], ",") != "full_name,email,rsvp,joined_at,correction,corrected_by,corrected_at,present" {
		t.Fatalf("records: %q", recs)
	}
	for _, rec := range recs[1:] {
		for _, cell := range rec {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q starts like a formula", cell)
			}
		}
	}
	if recs[2][0] != "Bob, \"the builder\"\nJr" || recs[1][2] != "going" || recs[1][3] != "2026-01-05T09:50:00Z" || recs[3][7] != "no" {
		t.Errorf("values: %q", recs)
	}
	if name := sheet.FileName(); name != "attendance-2026-01-05-agent-memory-live" {
		t.Errorf("file name %q", name)
	}
}
