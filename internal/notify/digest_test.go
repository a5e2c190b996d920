package notify

import (
	"context"
	"strings"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/community"
	"tribe/internal/forum"
	"tribe/internal/mail/mailtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// planDigests runs the digest planner of every instance at the same moment.
func planDigests(t *testing.T, svcs ...*Service) {
	t.Helper()
	atOnce(t, svcs, func(s *Service) error { _, err := s.PlanDigests(context.Background()); return err })
}

// A digest that nags active members, or comes twice, or more than once a
// week (Discourse's rule: a re-engagement mail, not noise): only a member
// away for 7 days gets one, once across two instances, not again within the
// week, and again a week later if still away. It lists the upcoming
// sessions in the member's zone (no meeting link), the new members and the
// cohort's news, and has a one-click unsubscribe.
func TestWeeklyDigestOnlyForMembersAwayOnceAWeekAcrossInstances(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2027, time.February, 1, 9, 0, 0, 0, time.UTC)
		f := newFixture(t, db, now)
		other := instance(db, f.clock)
		away := f.user("away", "active")
		active := f.user("active", "active")
		quiet := f.user("quiet", "active")
		free := f.user("free", "")
		f.seen(away, now.Add(-8*24*time.Hour))
		f.seen(active, now.Add(-2*24*time.Hour))
		f.seen(quiet, now.Add(-30*24*time.Hour))
		f.seen(free, now.Add(-7*24*time.Hour))
		off := false
		if _, err := f.svc.UpdateSettings(ctx, quiet, SettingsInput{WeeklyDigest: &off}); err != nil {
			t.Fatal(err)
		}
		tokyo := "Asia/Tokyo"
		if _, err := f.svc.UpdateSettings(ctx, away, SettingsInput{TimeZone: &tokyo}); err != nil {
			t.Fatal(err)
		}
		cohort, err := community.CreateCohort(ctx, db, away, community.CohortInput{Name: "Night owls"})
		if err != nil {
			t.Fatal(err)
		}
		newbie := f.user("newbie", "active")
		f.exec(`UPDATE users SET created_at = $1 WHERE id = $2`, store.At(now.Add(-2*24*time.Hour)), newbie)
		f.seen(newbie, now.Add(-time.Hour))
		f.exec(`INSERT INTO cohort_members (id, cohort_id, user_id, joined_at) VALUES ($1, $2, $3, $4)`,
			store.NewID(), cohort.ID, newbie, store.At(now.Add(-24*time.Hour)))
		f.session("Weekly build", "2027-02-04", "10:00", "UTC")
		// Projects shared while the member was away: the cohort's first; the
		// member's own is not news to them.
		for _, p := range []struct {
			by, title, link string
		}{{active, "Eval harness", "https://evals.example"}, {newbie, "Lamp agent", "https://lamp.example"}, {away, "My own", "https://own.example"}} {
			if _, err := community.CreateProject(ctx, db, access.Viewer{UserID: p.by, Member: true},
				community.ProjectInput{Title: p.title, Link: p.link, Description: "Shared while away."}, now.Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		// The week in the community: a busy thread and an open question,
		// told to members (never to free ones).
		threads := forum.New(db, f.clock.Now, forum.Options{})
		asker := access.Viewer{UserID: active, Member: true}
		busy, err := threads.Create(ctx, asker, forum.ThreadInput{Category: "win", Title: "Shipped the agent", Body: "It works."})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := threads.AddReply(ctx, access.Viewer{UserID: newbie, Member: true}, busy.ID, forum.ReplyInput{Body: "Congrats"}); err != nil {
			t.Fatal(err)
		}
		if _, err := threads.Create(ctx, asker, forum.ThreadInput{Category: "question", Title: "Which vector store?", Body: "Ideas?"}); err != nil {
			t.Fatal(err)
		}
		planDigests(t, f.svc, other)
		planDigests(t, f.svc, other)
		got := f.queued("weekly-digest-")
		want := []string{"away@example.com | What you missed in the tribe", "free@example.com | What you missed in the tribe"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("digests:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		srv := mailtest.Start(t)
		msgs := f.deliver(srv)
		var m *mailtest.Received
		for i := range msgs {
			if msgs[i].To == "<away@example.com>" || strings.Contains(msgs[i].To, "away@") {
				m = &msgs[i]
			}
		}
		if m == nil {
			t.Fatalf("no digest delivered to the member away: %d messages", len(msgs))
		}
		for _, want := range []string{"Weekly build: Thursday, February 4, 2027, 7:00 PM (Asia/Tokyo)", "1 new member joined", "In your cohort Night owls: Newbie joined.", base + "/members",
			"• Lamp agent by Newbie: https://lamp.example (your cohort)\n• Eval harness by Active: https://evals.example"} {
			if !strings.Contains(m.Text, want) {
				t.Errorf("digest lacks %q:\n%s", want, m.Text)
			}
		}
		for _, want := range []string{"This week's top threads in the community:\n• Shipped the agent (1 reply): " + base + "/members/community/" + busy.ID,
			"Questions waiting for an answer:\n• Which vector store?: " + base + "/members/community/"} {
			if !strings.Contains(m.Text, want) {
				t.Errorf("digest lacks %q:\n%s", want, m.Text)
			}
		}
		for i := range msgs {
			if strings.Contains(msgs[i].To, "free@") && strings.Contains(msgs[i].Text, "vector store") {
				t.Errorf("a free member's digest names the community's threads:\n%s", msgs[i].Text)
			}
		}
		if strings.Contains(m.Text, "My own") {
			t.Errorf("the digest lists the member's own project:\n%s", m.Text)
		}
		if strings.Contains(m.Text, "secret-room") {
			t.Fatalf("the digest carries the meeting link:\n%s", m.Text)
		}
		if header(t, m.Raw).Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
			t.Fatal("digest without one-click unsubscribe")
		}
		// Still away three days later: nothing more this week.
		f.clock.Set(now.Add(3 * 24 * time.Hour))
		planDigests(t, f.svc, other)
		if n := len(f.queued("weekly-digest-")); n != 2 {
			t.Fatalf("%d digests within the week, want 2", n)
		}
		// A week later, with nothing new, none; once a session is planned,
		// the member still away gets the next one, and the one who came
		// back in between gets none.
		f.seen(free, now.Add(5*24*time.Hour))
		f.clock.Set(now.Add(7 * 24 * time.Hour))
		planDigests(t, f.svc, other)
		if n := len(f.queued("weekly-digest-" + away)); n != 1 {
			t.Fatalf("%d digests with nothing to tell, want the first only", n)
		}
		f.session("Demo day", "2027-02-10", "10:00", "UTC")
		planDigests(t, f.svc, other)
		got = f.queued("weekly-digest-" + away)
		if len(got) != 2 {
			t.Fatalf("digests of the member away after two weeks: %v", got)
		}
		if n := len(f.queued("weekly-digest-" + free)); n != 1 {
			t.Fatalf("%d digests for a member who came back, want 1", n)
		}
	})
}

// Last seen written on every request would make each page view a write:
// a visit is recorded at most once an hour per member.
func TestVisitsAreRecordedAtMostOnceAnHour(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2027, time.February, 1, 9, 0, 0, 0, time.UTC)
		f := newFixture(t, db, now)
		ada := f.user("ada", "active")
		last := func() time.Time {
			t.Helper()
			var at store.Time
			if err := db.Read.QueryRow(`SELECT last_seen_at FROM member_activity WHERE user_id = $1`, ada).Scan(&at); err != nil {
				t.Fatal(err)
			}
			return at.Time
		}
		if err := f.svc.Touch(ctx, ada); err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(59 * time.Minute)
		if err := f.svc.Touch(ctx, ada); err != nil {
			t.Fatal(err)
		}
		// Another instance within the hour writes nothing either.
		if err := instance(db, f.clock).Touch(ctx, ada); err != nil {
			t.Fatal(err)
		}
		if got := last(); !got.Equal(now) {
			t.Fatalf("last seen %v within the hour, want %v", got, now)
		}
		f.clock.Advance(2 * time.Minute)
		if err := f.svc.Touch(ctx, ada); err != nil {
			t.Fatal(err)
		}
		if got := last(); !got.Equal(now.Add(61 * time.Minute)) {
			t.Fatalf("last seen %v after the hour", got)
		}
	})
}
