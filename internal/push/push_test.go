package push_test

import (
	"context"
	"database/sql"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/push"
	"tribe/internal/push/pushtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func member(t *testing.T, db *store.DB, name string) string {
	t.Helper()
	id := store.NewID()
	email := name + "@example.com"
	ctx := context.Background()
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, email, email_normalized, password_hash, email_confirmed_at, created_at)
			VALUES ($1, $2, $2, 'x', $3, $3)`, id, email, store.Now()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, $3)`, id, email, name)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func subscribe(t *testing.T, s *push.Service, userID string, b *pushtest.Browser) {
	t.Helper()
	var in push.SubscriptionInput
	in.Endpoint, in.Keys.P256dh, in.Keys.Auth = b.Endpoint, b.P256dh(), b.AuthKey()
	if err := s.Subscribe(context.Background(), userID, in); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
}

func count(t *testing.T, s *push.Service, userID string) int {
	t.Helper()
	n, err := s.Count(context.Background(), userID)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The member's browser reads the very text sent: the test's push service
// checks the VAPID signature against the site's key and decrypts the
// payload with the browser's private key (RFC 8291).
func TestSendIsReadByTheBrowser(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := push.New(db, push.Options{AllowPrivate: true, Contact: "owner@example.com"})
		other := push.New(db, push.Options{AllowPrivate: true})
		key, err := svc.PublicKey(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if raw, err := base64.RawURLEncoding.DecodeString(key); err != nil || len(raw) != 65 || raw[0] != 4 {
			t.Fatalf("public key %q is not an uncompressed P-256 point", key)
		}
		if k2, _ := other.PublicKey(ctx); k2 != key {
			t.Fatalf("a second instance made its own key pair: %q vs %q", k2, key)
		}

		ps := pushtest.New(t)
		ada, bob := member(t, db, "ada"), member(t, db, "bob")
		phone, laptop, bobs := ps.NewBrowser(), ps.NewBrowser(), ps.NewBrowser()
		subscribe(t, svc, ada, phone)
		subscribe(t, svc, ada, laptop)
		subscribe(t, svc, bob, bobs)

		res, err := svc.Send(ctx, ada, push.Message{Title: "Bob mentioned you", Body: "Ça marche 🔥", Link: "/members/community/t1", Tag: "reaction:t1", Urgency: push.UrgencyLow})
		if err != nil {
			t.Fatal(err)
		}
		if res.Sent != 2 || res.Removed != 0 || res.Failed != 0 {
			t.Fatalf("result %+v, want 2 sent", res)
		}
		got := ps.Received()
		if len(got) != 2 {
			t.Fatalf("push service got %d messages, want 2 (Ada's two browsers, not Bob's)", len(got))
		}
		for _, r := range got {
			if r.Endpoint == bobs.Endpoint {
				t.Fatal("Bob's browser got Ada's notification")
			}
			m := r.Message()
			if m.Title != "Bob mentioned you" || m.Body != "Ça marche 🔥" || m.Link != "/members/community/t1" || m.Tag != "reaction:t1" {
				t.Fatalf("browser read %s", r.Payload)
			}
			if r.TTL != "86400" || r.Urgency != "low" || r.Topic == "" || len(r.Topic) > 32 || r.VAPIDKey != key {
				t.Fatalf("headers: TTL %q Urgency %q Topic %q key %q", r.TTL, r.Urgency, r.Topic, r.VAPIDKey)
			}
		}

		// A long body is shortened to fit one record, never refused.
		if res, err := svc.Send(ctx, bob, push.Message{Title: "Long", Body: strings.Repeat("é", 5000), Link: "/members"}); err != nil || res.Sent != 1 {
			t.Fatalf("long message: %+v %v", res, err)
		}
		if m := ps.Received()[2].Message(); m.Title != "Long" || len(m.Body) == 0 || len(m.Body) > 3000 {
			t.Fatalf("long body arrived as %d bytes", len(m.Body))
		}
	})
}

// A push service that answers 404 or 410 says the browser unsubscribed:
// the subscription is deleted. A 500 keeps it (the next message may pass).
func TestGoneSubscriptionsAreDeleted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := push.New(db, push.Options{AllowPrivate: true})
		ps := pushtest.New(t)
		ada := member(t, db, "ada")
		gone, expired, flaky, fine := ps.NewBrowser(), ps.NewBrowser(), ps.NewBrowser(), ps.NewBrowser()
		for _, b := range []*pushtest.Browser{gone, expired, flaky, fine} {
			subscribe(t, svc, ada, b)
		}
		ps.Answer(gone, http.StatusNotFound)
		ps.Answer(expired, http.StatusGone)
		ps.Answer(flaky, http.StatusServiceUnavailable)
		res, err := svc.Send(ctx, ada, push.Message{Title: "Hello", Link: "/members"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Sent != 1 || res.Removed != 2 || res.Failed != 1 {
			t.Fatalf("result %+v, want 1 sent, 2 removed, 1 failed", res)
		}
		if n := count(t, svc, ada); n != 2 {
			t.Fatalf("%d subscriptions left, want 2 (the flaky one and the fine one)", n)
		}
	})
}

