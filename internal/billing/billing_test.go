package billing

import (
	"reflect"
	"testing"
	"time"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestSubscriptionsAndStatus(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, "", 50)
		free := e.user("free@example.com", "Free")
		paid := e.user("paid@example.com", "Paid")
		end := time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC)
		if _, err := db.Write.ExecContext(e.ctx,
			`INSERT INTO subscriptions (user_id, status, current_period_end, cancel_at_period_end) VALUES ($1, 'active', $2, TRUE)`,
			paid, store.At(end)); err != nil {
			t.Fatal(err)
		}
		if s, err := SubscriptionOf(e.ctx, db, free); err != nil || s != nil || s.Active() {
			t.Fatalf("free: %+v %v", s, err)
		}
		s, err := SubscriptionOf(e.ctx, db, paid)
		if err != nil || !s.Active() || !s.CancelAtPeriodEnd || !s.CurrentPeriodEnd.Equal(end) || s.Complimentary {
			t.Fatalf("paid: %+v %v", s, err)
		}
		st, err := e.svc.Status(e.ctx)
		if err != nil || !reflect.DeepEqual(st, TribeStatus{Capacity: 50, ActiveMembers: 1, SpotsLeft: 49, Plans: []PlanOffer{}}) {
			t.Fatalf("status %+v %v", st, err)
		}
		if st, _ := newEnv(t, db, "", 1).svc.Status(e.ctx); !st.AtCapacity || st.SpotsLeft != 0 {
			t.Fatalf("at capacity: %+v", st)
		}
		if v, err := ViewerOf(e.ctx, db, paid, false); err != nil || !v.Member {
			t.Fatalf("viewer of a subscriber: %+v %v", v, err)
		}
		if v, _ := ViewerOf(e.ctx, db, free, false); v.Member || v.SeesPaidContent() {
			t.Fatalf("viewer of a free member: %+v", v)
		}
	})
}

// TestAccessRuleAgreesEverywhere: HasAccess, Subscription.Active, the member
// count and the SQL the capacity check uses give the same answer for every
// status, paying or complimentary, before and after a complimentary
// membership ends.
func TestAccessRuleAgreesEverywhere(t *testing.T) {
	want := map[string]bool{
		StatusActive: true, StatusTrialing: true, StatusPastDue: true,
		StatusUnpaid: false, StatusCanceled: false, StatusIncomplete: false,
		StatusIncompleteExpired: false, StatusPaused: false,
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, "", 50)
		wantCount := 0
		for status, access := range want {
			id := e.user(status+"@example.com", status)
			e.subscribe(id, status)
			if access {
				wantCount++
			}
			got, err := HasAccess(e.ctx, db, id)
			if err != nil || got != access || e.sub(id).Active() != access || GrantsAccess(status) != access {
				t.Errorf("%s: HasAccess %v, Active %v, want %v (%v)", status, got, e.sub(id).Active(), access, err)
			}
		}
		forever := e.user("comp@example.com", "Comp")
		until := e.user("until@example.com", "Until")
		if err := e.svc.Comp(e.ctx, forever, nil); err != nil {
			t.Fatal(err)
		}
		end := e.clock.Now().Add(48 * time.Hour)
		if err := e.svc.Comp(e.ctx, until, &end); err != nil {
			t.Fatal(err)
		}
		wantCount += 2
		if n := e.count(); n != wantCount {
			t.Fatalf("count %d, want %d", n, wantCount)
		}
		if n, _ := countAccess(e.ctx, db.Read, e.clock.Now()); n != wantCount {
			t.Fatalf("countAccess %d, want %d", n, wantCount)
		}
		// Two days later the dated complimentary membership has ended.
		e.clock.Advance(49 * time.Hour)
		s := e.sub(until)
		if s.Active() || s.Status != StatusCanceled || !s.Complimentary {
			t.Fatalf("ended complimentary membership: %+v", s)
		}
		if n := e.count(); n != wantCount-1 {
			t.Fatalf("count after the end %d, want %d", n, wantCount-1)
		}
		if !e.sub(forever).Active() {
			t.Fatal("complimentary membership without an end ended")
		}
	})
}
