package notify

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/levels"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// attend records that the member attended a past session.
func (f *fixture) attend(userID string, n int) {
	f.t.Helper()
	for i := range n {
		s := f.session("Past", "2026-12-0"+string(rune('1'+i)), "10:00", "UTC")
		f.exec(`INSERT INTO session_attendance (session_id, user_id, joined_at) VALUES ($1, $2, $3)`, s.ID, userID, store.At(s.StartsAt))
	}
}

// A congratulation sent on every sweep, or never: a level is computed, so
// its rise is found by comparing with the last level the member was told
// about. Two instances send it once; a member who turned it off is told
// nothing and not told later either.
func TestLevelReachedMailOnceAcrossInstancesAndNotWhenOff(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db, time.Date(2027, time.January, 10, 9, 0, 0, 0, time.UTC))
		other := instance(db, f.clock)
		// The notification centre hears of each rise once between the
		// instances, mail on or off, and never of a baseline level.
		var inAppMu sync.Mutex
		var inApp []string
		record := func(_ context.Context, userID, kind, title, _, link string) error {
			inAppMu.Lock()
			defer inAppMu.Unlock()
			inApp = append(inApp, userID+" "+kind+" "+title+" "+link)
			return nil
		}
		f.svc.SetInApp(record)
		other.SetInApp(record)
		lv := levels.New(db)
		ada := f.user("ada", "active")
		bob := f.user("bob", "active")
		off := false
		if _, err := f.svc.UpdateSettings(ctx, bob, SettingsInput{LevelReached: &off}); err != nil {
			t.Fatal(err)
		}
		sweep := func() {
			t.Helper()
			atOnce(t, []*Service{f.svc, other}, func(s *Service) error { _, err := s.PlanLevelMails(ctx); return err })
		}
		f.attend(ada, 3)
		f.attend(bob, 3)
		sweep()
		if got := f.queued("level-reached-"); len(got) != 0 {
			t.Fatalf("congratulated before the contribution: %v", got)
		}
		for _, who := range []string{ada, bob} {
			if _, err := lv.Give(ctx, "", levels.AwardInput{UserID: who, Kind: levels.KindContribution, Note: "Fixed the docs"}); err != nil {
				t.Fatal(err)
			}
		}
		sweep()
		sweep()
		got := f.queued("level-reached-")
		if strings.Join(got, "\n") != "ada@example.com | You reached Contributor!" {
			t.Fatalf("level mail: %v", got)
		}
		// Carol was a member before level mail existed (migration 0014 marks
		// her row): the level she already has is recorded without a mail.
		carol := f.user("carol", "active")
		f.exec(`INSERT INTO member_activity (user_id, level_baseline) VALUES ($1, $2)`, carol, true)
		f.attend(carol, 3)
		if _, err := lv.Give(ctx, "", levels.AwardInput{UserID: carol, Kind: levels.KindContribution, Note: "Ran a demo"}); err != nil {
			t.Fatal(err)
		}
		sweep()
		var told string
		var baseline bool
		if err := db.Read.QueryRow(`SELECT level_announced, level_baseline FROM member_activity WHERE user_id = $1`, carol).Scan(&told, &baseline); err != nil {
			t.Fatal(err)
		}
		if told != "Contributor" || baseline {
			t.Fatalf("carol's level recorded as %q (baseline still %v)", told, baseline)
		}
		// Bob turns it on again: Contributor is old news.
		on := true
		if _, err := f.svc.UpdateSettings(ctx, bob, SettingsInput{LevelReached: &on}); err != nil {
			t.Fatal(err)
		}
		sweep()
		if n := len(f.queued("level-reached-")); n != 1 {
			t.Fatalf("%d level mails, want 1", n)
		}
		slices.Sort(inApp)
		want := []string{ada + " level You reached Contributor! /members", bob + " level You reached Contributor! /members"}
		slices.Sort(want)
		if !slices.Equal(inApp, want) {
			t.Fatalf("in-app level notices: %v, want %v", inApp, want)
		}
	})
}

