package notify

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/community"
	"tribe/internal/mail/mailtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// plan runs the reminder planner of every instance at the same moment.
func plan(t *testing.T, svcs ...*Service) {
	t.Helper()
	atOnce(t, svcs, func(s *Service) error { _, err := s.PlanReminders(context.Background()); return err })
}

// Reminders sent twice, sent to someone who said they are not coming or
// turned them off, or sent for a cancelled session: two instances planning
// at the same moments queue each reminder once per member, 24 hours and 1
// hour before, to subscribers only; a cancelled session gets none, even
// when its reminder was already queued, and a moved one is reminded at its
// new time only.
func TestSessionRemindersOnceToSubscribersNeverCancelledReplannedWhenMoved(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db, time.Date(2027, time.January, 4, 9, 0, 0, 0, time.UTC))
		other := instance(db, f.clock)
		ada := f.user("ada", "active")
		bob := f.user("bob", "active")
		f.user("cy", "") // free member: no reminders
		dee := f.user("dee", "active")
		f.user("eve", "canceled")
		f.user("fay", "past_due") // still has access while Stripe retries
		var inAppMu sync.Mutex
		var inApp []string
		record := func(_ context.Context, userID, kind, title, _, _ string) error {
			inAppMu.Lock()
			defer inAppMu.Unlock()
			inApp = append(inApp, userID+" "+kind+" "+title)
			return nil
		}
		f.svc.SetInApp(record)
		other.SetInApp(record)
		kept := f.session("Weekly build", "2027-01-07", "10:00", "UTC")
		gone := f.session("Office hours", "2027-01-07", "12:00", "UTC")
		moved := f.session("Demo day", "2027-01-07", "14:00", "UTC")
		no := false
		if err := community.SetRSVP(ctx, db, access.Viewer{UserID: bob, Member: true}, kept.ID, community.RSVPInput{Going: &no}, f.clock.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.UpdateSettings(ctx, dee, SettingsInput{SessionReminders: &no}); err != nil {
			t.Fatal(err)
		}
		start := kept.StartsAt
		f.clock.Set(start.Add(-24*time.Hour - time.Second))
		plan(t, f.svc, other)
		if got := f.queued("session-reminder-"); len(got) != 0 {
			t.Fatalf("reminders a second early: %v", got)
		}
		f.clock.Set(start.Add(-24 * time.Hour))
		plan(t, f.svc, other)
		plan(t, f.svc, other)
		got := f.queued("session-reminder-" + kept.ID)
		want := []string{"ada@example.com | Reminder: Weekly build starts in 24 hours", "fay@example.com | Reminder: Weekly build starts in 24 hours"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("24-hour reminders of the first session:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// The notification centre gets each reminder once, like the mail,
		// and Dee, who turned the mail off, gets it there too.
		if len(inApp) != 3 || !slices.Contains(inApp, ada+" reminder Starting in 24 hours: Weekly build") ||
			!slices.Contains(inApp, dee+" reminder Starting in 24 hours: Weekly build") {
			t.Fatalf("in-app reminders: %v", inApp)
		}
		// Office hours' 24-hour reminder is queued, then it is cancelled
		// before the mail goes: the reminder is dropped, never sent.
		f.clock.Set(gone.StartsAt.Add(-24 * time.Hour))
		plan(t, f.svc, other)
		if n := len(f.queued("session-reminder-" + gone.ID)); n != 3 {
			t.Fatalf("%d reminders for office hours, want 3", n)
		}
		if _, err := community.SetSessionStatus(ctx, db, gone.ID, "cancelled", f.clock.Now()); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.SessionChanged(ctx, gone.ID); err != nil {
			t.Fatal(err)
		}
		// Demo day moves a day later before its first reminder.
		in := community.SessionInput{Title: "Demo day", Date: "2027-01-08", Time: "14:00", Duration: "1 hour", Timezone: "UTC", Status: "scheduled", JoinURL: "https://meet.example/secret-room"}
		newer, err := community.UpdateSession(ctx, db, moved.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.svc.SessionChanged(ctx, moved.ID); err != nil {
			t.Fatal(err)
		}
		for _, at := range []time.Time{moved.StartsAt.Add(-24 * time.Hour), gone.StartsAt.Add(-time.Hour), start.Add(-time.Hour),
			moved.StartsAt.Add(-time.Hour), newer.StartsAt.Add(-24 * time.Hour), newer.StartsAt.Add(-time.Hour)} {
			f.clock.Set(at)
			plan(t, f.svc, other)
		}
		if got := f.queued("session-reminder-" + gone.ID); len(got) != 0 {
			t.Fatalf("a cancelled session was reminded: %v", got)
		}
		if n := len(f.queued("session-reminder-" + kept.ID)); n != 4 {
			t.Fatalf("%d reminders of the kept session, want 4 (two members, two each: Bob said no, Dee turned them off)", n)
		}
		demo := f.queued("session-reminder-" + moved.ID)
		if len(demo) != 6 {
			t.Fatalf("reminders of the moved session: %v", demo)
		}
		var oldStart int
		if err := db.Read.QueryRow(`SELECT COUNT(*) FROM mail_outbox WHERE idempotency_key LIKE $1`,
			"%-"+strconv.FormatInt(moved.StartsAt.Unix(), 10)+"-%").Scan(&oldStart); err != nil || oldStart != 0 {
			t.Fatalf("%d reminders for the moved session's old time (%v)", oldStart, err)
		}
	})
}

// A reminder across a daylight-saving change, to a member in another zone,
// delivered through a real SMTP server: the 24-hour reminder of a Sunday
// session just after Paris springs forward comes exactly 24 hours before
// (09:00 on Saturday's Paris clock for a 10:00 session), states the time in
// the member's own zone, carries the session's calendar file whose link is
// the site's join redirect, the join button, and a one-click unsubscribe
// (RFC 8058) that works.
func TestReminderAcrossDaylightSavingInMembersZoneWithCalendarAndOneClickUnsubscribe(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db, time.Date(2027, time.March, 20, 12, 0, 0, 0, time.UTC))
		ada := f.user("ada", "active")
		ny := "America/New_York"
		if _, err := f.svc.UpdateSettings(ctx, ada, SettingsInput{TimeZone: &ny}); err != nil {
			t.Fatal(err)
		}
		s := f.session("Spring build", "2027-03-28", "10:00", "Europe/Paris") // 08:00 UTC, CEST
		paris, _ := time.LoadLocation("Europe/Paris")
		due := s.StartsAt.Add(-24 * time.Hour)
		if got := due.In(paris).Format("Mon 15:04 MST"); got != "Sat 09:00 CET" {
			t.Fatalf("24 hours before is %s on the Paris clock", got)
		}
		f.clock.Set(due.Add(-time.Second))
		if n, err := f.svc.PlanReminders(ctx); err != nil || n != 0 {
			t.Fatalf("a second early: %d %v", n, err)
		}
		f.clock.Set(due)
		if n, err := f.svc.PlanReminders(ctx); err != nil || n != 1 {
			t.Fatalf("at 24 hours: %d %v", n, err)
		}
		srv := mailtest.Start(t)
		got := f.deliver(srv)
		if len(got) != 1 {
			t.Fatalf("%d messages delivered, want 1", len(got))
		}
		m := got[0]
		if !strings.Contains(m.Text, "Sunday, March 28, 2027, 4:00 AM (America/New_York)") {
			t.Fatalf("reminder does not state the member's time:\n%s", m.Text)
		}
		join := base + "/api/sessions/" + s.ID + "/join"
		if !strings.Contains(m.Text, join) || strings.Contains(m.Text, "secret-room") {
			t.Fatalf("reminder should link the join redirect, not the meeting:\n%s", m.Text)
		}
		if len(m.Attachments) != 1 || !strings.HasSuffix(m.Attachments[0].Filename, ".ics") {
			t.Fatalf("attachments: %+v", m.Attachments)
		}
		ics := string(m.Attachments[0].Data)
		if !strings.Contains(ics, "DTSTART:20270328T080000Z") || !strings.Contains(ics, "URL:"+join[:60]) {
			t.Fatalf("calendar file:\n%s", ics)
		}
		h := header(t, m.Raw)
		if got := h.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
			t.Fatalf("List-Unsubscribe-Post: %q", got)
		}
		link := strings.TrimSuffix(strings.TrimPrefix(h.Get("List-Unsubscribe"), "<"), ">")
		if !strings.HasPrefix(link, base+"/api/unsubscribe?token=") {
			t.Fatalf("unsubscribe link %q", link)
		}
		token := link[len(base+"/api/unsubscribe?token="):]
		done, err := f.svc.Unsubscribe(ctx, unescape(t, token))
		if err != nil || done.Kind != KindSessionReminders {
			t.Fatalf("unsubscribe: %+v %v", done, err)
		}
		// The 1-hour reminder is not sent to a member who unsubscribed.
		f.clock.Set(s.StartsAt.Add(-time.Hour))
		if n, err := f.svc.PlanReminders(ctx); err != nil || n != 0 {
			t.Fatalf("after unsubscribing: %d %v", n, err)
		}
	})
}

