package booking

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/content"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// reminderMails lists the queued reminders: recipient and subject.
func reminderMails(t *testing.T, db *store.DB) []string {
	t.Helper()
	rows, err := db.Read.QueryContext(context.Background(), `SELECT to_addr, subject, text_body FROM mail_outbox
		WHERE idempotency_key LIKE 'booking-reminder-%' ORDER BY to_addr, subject`)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	var out []string
	for rows.Next() {
		var to, subject, text string
		if err := rows.Scan(&to, &subject, &text); err != nil {
			t.Fatal(err)
		}
		out = append(out, to+" | "+subject+" | "+text)
	}
	return out
}

// Reminders silently not sent, or sent twice, or sent for a cancelled call
// (Cal.com #28811): two instances planning at the same moments queue each
// reminder once, 24 hours and 1 hour before, never for a cancelled booking,
// and a moved booking is reminded at its new time only.
func TestRemindersOnceAcrossInstancesNeverWhenCancelledMovedWhenRescheduled(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		a, clock := newService(t, db, false)
		b := New(db, Config{Site: site, OwnerEmail: "owner@example.com", BaseURL: "https://ruv.example"}, WithClock(clock.Now))
		start := at(2026, time.January, 8, 10, 0)
		kept := book(t, a, req("session-30", start, "kept@example.com")).Booking
		gone := book(t, a, req("session-30", start.Add(2*time.Hour), "gone@example.com"))
		moved := book(t, a, req("session-30", start.Add(4*time.Hour), "moved@example.com"))
		for _, id := range []string{kept.ID, gone.Booking.ID, moved.Booking.ID} {
			if _, err := a.ConfirmRequest(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		plan := func() {
			t.Helper()
			var wg sync.WaitGroup
			for _, s := range []*Service{a, b} {
				wg.Go(func() {
					if _, err := s.PlanReminders(ctx); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
		}
		clock.Set(start.Add(-24*time.Hour - time.Minute))
		plan()
		if got := reminderMails(t, db); len(got) != 0 {
			t.Fatalf("reminders before their time: %v", got)
		}
		clock.Set(start.Add(-24 * time.Hour))
		plan()
		plan()
		if got := reminderMails(t, db); len(got) != 2 || !strings.Contains(got[0], "kept@example.com") || !strings.Contains(got[1], "owner@example.com | Reminder:") {
			t.Fatalf("24-hour reminders of the first call: %v", got)
		}
		// Cancelled before its 24 hours: never reminded. Moved a day later:
		// reminded for the new time, not the old.
		if _, _, err := a.CancelByOwner(ctx, gone.Booking.ID); err != nil {
			t.Fatal(err)
		}
		clock.Set(start.Add(-24*time.Hour + 10*time.Minute))
		newStart := at(2026, time.January, 9, 14, 0)
		// The cut-off (24 h) has not passed for the moved call.
		if _, err := a.Reschedule(ctx, moved.Booking.ID, moved.Token, newStart.Format(time.RFC3339)); err != nil {
			t.Fatal(err)
		}
		clock.Set(start.Add(4*time.Hour - 24*time.Hour))
		plan()
		for _, m := range reminderMails(t, db) {
			if strings.Contains(m, "gone@example.com") || strings.Contains(m, "moved@example.com") {
				t.Fatalf("reminder for a cancelled or moved call at its old time: %s", m)
			}
		}
		clock.Set(newStart.Add(-24 * time.Hour))
		plan()
		clock.Set(start.Add(-time.Hour))
		plan()
		clock.Set(newStart.Add(-time.Hour))
		plan()
		got := reminderMails(t, db)
		want := map[string]int{"kept@example.com": 2, "moved@example.com": 2, "owner@example.com": 4}
		for who, n := range want {
			c := 0
			for _, m := range got {
				if strings.HasPrefix(m, who+" |") {
					c++
				}
			}
			if c != n {
				t.Errorf("%s got %d reminders, want %d: %v", who, c, n, got)
			}
		}
	})
}

// Reminders across a daylight-saving change (Cal.com #4702): the 24-hour
// reminder of a Sunday call just after Paris springs forward comes exactly
// 24 hours before (09:00 on Saturday's clock for a 10:00 call), and it
// states the call's time in the booker's zone after the change.
func TestReminderTimesAcrossDaylightSaving(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, false)
		paris := mustZone("Europe/Paris")
		st, err := s.LoadSettings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		st.TimeZone = "Europe/Paris"
		st.WeeklyHours = map[string][]content.HourRange{"sunday": {{Start: "09:00", End: "17:00"}}}
		if _, err := s.SaveSettings(ctx, st); err != nil {
			t.Fatal(err)
		}
		clock.Set(time.Date(2026, time.March, 25, 12, 0, 0, 0, time.UTC))
		start := time.Date(2026, time.March, 29, 10, 0, 0, 0, paris) // 08:00 UTC, CEST
		r := req("session-30", start, "ada@example.com")
		r.TimeZone = "Europe/Paris"
		c := book(t, s, r)
		if _, err := s.ConfirmRequest(ctx, c.Booking.ID); err != nil {
			t.Fatal(err)
		}
		due := start.Add(-24 * time.Hour)
		if got := due.In(paris).Format("Mon 15:04 MST"); got != "Sat 09:00 CET" {
			t.Fatalf("24 hours before is %s on the Paris clock", got)
		}
		clock.Set(due.Add(-time.Second))
		if n, err := s.PlanReminders(ctx); err != nil || n != 0 {
			t.Fatalf("a second early: %d %v", n, err)
		}
		clock.Set(due)
		if n, err := s.PlanReminders(ctx); err != nil || n != 2 {
			t.Fatalf("at 24 hours: %d %v", n, err)
		}
		got := reminderMails(t, db)
		if !strings.Contains(got[0], "Sunday, March 29, 2026, 10:00 AM (Europe/Paris)") {
			t.Fatalf("reminder text: %s", got[0])
		}
		clock.Set(start.Add(-time.Hour)) // 09:00 CEST, 07:00 UTC
		if n, err := s.PlanReminders(ctx); err != nil || n != 2 {
			t.Fatalf("at 1 hour: %d %v", n, err)
		}
	})
}