// Endpoints come from browsers, so from anyone: only https links to public
// hosts are kept, and keys must be real keys.
func TestHostileSubscriptionsAreRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := push.New(db, push.Options{})
		ps := pushtest.New(t)
		ada := member(t, db, "ada")
		b := ps.NewBrowser()
		for _, endpoint := range []string{
			"", "http://push.example.com/x", "https://127.0.0.1/x", "https://localhost/x", "https://push.localhost/x",
			"https://10.1.2.3/x", "https://192.168.0.1/x", "https://[::1]/x", "https://169.254.169.254/latest/meta-data",
			"https://[::ffff:127.0.0.1]/x", "https://intranet/x", "https://user:pw@push.example.com/x", "javascript:alert(1)",
			"file:///etc/passwd", "https://push.example.com/" + strings.Repeat("a", 1000), "https://push.example.com/a b",
		} {
			var in push.SubscriptionInput
			in.Endpoint, in.Keys.P256dh, in.Keys.Auth = endpoint, b.P256dh(), b.AuthKey()
			err := svc.Subscribe(ctx, ada, in)
			if !errs.Is(err, errs.Invalid) {
				t.Errorf("endpoint %q: %v, want a 400", endpoint, err)
			}
			var e *errs.Error
			if ok := asErr(err, &e); ok && e.Field != "endpoint" {
				t.Errorf("endpoint %q: field %q", endpoint, e.Field)
			}
		}
		for _, tc := range []struct{ p256, auth, field string }{
			{"", b.AuthKey(), "keys.p256dh"},
			{"BAAA", b.AuthKey(), "keys.p256dh"},
			{"B" + strings.Repeat("A", 86), b.AuthKey(), "keys.p256dh"}, // 65 bytes, not on the curve
			{b.P256dh(), "", "keys.auth"},
			{b.P256dh(), "not base64!", "keys.auth"},
		} {
			var in push.SubscriptionInput
			in.Endpoint, in.Keys.P256dh, in.Keys.Auth = "https://push.example.com/ok", tc.p256, tc.auth
			var e *errs.Error
			if err := svc.Subscribe(ctx, ada, in); !asErr(err, &e) || e.Field != tc.field {
				t.Errorf("keys %q/%q: %v, want a 400 naming %s", tc.p256, tc.auth, err, tc.field)
			}
		}
		if n := count(t, svc, ada); n != 0 {
			t.Fatalf("%d hostile subscriptions kept", n)
		}

		// A stored endpoint that leads to loopback (stored while allowed,
		// or a public name that resolves to it) is refused by the dialer.
		if _, err := db.Write.ExecContext(ctx, `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, store.NewID(), ada, b.Endpoint, b.P256dh(), b.AuthKey(), store.Now()); err != nil {
			t.Fatal(err)
		}
		res, err := svc.Send(ctx, ada, push.Message{Title: "x"})
		if err != nil || res.Sent != 0 || res.Failed != 1 {
			t.Fatalf("send to loopback: %+v %v", res, err)
		}
		if got := ps.Received(); len(got) != 0 {
			t.Fatalf("the guarded client reached loopback: %d requests", len(got))
		}
	})
}

func asErr(err error, target **errs.Error) bool {
	e, ok := err.(*errs.Error)
	if ok {
		*target = e
	}
	return ok
}

// At most ten browsers per member; a browser signed in to by someone else
// moves to them; a member removes only their own.
func TestSubscriptionLimitsAndOwnership(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := push.New(db, push.Options{AllowPrivate: true, Clock: func() time.Time { return time.Now() }})
		ps := pushtest.New(t)
		ada, bob := member(t, db, "ada"), member(t, db, "bob")
		var first *pushtest.Browser
		for i := range push.MaxPerMember {
			b := ps.NewBrowser()
			if i == 0 {
				first = b
			}
			subscribe(t, svc, ada, b)
		}
		subscribe(t, svc, ada, first) // the same browser again is no new one
		var in push.SubscriptionInput
		extra := ps.NewBrowser()
		in.Endpoint, in.Keys.P256dh, in.Keys.Auth = extra.Endpoint, extra.P256dh(), extra.AuthKey()
		if err := svc.Subscribe(ctx, ada, in); !errs.Is(err, errs.Conflict) {
			t.Fatalf("eleventh browser: %v, want a conflict", err)
		}
		if removed, err := svc.Unsubscribe(ctx, bob, first.Endpoint); err != nil || removed {
			t.Fatalf("Bob removed Ada's subscription: %v %v", removed, err)
		}
		subscribe(t, svc, bob, first) // Bob signs in on Ada's old browser
		if a, b := count(t, svc, ada), count(t, svc, bob); a != 9 || b != 1 {
			t.Fatalf("counts after the browser moved: ada %d bob %d", a, b)
		}
		if removed, err := svc.Unsubscribe(ctx, bob, first.Endpoint); err != nil || !removed {
			t.Fatalf("Bob could not remove his own: %v %v", removed, err)
		}
	})
}