// The owner learns who is drifting away before they cancel: members who
// missed the last two sessions, were not seen for 14 days, or whose payment
// failed, with their level and cohort; healthy members, free members and
// former members are not listed.
func TestAtRiskListsMissedSessionsNotSeenAndFailedPayments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2027, time.January, 10, 9, 0, 0, 0, time.UTC)
		f := newFixture(t, db, now)
		healthy := f.user("healthy", "active")
		missed := f.user("missed", "active")
		gone := f.user("gone", "active")
		failing := f.user("failing", "past_due")
		free := f.user("free", "")
		former := f.user("former", "canceled")
		for _, id := range []string{healthy, missed, failing, free, former} {
			f.seen(id, now.Add(-24*time.Hour))
		}
		f.seen(gone, now.Add(-15*24*time.Hour))
		first := f.session("One", "2027-01-05", "10:00", "UTC")
		second := f.session("Two", "2027-01-08", "10:00", "UTC")
		f.session("Three", "2027-01-12", "10:00", "UTC") // not held yet
		for _, s := range []string{first.ID, second.ID} {
			f.exec(`INSERT INTO session_attendance (session_id, user_id, joined_at) VALUES ($1, $2, $3)`, s, healthy, store.At(now.Add(-48*time.Hour)))
			f.exec(`INSERT INTO session_attendance (session_id, user_id, joined_at) VALUES ($1, $2, $3)`, s, gone, store.At(now.Add(-48*time.Hour)))
			f.exec(`INSERT INTO session_attendance (session_id, user_id, joined_at) VALUES ($1, $2, $3)`, s, failing, store.At(now.Add(-48*time.Hour)))
		}
		// An admin's correction wins: the failing member joined the second
		// but was marked absent; one of two is still attended.
		f.exec(`UPDATE session_attendance SET correction = 'absent', corrected_at = $1 WHERE user_id = $2 AND session_id = $3`, store.At(now), failing, second.ID)
		// The joins above date the gone member's activity; they were away.
		f.exec(`UPDATE session_attendance SET joined_at = $1 WHERE user_id = $2`, store.At(now.Add(-20*24*time.Hour)), gone)
		list, err := f.svc.AtRisk(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, m := range list.Members {
			got[m.FullName] = strings.Join(m.Reasons, ",") + " " + m.Level
		}
		want := map[string]string{
			"Missed":  "missed_sessions Apprentice",
			"Gone":    "not_seen Apprentice",
			"Failing": "payment_failed Apprentice",
		}
		if len(got) != len(want) {
			t.Fatalf("at risk: %v, want %v", got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %q, want %q", k, got[k], v)
			}
		}
		if list.Members[0].FullName != "Gone" || list.Members[0].LastActivityAt == nil {
			t.Fatalf("longest away first: %+v", list.Members[0])
		}
	})
}

// Unsubscribe links anyone could forge or alter: a link is signed, so
// changing the member or the kind, or cutting it short, is refused and
// turns nothing off; a genuine one turns off that kind only, and using it
// again is harmless.
func TestUnsubscribeLinksAreSignedAndTurnOffOneKind(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db, time.Date(2027, time.January, 10, 9, 0, 0, 0, time.UTC))
		ada := f.user("ada", "active")
		bob := f.user("bob", "active")
		tok, err := f.svc.UnsubscribeToken(ctx, ada, KindWeeklyDigest)
		if err != nil {
			t.Fatal(err)
		}
		// Links of the first form (readable contents, a dot, their HMAC)
		// are still honoured, so their forgeries are tried too.
		key, err := f.svc.signingKey(ctx)
		if err != nil {
			t.Fatal(err)
		}
		payload := b64.EncodeToString([]byte(KindWeeklyDigest + ":" + ada))
		mac := b64.EncodeToString(sign(key, KindWeeklyDigest+":"+ada))
		forged := b64.EncodeToString([]byte(KindWeeklyDigest+":"+bob)) + "." + mac
		other := b64.EncodeToString([]byte(KindSessionReminders+":"+ada)) + "." + mac
		flipped := []byte(tok)
		flipped[len(flipped)/2] ^= 1
		for _, bad := range []string{"", "x", payload, payload + ".", forged, other, tok[:len(tok)-2], string(flipped)} {
			if _, err := f.svc.Unsubscribe(ctx, bad); err == nil {
				t.Fatalf("token %q was accepted", bad)
			}
		}
		// Another instance reads the same key.
		if _, err := instance(db, f.clock).Unsubscribe(ctx, tok); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Unsubscribe(ctx, tok); err != nil {
			t.Fatal(err)
		}
		a, _ := f.svc.SettingsOf(ctx, ada)
		b, _ := f.svc.SettingsOf(ctx, bob)
		if a.WeeklyDigest || !a.SessionReminders || !a.LevelReached || !a.CohortProjects || b != Defaults {
			t.Fatalf("after unsubscribing: ada %+v, bob %+v", a, b)
		}
	})
}

