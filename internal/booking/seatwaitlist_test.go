package booking

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/mail"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func waitReq(email string) WaitlistRequest {
	return WaitlistRequest{Name: "Wanda Waiter", Email: email, TimeZone: "Europe/Paris", ClientAddr: "client-" + email}
}

// offerMails are the offers mailed to an address, newest first.
func offerMails(t *testing.T, db *store.DB, to string) []mail.Stored {
	t.Helper()
	list, err := mail.List(context.Background(), db, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []mail.Stored
	for _, m := range list {
		if strings.Contains(m.To, to) && strings.HasPrefix(m.Subject, "A seat is free") {
			out = append(out, m)
		}
	}
	return out
}

// The wait list of a full date: joining needs a sold-out date; a seat given
// back (a lapsed hold) is held for the first in line for two hours and
// offered by mail exactly once, even with two instances sweeping at once;
// no one else can take it meanwhile; when the offer lapses the seat goes
// to the next in line; cancelling the date closes the list.
func TestSeatWaitlistOffersAFreedSeatToTheFirstInLineThenTheNext(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, true)
		e := groupAt(t, s, at(2026, time.February, 2, 10, 0), 1)

		_, err := s.JoinWaitlist(ctx, e.ID, waitReq("early@example.com"))
		wantCode(t, err, errs.Conflict) // seats left: book one instead
		hold := book(t, s, seatReq(e, "grace@example.com")).Booking

		first, err := s.JoinWaitlist(ctx, e.ID, waitReq("first@example.com"))
		if err != nil || first.Status != WaitWaiting {
			t.Fatalf("join: %+v %v", first, err)
		}
		clock.Advance(time.Second)
		if _, err := s.JoinWaitlist(ctx, e.ID, waitReq("second@example.com")); err != nil {
			t.Fatal(err)
		}
		again, err := s.JoinWaitlist(ctx, e.ID, waitReq("FIRST@example.com"))
		if err != nil || again.ID != first.ID {
			t.Fatalf("joining twice: %+v %v", again, err)
		}
		_, err = s.JoinWaitlist(ctx, e.ID, WaitlistRequest{Name: "\u202eevil", Email: "x@example.com"})
		wantField(t, err, "name")
		_, err = s.JoinWaitlist(ctx, e.ID, WaitlistRequest{Name: "Eve", Email: "not an address"})
		wantField(t, err, "email")
		conf, _ := mail.List(ctx, db, 100)
		for _, m := range conf {
			if strings.Contains(m.To, "first@example.com") && strings.Contains(m.Text, "Wanda") {
				t.Fatalf("the wait list mail quotes the name typed:\n%s", m.Text)
			}
		}

		// Nothing free yet: nothing offered.
		if n, err := s.OfferSeats(ctx); err != nil || n != 0 {
			t.Fatalf("offers with no free seat: %d %v", n, err)
		}
		// Grace's hold lapses: two instances sweep at once.
		clock.Advance(HoldTTL + time.Minute)
		var wg sync.WaitGroup
		var mu sync.Mutex
		total := 0
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := s.OfferSeats(ctx)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total += n
				mu.Unlock()
			}()
		}
		wg.Wait()
		if total != 1 || len(offerMails(t, db, "first@example.com")) != 1 || len(offerMails(t, db, "second@example.com")) != 0 {
			t.Fatalf("offered %d; mails to first %d, second %d", total, len(offerMails(t, db, "first@example.com")),
				len(offerMails(t, db, "second@example.com")))
		}
		if b, _ := s.Get(ctx, hold.ID); b.Status != StatusExpired {
			t.Fatalf("grace's hold: %s", b.Status)
		}
		list, err := s.Waitlist(ctx, e.ID)
		if err != nil || len(list) != 2 || list[0].Status != WaitOffered || list[1].Position != 1 ||
			!list[0].OfferExpiresAt.Equal(clock.Now().Add(OfferTTL)) {
			t.Fatalf("list after the offer: %+v %v", list, err)
		}
		// The offer and the seat's held booking give times on the clock of the
		// page the visitor joined from (Paris: 16:00 for 10:00 in Toronto).
		offer := offerMails(t, db, "first@example.com")[0]
		if !strings.Contains(offer.Text, "February 2, 2026, 4:00 PM (Europe/Paris)") || strings.Contains(offer.Text, "(UTC)") {
			t.Fatalf("the offer's times are not in the visitor's zone:\n%s", offer.Text)
		}
		if b, _ := s.Get(ctx, list[0].BookingID); b == nil || b.TimeZone != "Europe/Paris" {
			t.Fatalf("the offered seat's booking: %+v", b)
		}
		// The seat is held: a stranger cannot take it.
		_, err = s.Book(ctx, seatReq(e, "stranger@example.com"))
		wantCode(t, err, errs.SoldOut)
		// The link shows the offer; a wrong token shows nothing.
		token := tokenInText(t, offerMails(t, db, "first@example.com")[0].Text)
		if o, err := s.ShowOffer(ctx, token); err != nil || o.Event.ID != e.ID || !o.ExpiresAt.Equal(*list[0].OfferExpiresAt) {
			t.Fatalf("offer: %+v %v", o, err)
		}
		_, err = s.ShowOffer(ctx, token[:len(token)-2]+"xx")
		wantCode(t, err, errs.NotFound)

		// Two hours pass unpaid: the next in line gets the seat.
		clock.Advance(OfferTTL + time.Second)
		if n, err := s.OfferSeats(ctx); err != nil || n != 1 {
			t.Fatalf("second offer: %d %v", n, err)
		}
		if len(offerMails(t, db, "second@example.com")) != 1 || len(offerMails(t, db, "first@example.com")) != 1 {
			t.Fatal("the lapsed offer did not move on to the next in line exactly once")
		}
		_, err = s.ShowOffer(ctx, token)
		wantCode(t, err, errs.NotFound)
		list, _ = s.Waitlist(ctx, e.ID)
		if list[0].Status != WaitLapsed || list[1].Status != WaitOffered {
			t.Fatalf("list after the lapse: %+v %+v", list[0], list[1])
		}
		// More seats: with nobody left waiting the public can book again.
		if _, err := s.SetEventSeats(ctx, e.ID, 4); err != nil {
			t.Fatal(err)
		}
		if _, err := s.OfferSeats(ctx); err != nil {
			t.Fatal(err)
		}
		book(t, s, seatReq(e, "late@example.com"))
		// The date is cancelled: its list closes.
		if _, _, err := s.CancelEvent(ctx, e.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.OfferSeats(ctx); err != nil {
			t.Fatal(err)
		}
		list, _ = s.Waitlist(ctx, e.ID)
		if list[1].Status != WaitClosed && list[1].Status != WaitLapsed {
			t.Fatalf("after cancelling the date: %+v", list[1])
		}
	})
}

// tokenInText is the offer token of a mail's link.
func tokenInText(t *testing.T, text string) string {
	t.Helper()
	i := strings.Index(text, "?offer=")
	if i < 0 {
		t.Fatalf("no offer link in:\n%s", text)
	}
	rest := text[i+len("?offer="):]
	if j := strings.IndexAny(rest, " \n\r)>"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
