package inbox_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tribe/internal/inbox"
	"tribe/internal/push"
	"tribe/internal/push/pushtest"
	"tribe/internal/store/storetest"
)

// BenchmarkAnnouncementFanOut is an admin's announcement reaching the whole
// tribe: one Notify of 50 notices, 20 members by mail (composed with their
// one-click unsubscribe link and queued) and 30 with a browser to push to
// (queued for the worker), each notification recorded and each member's
// tabs told. The bar is under 1 s on each engine; bench/RESULTS.md
// has the numbers.
func BenchmarkAnnouncementFanOut(b *testing.B) {
	for _, e := range storetest.Engines() {
		b.Run(e.Name, func(b *testing.B) {
			dbURL, dir := e.New(b)
			db := storetest.Open(b, dbURL, dir)
			s := newSite(b, db)
			ps := pushtest.New(b)
			ctx := context.Background()
			var notices []inbox.Notice
			for i := range 50 {
				m := s.member(fmt.Sprintf("m%02d", i))
				if i < 20 {
					if _, err := s.inbox.SetChannels(ctx, m, inbox.Channels{"announcement": "mail"}); err != nil {
						b.Fatal(err)
					}
				} else {
					br := ps.NewBrowser()
					var in push.SubscriptionInput
					in.Endpoint, in.Keys.P256dh, in.Keys.Auth = br.Endpoint, br.P256dh(), br.AuthKey()
					if err := s.push.Subscribe(ctx, m, in); err != nil {
						b.Fatal(err)
					}
				}
				notices = append(notices, inbox.Notice{MemberID: m, Kind: inbox.KindAnnouncement,
					Title: "The spring cohort opens Monday", Body: "Sign up in the members area.", Link: "/members/community/a1"})
			}
			var worst time.Duration
			for b.Loop() {
				t0 := time.Now()
				if err := s.inbox.Notify(ctx, notices); err != nil {
					b.Fatal(err)
				}
				worst = max(worst, time.Since(t0))
			}
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
			if n := s.count(`SELECT COUNT(*) FROM push_outbox`); n == 0 {
				b.Fatal("no push queued")
			}
		})
	}
}