// A time zone the server cannot read would make every mail state the
// wrong time: it is refused with the field named, and nothing is saved.
func TestSettingsRefuseAnUnknownZoneAndSaveNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db, time.Date(2027, time.January, 10, 9, 0, 0, 0, time.UTC))
		ada := f.user("ada", "active")
		off := false
		for _, z := range []string{"Mars/Olympus", "Local", "Europe/Paris ", strings.Repeat("a", 65)} {
			_, err := f.svc.UpdateSettings(ctx, ada, SettingsInput{TimeZone: &z, WeeklyDigest: &off})
			if z == "Europe/Paris " {
				if err != nil {
					t.Fatalf("a zone with a trailing space: %v", err)
				}
				continue
			}
			if err == nil || !strings.Contains(err.Error(), "time zone") {
				t.Fatalf("zone %q: %v", z, err)
			}
		}
		st, _ := f.svc.SettingsOf(ctx, ada)
		if st.TimeZone != "Europe/Paris" || st.WeeklyDigest {
			t.Fatalf("settings: %+v", st)
		}
	})
}

// Two server instances, each with its own connections to one PostgreSQL
// database, sweep at the same moments: each reminder, digest and
// congratulation is queued once between them.
func TestTwoInstancesOnOnePostgreSQLQueueEachMailOnce(t *testing.T) {
	url := storetest.NewPostgresSchema(t)
	now := time.Date(2027, time.January, 10, 9, 0, 0, 0, time.UTC)
	first := storetest.Open(t, url, t.TempDir())
	f := newFixture(t, first, now)
	second := instance(storetest.Open(t, url, t.TempDir()), f.clock)
	for i := range 8 {
		id := f.user("m"+string(rune('a'+i)), "active")
		f.seen(id, now.Add(-10*24*time.Hour))
		if i < 3 {
			f.attend(id, 3)
			f.exec(`INSERT INTO awards (id, user_id, kind, note, status, suggested, awarded_at) VALUES ($1, $2, 'contribution', 'n', 'accepted', FALSE, $3)`,
				store.NewID(), id, store.At(now))
		}
	}
	f.session("Weekly build", "2027-01-11", "09:00", "UTC")
	ctx := context.Background()
	for range 5 {
		atOnce(t, []*Service{f.svc, second}, func(s *Service) error { return s.Sweep(ctx) })
	}
	var total, distinct int
	if err := first.Read.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT idempotency_key) FROM mail_outbox`).Scan(&total, &distinct); err != nil {
		t.Fatal(err)
	}
	// 8 reminders (24 hours before), 8 digests, 3 congratulations.
	if total != 19 || distinct != 19 {
		t.Fatalf("%d mails (%d distinct), want 19", total, distinct)
	}
}

// Unsubscribe links carried the member's id in readable base64. A link is
// now opaque: neither the id nor the kind can be read from it; a link of
// the first form, already mailed, still turns its kind off.
func TestUnsubscribeTokensDoNotRevealTheUserID(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db, time.Date(2027, time.January, 10, 9, 0, 0, 0, time.UTC))
		ada := f.user("ada", "active")
		tok, err := f.svc.UnsubscribeToken(ctx, ada, KindWeeklyDigest)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(tok, ".") {
			raw, _ := b64.DecodeString(part)
			if strings.Contains(tok, ada) || strings.Contains(string(raw), ada) || strings.Contains(string(raw), KindWeeklyDigest) {
				t.Fatalf("token %q reveals its contents", tok)
			}
		}
		if again, _ := f.svc.UnsubscribeToken(ctx, ada, KindWeeklyDigest); again != tok {
			t.Fatalf("the same link changes: %q then %q", tok, again)
		}
		key, err := f.svc.signingKey(ctx)
		if err != nil {
			t.Fatal(err)
		}
		old := b64.EncodeToString([]byte(KindLevelReached+":"+ada)) + "." + b64.EncodeToString(sign(key, KindLevelReached+":"+ada))
		for _, link := range []string{tok, old} {
			if _, err := f.svc.Unsubscribe(ctx, link); err != nil {
				t.Fatalf("%q: %v", link, err)
			}
		}
		if a, _ := f.svc.SettingsOf(ctx, ada); a.WeeklyDigest || a.LevelReached || !a.SessionReminders {
			t.Fatalf("after unsubscribing: %+v", a)
		}
	})
}
