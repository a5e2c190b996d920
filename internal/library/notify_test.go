package library

import (
	"context"
	"testing"
	"time"

	"tribe/internal/community"
	"tribe/internal/storage"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestReplayToldToThoseWhoMissedIt: publishing a session's replay tells
// the members with tribe access who RSVP'd "going" and did not attend,
// once however often the item changes after; those who attended, said
// no, have no access or never answered hear nothing.
func TestReplayToldToThoseWhoMissedIt(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, storage.NewLocal(t.TempDir()))
		ctx := context.Background()
		var got []Notice
		f.svc.o.Notify = func(_ context.Context, n []Notice) error { got = append(got, n...); return nil }
		sess, err := community.CreateSession(ctx, db, "", community.SessionInput{Title: "Agents", Date: "2025-06-01", Time: "10:00", Duration: "1 hour", Timezone: "UTC"})
		if err != nil {
			t.Fatal(err)
		}
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := db.Write.ExecContext(ctx, q, args...); err != nil {
				t.Fatal(err)
			}
		}
		member := func(name string, paid, going, attended bool) string {
			id := f.user(name)
			if paid {
				exec(`INSERT INTO subscriptions (user_id, status, created_at) VALUES ($1, 'active', $2)`, id, store.Now())
			}
			exec(`INSERT INTO session_rsvps (session_id, user_id, going) VALUES ($1, $2, $3)`, sess.ID, id, going)
			if attended {
				exec(`INSERT INTO session_attendance (session_id, user_id, joined_at) VALUES ($1, $2, $3)`, sess.ID, id, store.At(sess.StartsAt))
			}
			return id
		}
		missed := member("Missed", true, true, false)
		member("Came", true, true, true)
		member("Declined", true, false, false)
		member("Free", false, true, false)
		f.user("Silent")
		admin := f.admin("Owner")
		item := f.add(admin, ItemInput{Kind: ptr(KindRecording), Title: ptr("Agents replay"), SessionID: ptr(sess.ID)})
		if len(got) != 0 {
			t.Fatalf("told before publishing: %+v", got)
		}
		past := f.clock.Now().Add(-time.Minute)
		for range 2 {
			if _, err := f.svc.Update(ctx, admin, item.ID, ItemInput{PublishedAt: &past, set: map[string]bool{"published_at": true}}); err != nil {
				t.Fatal(err)
			}
		}
		if len(got) != 1 || got[0].MemberID != missed || got[0].Link != "/members/library/"+item.ID || got[0].Title != "The replay is up: Agents replay" {
			t.Errorf("notices %+v", got)
		}
		// A replay published for later is told by the sweep once its time
		// has come, not before.
		got = nil
		later := f.clock.Now().Add(time.Hour)
		f.add(admin, ItemInput{Kind: ptr(KindRecording), Title: ptr("Later"), SessionID: ptr(sess.ID), PublishedAt: &later})
		if _, err := f.svc.Sweep(ctx); err != nil || len(got) != 0 {
			t.Fatalf("told early: %+v %v", got, err)
		}
		f.clock.Advance(2 * time.Hour)
		if _, err := f.svc.Sweep(ctx); err != nil || len(got) != 1 || got[0].Title != "The replay is up: Later" {
			t.Errorf("sweep: %+v %v", got, err)
		}
	})
}