// TestRemindersReachTheCentreWithReminderMailOff: turning reminder mail off
// stops the mail, not the notification centre's reminder. Two instances
// planning at the same moments (on one database) tell each member once per
// reminder; a member who said they are not going is told nothing; a moved
// session is told again at its new time.
func TestRemindersReachTheCentreWithReminderMailOff(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db, time.Date(2027, time.March, 1, 9, 0, 0, 0, time.UTC))
		other := instance(db, f.clock)
		quiet := f.user("quiet", "active")
		loud := f.user("loud", "active")
		away := f.user("away", "active")
		var mu sync.Mutex
		told := map[string]int{}
		record := func(_ context.Context, userID, kind, title, _, _ string) error {
			mu.Lock()
			defer mu.Unlock()
			told[userID+" "+kind+" "+title]++
			return nil
		}
		f.svc.SetInApp(record)
		other.SetInApp(record)
		off := false
		for _, id := range []string{quiet, away} {
			if _, err := f.svc.UpdateSettings(ctx, id, SettingsInput{SessionReminders: &off}); err != nil {
				t.Fatal(err)
			}
		}
		s := f.session("Hot seat", "2027-03-03", "10:00", "UTC")
		if err := community.SetRSVP(ctx, db, access.Viewer{UserID: away, Member: true}, s.ID, community.RSVPInput{Going: &off}, f.clock.Now()); err != nil {
			t.Fatal(err)
		}
		for _, at := range []time.Time{s.StartsAt.Add(-24 * time.Hour), s.StartsAt.Add(-24*time.Hour + time.Minute), s.StartsAt.Add(-time.Hour)} {
			f.clock.Set(at)
			plan(t, f.svc, other)
			plan(t, f.svc, other)
		}
		want := map[string]int{
			quiet + " reminder Starting in 24 hours: Hot seat": 1, quiet + " reminder Starting in 1 hour: Hot seat": 1,
			loud + " reminder Starting in 24 hours: Hot seat": 1, loud + " reminder Starting in 1 hour: Hot seat": 1,
		}
		if !maps.Equal(told, want) {
			t.Fatalf("in-app reminders %v, want %v", told, want)
		}
		mails := f.queued("session-reminder-" + s.ID)
		if len(mails) != 2 || !strings.HasPrefix(mails[0], "loud@example.com") || !strings.HasPrefix(mails[1], "loud@example.com") {
			t.Fatalf("reminder mails %v, want loud's two only", mails)
		}
		var rows int
		if err := db.Read.QueryRow(`SELECT COUNT(*) FROM session_reminder_notices WHERE session_id = $1`, s.ID).Scan(&rows); err != nil || rows != 4 {
			t.Fatalf("%d notice rows (%v), want 4", rows, err)
		}
		// Two days after the start the rows are gone.
		f.clock.Set(s.StartsAt.Add(49 * time.Hour))
		plan(t, f.svc)
		if err := db.Read.QueryRow(`SELECT COUNT(*) FROM session_reminder_notices`).Scan(&rows); err != nil || rows != 0 {
			t.Fatalf("%d notice rows left two days after (%v)", rows, err)
		}
	})
}
