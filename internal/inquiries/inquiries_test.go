package inquiries

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/errs"
	"tribe/internal/mail"
	"tribe/internal/mail/mailtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

var now = time.Date(2026, time.March, 2, 15, 0, 0, 0, time.UTC)

func newService(db *store.DB) *Service {
	owner := func(context.Context) (string, string, error) { return "rUv", "owner@ruv.example", nil }
	return New(db, owner, "https://ruv.example", WithClock(clocktest.At(now).Now))
}

func good() Input {
	return Input{Name: "Grace Hopper", Email: "grace@fleet.example", Company: "Fleet Analytics", TeamSize: 12,
		Message: "Training for our quant team.\n\nWe trade futures.", PreferredStart: "2026-04-01"}
}

func wantField(t *testing.T, err error, field string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != errs.Invalid || e.Field != field {
		t.Fatalf("error %v, want invalid %q", err, field)
	}
}

// An inquiry that only lived in a mail link was never tracked: it must be
// stored and both mails (the sender's confirmation, the owner's copy)
// actually delivered over SMTP.
func TestInquiryIsStoredAndBothMailsArrive(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(db)
		q, err := s.Submit(ctx, good(), "203.0.113.9")
		if err != nil {
			t.Fatal(err)
		}
		if q.Status != StatusNew || q.TeamSize != 12 || q.PreferredStart != "2026-04-01" {
			t.Fatalf("stored %+v", q)
		}
		srv := mailtest.Start(t)
		sender, err := mail.NewSMTPSender(srv.URL(), "hello@ruv.example")
		if err != nil {
			t.Fatal(err)
		}
		w := mail.NewWorker(db, sender, slog.New(slog.NewTextHandler(io.Discard, nil)), mail.WorkerOptions{})
		if _, err := w.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		got := srv.WaitFor(t, 2, 10*time.Second)
		to := map[string]mailtest.Received{}
		for _, m := range got {
			to[strings.Trim(m.To, "<>")] = m
		}
		c, ok := to["grace@fleet.example"]
		if !ok || c.Subject != "We received your enterprise inquiry" || strings.Contains(c.Text, "Fleet Analytics") {
			t.Fatalf("confirmation %+v", got)
		}
		o, ok := to["owner@ruv.example"]
		if !ok || !strings.Contains(o.Subject, "Fleet Analytics (12 people)") || !strings.Contains(o.Text, "We trade futures.") ||
			!strings.Contains(o.Text, "Wednesday, April 1, 2026") {
			t.Fatalf("owner's copy %+v", o)
		}
	})
}

// Every bad field is refused with its name, and nothing is written or
// mailed.
func TestInquiryRefusesBadFieldsWithTheField(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(db)
		for field, change := range map[string]func(*Input){
			"name":            func(in *Input) { in.Name = "  " },
			"email":           func(in *Input) { in.Email = "not an address" },
			"company":         func(in *Input) { in.Company = strings.Repeat("c", MaxCompany+1) },
			"team_size":       func(in *Input) { in.TeamSize = 0 },
			"message":         func(in *Input) { in.Message = "bad\x00byte" },
			"preferred_start": func(in *Input) { in.PreferredStart = "2026-02-01" },
		} {
			in := good()
			change(&in)
			_, err := s.Submit(context.Background(), in, "")
			wantField(t, err, field)
		}
		var n, m int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM inquiries`).Scan(&n)
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM mail_outbox`).Scan(&m)
		if n != 0 || m != 0 {
			t.Fatalf("%d inquiries and %d mails written by refused forms", n, m)
		}
	})
}

// The owner follows an inquiry up: status and note change independently,
// and a bad status is refused.
func TestOwnerSetsStatusAndNote(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(db)
		q, err := s.Submit(ctx, good(), "")
		if err != nil {
			t.Fatal(err)
		}
		replied, note := StatusReplied, "Call booked for Friday."
		if q, err = s.Update(ctx, Patch{ID: q.ID, Status: &replied}); err != nil || q.Status != StatusReplied {
			t.Fatalf("status: %+v %v", q, err)
		}
		if q, err = s.Update(ctx, Patch{ID: q.ID, Note: &note}); err != nil || q.Note != note || q.Status != StatusReplied {
			t.Fatalf("note: %+v %v", q, err)
		}
		bad := "maybe"
		_, err = s.Update(ctx, Patch{ID: q.ID, Status: &bad})
		wantField(t, err, "status")
		_, err = s.Update(ctx, Patch{ID: "nope", Status: &replied})
		if errs.CodeOf(err) != errs.NotFound {
			t.Fatalf("unknown inquiry: %v", err)
		}
		list, err := s.List(ctx, StatusReplied)
		if err != nil || len(list) != 1 {
			t.Fatalf("replied list %d, %v", len(list), err)
		}
		if list, _ := s.List(ctx, StatusNew); len(list) != 0 {
			t.Fatalf("new list %d", len(list))
		}
	})
}

// The form takes any address, and the confirmation quoted the sender's
// name, company and message: anyone could have the owner's domain mail
// their words to anyone. It says only that an inquiry was received.
func TestInquiryConfirmationQuotesNothingTheSenderTyped(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(db)
		in := good()
		in.Name = "Claim your prize"
		in.Company = "Win big at https://phish.example"
		in.Message = "Your account is locked: sign in at https://phish.example/login"
		if _, err := s.Submit(context.Background(), in, "2001:db8:1:2:3:4:5:6"); err != nil {
			t.Fatal(err)
		}
		var body, client string
		if err := db.Read.QueryRow(`SELECT text_body FROM mail_outbox WHERE to_addr = $1`, "grace@fleet.example").Scan(&body); err != nil {
			t.Fatal(err)
		}
		for _, typed := range []string{"prize", "phish", "locked"} {
			if strings.Contains(body, typed) {
				t.Fatalf("the confirmation quotes %q:\n%s", typed, body)
			}
		}
		// The client is kept as every limit keys it: an IPv6 /64.
		if err := db.Read.QueryRow(`SELECT client_addr FROM inquiries`).Scan(&client); err != nil || client != "2001:db8:1:2::/64" {
			t.Fatalf("client %q %v", client, err)
		}
	})
}
