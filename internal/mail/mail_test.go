package mail_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	ical "github.com/arran4/golang-ical"

	"tribe/internal/clock/clocktest"
	"tribe/internal/mail"
	"tribe/internal/mail/mailtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// newClock starts a test clock just after the real time: Enqueue makes a
// message due at the real time, so freshly queued mail is due on this clock.
func newClock() *clocktest.Clock { return clocktest.At(time.Now().Add(time.Second)) }

type outboxRow struct {
	Status    string
	Attempts  int
	LastError string
	Next      store.Time
	Locked    store.NullTime
	Sent      store.NullTime
}

func row(t *testing.T, db *store.DB, id string) outboxRow {
	t.Helper()
	var r outboxRow
	err := db.Read.QueryRowContext(context.Background(),
		`SELECT status, attempts, last_error, next_attempt_at, locked_until, sent_at FROM mail_outbox WHERE id = $1`, id).
		Scan(&r.Status, &r.Attempts, &r.LastError, &r.Next, &r.Locked, &r.Sent)
	if err != nil {
		t.Fatalf("read outbox row %s: %v", id, err)
	}
	return r
}

func enqueue(t *testing.T, db *store.DB, m mail.Message) string {
	t.Helper()
	id, err := mail.Enqueue(context.Background(), db.Write, m)
	if err != nil {
		t.Fatalf("enqueue: %v", err)
	}
	return id
}

func smtpSender(t *testing.T, srv *mailtest.Server) *mail.SMTPSender {
	t.Helper()
	s, err := mail.NewSMTPSender(srv.URL(), "hello@example.com", mail.WithTLSConfig(srv.ClientTLSConfig()), mail.WithTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func drain(t *testing.T, w *mail.Worker) int {
	t.Helper()
	n, err := w.Drain(context.Background())
	if err != nil {
		t.Fatalf("drain: %v", err)
	}
	return n
}

func TestDeliveryWithSTARTTLSAndAuth(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t, mailtest.WithSTARTTLS(), mailtest.WithAuth("mailer", "s3cret:/@"))
		w := mail.NewWorker(db, smtpSender(t, srv), quiet(), mail.WorkerOptions{})
		id := enqueue(t, db, mail.Compose(mail.Content{
			To: "ada@example.com", Subject: "Confirm your e-mail address", Heading: "Welcome, Ada",
			Paragraphs: []string{"Please confirm your address."},
			Button:     &mail.Link{Label: "Confirm my address", URL: "http://localhost:8080/auth/confirm?token=abc"},
		}))
		if n := drain(t, w); n != 1 {
			t.Fatalf("drain attempted %d messages, want 1", n)
		}
		got := srv.WaitFor(t, 1, 5*time.Second)[0]
		if !got.TLS || got.AuthUser != "mailer" {
			t.Errorf("TLS=%v AuthUser=%q, want an encrypted, authenticated session", got.TLS, got.AuthUser)
		}
		if got.From != "rUv <hello@example.com>" || got.EnvelopeFrom != "hello@example.com" {
			t.Errorf("From=%q envelope=%q", got.From, got.EnvelopeFrom)
		}
		if len(got.Recipients) != 1 || got.Recipients[0] != "ada@example.com" || !strings.Contains(got.To, "ada@example.com") {
			t.Errorf("recipients %v, To %q", got.Recipients, got.To)
		}
		if got.Subject != "Confirm your e-mail address" {
			t.Errorf("Subject = %q", got.Subject)
		}
		if got.MessageID != "<"+id+"@example.com>" {
			t.Errorf("Message-ID = %q, want <%s@example.com>", got.MessageID, id)
		}
		if got.ContentType != "multipart/alternative" {
			t.Errorf("content type %q, want multipart/alternative", got.ContentType)
		}
		if !strings.Contains(got.Text, "Welcome, Ada") || !strings.Contains(got.Text, "http://localhost:8080/auth/confirm?token=abc") {
			t.Errorf("text body lacks heading or link:\n%s", got.Text)
		}
		if !strings.Contains(got.HTML, `href="http://localhost:8080/auth/confirm?token=abc"`) || !strings.Contains(got.HTML, "Welcome, Ada") {
			t.Errorf("HTML body lacks heading or link:\n%s", got.HTML)
		}
		r := row(t, db, id)
		if r.Status != "sent" || r.Attempts != 1 || !r.Sent.Valid || r.Locked.Valid || r.LastError != "" {
			t.Errorf("row after delivery = %+v", r)
		}
		if n := drain(t, w); n != 0 {
			t.Errorf("second drain attempted %d messages, want 0", n)
		}
		if len(srv.Messages()) != 1 {
			t.Errorf("server received %d messages, want 1", len(srv.Messages()))
		}
	})
}

func TestSenderImplicitTLS(t *testing.T) {
	srv := mailtest.Start(t, mailtest.WithImplicitTLS(), mailtest.WithAuth("u", "p"))
	s, err := mail.NewSMTPSender(srv.URL(), "Coach <coach@example.org>", mail.WithTLSConfig(srv.ClientTLSConfig()))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), mail.Outgoing{ID: "id-1", Message: mail.Message{To: "bob@example.com", Subject: "Hi", Text: "plain only"}})
	if err != nil {
		t.Fatalf("send over smtps: %v", err)
	}
	got := srv.WaitFor(t, 1, 5*time.Second)[0]
	if !got.TLS || got.AuthUser != "u" || got.From != "Coach <coach@example.org>" || got.MessageID != "<id-1@example.org>" {
		t.Errorf("got TLS=%v auth=%q from=%q id=%q", got.TLS, got.AuthUser, got.From, got.MessageID)
	}
	if got.Text != "plain only" || got.HTML != "" {
		t.Errorf("text %q html %q", got.Text, got.HTML)
	}
}

func TestSenderWithoutTLSNeverSendsPassword(t *testing.T) {
	// A server without STARTTLS still gets mail when no login is needed...
	open := mailtest.Start(t)
	if err := smtpSender(t, open).Send(context.Background(), mail.Outgoing{ID: "x", Message: mail.Message{To: "a@example.com", Subject: "s", Text: "t"}}); err != nil {
		t.Fatalf("send without TLS: %v", err)
	}
	if got := open.WaitFor(t, 1, 5*time.Second)[0]; got.TLS {
		t.Error("session reported TLS on a server that offers none")
	}
	// ...but a password is never offered in clear text.
	authOnly := mailtest.Start(t, mailtest.WithAuth("u", "p"))
	err := smtpSender(t, authOnly).Send(context.Background(), mail.Outgoing{ID: "y", Message: mail.Message{To: "a@example.com", Subject: "s", Text: "t"}})
	if err == nil || len(authOnly.Messages()) != 0 {
		t.Fatalf("expected a failure without TLS, got err=%v and %d messages", err, len(authOnly.Messages()))
	}
}

func TestSenderWrongPasswordIsRetryable(t *testing.T) {
	srv := mailtest.Start(t, mailtest.WithSTARTTLS(), mailtest.WithAuth("u", "right"))
	s, err := mail.NewSMTPSender(strings.Replace(srv.URL(), ":right@", ":wrong@", 1), "hello@example.com", mail.WithTLSConfig(srv.ClientTLSConfig()))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), mail.Outgoing{ID: "z", Message: mail.Message{To: "a@example.com", Subject: "s", Text: "t"}})
	var perm *mail.PermanentError
	if err == nil || errors.As(err, &perm) {
		t.Fatalf("wrong password: err = %v; want a retryable error", err)
	}
}

func TestNewSMTPSenderParsesURL(t *testing.T) {
	cases := []struct{ url, from, want string }{
		{"smtp://mail.example.com", "hello@example.com", "smtp://mail.example.com:587 (STARTTLS when offered)"},
		{"smtps://mail.example.com", "hello@example.com", "smtps://mail.example.com:465 (implicit TLS)"},
		{"smtp://joe%40example.com:p%3Ass@mail.example.com:2525", "hello@example.com", "smtp://mail.example.com:2525 (STARTTLS when offered) as joe@example.com"},
	}
	for _, c := range cases {
		s, err := mail.NewSMTPSender(c.url, c.from)
		if err != nil {
			t.Fatalf("%s: %v", c.url, err)
		}
		if s.String() != c.want {
			t.Errorf("%s: String() = %q, want %q", c.url, s.String(), c.want)
		}
	}
	for _, bad := range []string{"http://mail.example.com", "smtp://", "smtp://host:99999"} {
		if _, err := mail.NewSMTPSender(bad, "hello@example.com"); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	if _, err := mail.NewSMTPSender("smtp://h", "not an address"); err == nil {
		t.Error("bad SMTP_FROM accepted")
	}
	a, _ := mail.FromAddress("hello@example.com")
	b, _ := mail.FromAddress("Team <team@example.com>")
	if a.Name != mail.SiteName || b.Name != "Team" {
		t.Errorf("display names %q and %q", a.Name, b.Name)
	}
}

func TestRetryAfterSMTPFailure(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t)
		srv.FailNext(2)
		clk := newClock()
		w := mail.NewWorker(db, smtpSender(t, srv), quiet(), mail.WorkerOptions{Now: clk.Now})
		id := enqueue(t, db, mail.Message{To: "ada@example.com", Subject: "Reset", Text: "link"})

		drain(t, w)
		r := row(t, db, id)
		if r.Status != "pending" || r.Attempts != 1 || !strings.Contains(r.LastError, "451") || r.Locked.Valid {
			t.Fatalf("after first failure: %+v", r)
		}
		if want := store.At(clk.Now().Add(30 * time.Second)); !r.Next.Equal(want.Time) {
			t.Errorf("next attempt %v, want %v (30 s backoff)", r.Next, want)
		}
		if n := drain(t, w); n != 0 {
			t.Errorf("retried %d messages before the backoff ended", n)
		}

		clk.Advance(30 * time.Second)
		drain(t, w)
		r = row(t, db, id)
		if r.Status != "pending" || r.Attempts != 2 {
			t.Fatalf("after second failure: %+v", r)
		}
		if want := store.At(clk.Now().Add(time.Minute)); !r.Next.Equal(want.Time) {
			t.Errorf("next attempt %v, want %v (backoff doubled)", r.Next, want)
		}

		clk.Advance(time.Minute)
		drain(t, w)
		r = row(t, db, id)
		if r.Status != "sent" || r.Attempts != 3 || r.LastError != "" {
			t.Fatalf("after success: %+v", r)
		}
		if srv.Failed() != 2 || len(srv.Messages()) != 1 {
			t.Errorf("server refused %d and accepted %d, want 2 and 1", srv.Failed(), len(srv.Messages()))
		}
	})
}

func TestGivesUpAfterMaxAttempts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t)
		srv.FailNext(10)
		clk := newClock()
		w := mail.NewWorker(db, smtpSender(t, srv), quiet(), mail.WorkerOptions{Now: clk.Now, MaxAttempts: 2})
		id := enqueue(t, db, mail.Message{To: "ada@example.com", Subject: "s", Text: "t"})
		drain(t, w)
		clk.Advance(time.Hour)
		drain(t, w)
		clk.Advance(time.Hour)
		if n := drain(t, w); n != 0 {
			t.Errorf("a failed message was tried again")
		}
		if r := row(t, db, id); r.Status != "failed" || r.Attempts != 2 || !strings.Contains(r.LastError, "451") {
			t.Errorf("row = %+v, want failed after 2 attempts", r)
		}
	})
}

// senderFunc adapts a function to mail.Sender.
type senderFunc func(ctx context.Context, m mail.Outgoing) error

func (f senderFunc) Send(ctx context.Context, m mail.Outgoing) error { return f(ctx, m) }

func TestPermanentFailureStopsAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		rejected := senderFunc(func(context.Context, mail.Outgoing) error {
			return &mail.PermanentError{Err: errors.New("550 no such user")}
		})
		w := mail.NewWorker(db, rejected, quiet(), mail.WorkerOptions{})
		id := enqueue(t, db, mail.Message{To: "nobody@example.com", Subject: "s", Text: "t"})
		drain(t, w)
		if r := row(t, db, id); r.Status != "failed" || r.Attempts != 1 || !strings.Contains(r.LastError, "550") {
			t.Errorf("row = %+v, want failed after one attempt", r)
		}
	})
}

func TestCrashedSendIsReclaimedAfterLease(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t)
		clk := newClock()
		w := mail.NewWorker(db, smtpSender(t, srv), quiet(), mail.WorkerOptions{Now: clk.Now, Lease: time.Minute})
		abandoned := enqueue(t, db, mail.Message{To: "a@example.com", Subject: "abandoned", Text: "t"})
		held := enqueue(t, db, mail.Message{To: "b@example.com", Subject: "held", Text: "t"})
		// A crashed worker left one message with an expired lease; another
		// live worker holds the second.
		ctx := context.Background()
		for id, until := range map[string]time.Time{abandoned: clk.Now().Add(-time.Second), held: clk.Now().Add(time.Minute)} {
			if _, err := db.Write.ExecContext(ctx, `UPDATE mail_outbox SET status = 'sending', attempts = 1, locked_until = $2 WHERE id = $1`,
				id, store.At(until)); err != nil {
				t.Fatal(err)
			}
		}
		if n := drain(t, w); n != 1 {
			t.Fatalf("drain attempted %d, want only the abandoned message", n)
		}
		got := srv.WaitFor(t, 1, 5*time.Second)
		if got[0].Subject != "abandoned" {
			t.Fatalf("delivered %q, want the abandoned message", got[0].Subject)
		}
		if r := row(t, db, abandoned); r.Status != "sent" || r.Attempts != 2 {
			t.Errorf("abandoned row = %+v", r)
		}
		if r := row(t, db, held); r.Status != "sending" || r.Attempts != 1 {
			t.Errorf("held row = %+v; a live lease must not be taken", r)
		}
		clk.Advance(2 * time.Minute)
		if n := drain(t, w); n != 1 {
			t.Fatalf("after its lease ended, drain attempted %d, want 1", n)
		}
		if r := row(t, db, held); r.Status != "sent" {
			t.Errorf("held row after lease = %+v", r)
		}
	})
}

// twoInstances opens the same fresh database twice, as two server processes would.
func twoInstances(t *testing.T, fn func(t *testing.T, a, b *store.DB)) {
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			url, dir := e.New(t)
			fn(t, storetest.Open(t, url, dir), storetest.Open(t, url, dir))
		})
	}
}

func TestTwoWorkersSendEachMessageOnce(t *testing.T) {
	twoInstances(t, func(t *testing.T, a, b *store.DB) {
		srv := mailtest.Start(t)
		const n = 24
		ids := map[string]bool{}
		for i := range n {
			db := a
			if i%2 == 1 {
				db = b
			}
			ids[enqueue(t, db, mail.Message{To: "member@example.com", Subject: "hello", Text: "t"})] = true
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		var mu sync.Mutex
		perWorker := map[string]int{}
		for name, db := range map[string]*store.DB{"a": a, "b": b} {
			inner := smtpSender(t, srv)
			counting := senderFunc(func(ctx context.Context, m mail.Outgoing) error {
				mu.Lock()
				perWorker[name]++
				mu.Unlock()
				return inner.Send(ctx, m)
			})
			w := mail.NewWorker(db, counting, quiet(), mail.WorkerOptions{Poll: 5 * time.Millisecond})
			wg.Go(func() { w.Run(ctx) })
		}
		srv.WaitFor(t, n, 20*time.Second)
		cancel()
		wg.Wait()
		seen := map[string]int{}
		for _, m := range srv.Messages() {
			seen[m.MessageID]++
		}
		if len(srv.Messages()) != n || len(seen) != n {
			t.Fatalf("server received %d messages with %d distinct ids, want %d each", len(srv.Messages()), len(seen), n)
		}
		for id := range ids {
			if seen["<"+id+"@example.com>"] != 1 {
				t.Errorf("message %s received %d times", id, seen["<"+id+"@example.com>"])
			}
			if r := row(t, a, id); r.Status != "sent" || r.Attempts != 1 {
				t.Errorf("row %s = %+v", id, r)
			}
		}
		t.Logf("deliveries per worker: %v", perWorker)
	})
}

func TestRestartDeliversPending(t *testing.T) {
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			url, dir := e.New(t)
			srv := mailtest.Start(t)

			// First life: one message fails once, another is queued while the
			// worker is down, then the process goes away.
			first := storetest.Open(t, url, dir)
			// The clock starts once the database is migrated: mail is queued
			// due at the real time, which must not be ahead of it.
			clk := newClock()
			srv.FailNext(1)
			retried := enqueue(t, first, mail.Message{To: "a@example.com", Subject: "retried", Text: "t"})
			drain(t, mail.NewWorker(first, smtpSender(t, srv), quiet(), mail.WorkerOptions{Now: clk.Now}))
			queued := enqueue(t, first, mail.Message{To: "b@example.com", Subject: "queued", Text: "t"})
			if err := first.Close(); err != nil {
				t.Fatal(err)
			}

			// Second life, after the backoff: a new worker on a new connection.
			clk.Advance(time.Minute)
			second := storetest.Open(t, url, dir)
			if n := drain(t, mail.NewWorker(second, smtpSender(t, srv), quiet(), mail.WorkerOptions{Now: clk.Now})); n != 2 {
				t.Fatalf("after restart, drain attempted %d, want 2", n)
			}
			if len(srv.Messages()) != 2 {
				t.Fatalf("server received %d messages, want 2", len(srv.Messages()))
			}
			for _, id := range []string{retried, queued} {
				if r := row(t, second, id); r.Status != "sent" {
					t.Errorf("row %s = %+v", id, r)
				}
			}
		})
	}
}

func TestRunKickAndShutdownWaitsForSend(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		started := make(chan string, 1)
		release := make(chan struct{}, 2)
		slow := senderFunc(func(ctx context.Context, m mail.Outgoing) error {
			started <- m.ID
			select {
			case <-release:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		waitStarted := func(want string) {
			t.Helper()
			select {
			case got := <-started:
				if got != want {
					t.Fatalf("sent %s, want %s", got, want)
				}
			case <-time.After(3 * time.Second):
				t.Fatal("the worker did not start the send")
			}
		}
		// A poll of an hour: after its first pass only Kick can wake the worker.
		w := mail.NewWorker(db, slow, quiet(), mail.WorkerOptions{Poll: time.Hour})
		first := enqueue(t, db, mail.Message{To: "a@example.com", Subject: "first", Text: "t"})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { w.Run(ctx); close(done) }()
		waitStarted(first)
		release <- struct{}{}
		for deadline := time.Now().Add(3 * time.Second); row(t, db, first).Status != "sent"; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("first message not recorded as sent")
			}
		}
		time.Sleep(50 * time.Millisecond) // the first pass ends and the worker sleeps

		second := enqueue(t, db, mail.Message{To: "b@example.com", Subject: "second", Text: "t"})
		w.Kick()
		waitStarted(second)
		cancel()
		select {
		case <-done:
			t.Fatal("Run returned while a send was in flight")
		case <-time.After(100 * time.Millisecond):
		}
		release <- struct{}{}
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatal("Run did not return after the send finished")
		}
		if r := row(t, db, second); r.Status != "sent" {
			t.Errorf("row after shutdown = %+v, want sent", r)
		}
	})
}

func TestDevelopmentSenderLogsAndMarksSent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var buf bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&buf, nil))
		sender, err := mail.NewSender("", "hello@example.com", logger)
		if err != nil {
			t.Fatal(err)
		}
		id := enqueue(t, db, mail.Message{To: "ada@example.com", Subject: "Your reset link", Text: "Open http://localhost/reset?token=xyz"})
		drain(t, mail.NewWorker(db, sender, logger, mail.WorkerOptions{}))
		if r := row(t, db, id); r.Status != "sent" {
			t.Errorf("row = %+v, want sent", r)
		}
		for _, want := range []string{"ada@example.com", "Your reset link", "token=xyz"} {
			if !strings.Contains(buf.String(), want) {
				t.Errorf("log lacks %q:\n%s", want, buf.String())
			}
		}
	})
}

func TestEnqueueRejectsBadInput(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, m := range []mail.Message{
			{To: "not an address", Subject: "s", Text: "t"},
			{To: "a@example.com\r\nBcc: victim@example.com", Subject: "s", Text: "t"},
			{To: "a@example.com", Subject: " ", Text: "t"},
			{To: "a@example.com", Subject: "s", Text: ""},
		} {
			if _, err := mail.Enqueue(ctx, db.Write, m); err == nil {
				t.Errorf("Enqueue(%+v) succeeded", m)
			}
		}
		list, err := mail.List(ctx, db, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 0 {
			t.Errorf("rejected messages left %d rows", len(list))
		}
	})
}

func TestListAndGet(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		older := enqueue(t, db, mail.Message{To: "a@example.com", Subject: "older", Text: "t"})
		if _, err := db.Write.ExecContext(ctx, `UPDATE mail_outbox SET created_at = $2 WHERE id = $1`, older, store.At(time.Now().Add(-time.Hour))); err != nil {
			t.Fatal(err)
		}
		newer := enqueue(t, db, mail.Message{To: "b@example.com", Subject: "newer", Text: "t", HTML: "<p>t</p>"})
		list, err := mail.List(ctx, db, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 || list[0].ID != newer || list[1].ID != older {
			t.Fatalf("list = %+v, want newest first", list)
		}
		got, err := mail.Get(ctx, db, newer)
		if err != nil || got.HTML != "<p>t</p>" || got.Status != "pending" || got.To != "b@example.com" {
			t.Errorf("Get = %+v, %v", got, err)
		}
		if _, err := mail.Get(ctx, db, "missing"); !errors.Is(err, mail.ErrNotFound) {
			t.Errorf("Get(missing) err = %v, want ErrNotFound", err)
		}
	})
}

func TestComposeEscapesHTML(t *testing.T) {
	m := mail.Compose(mail.Content{
		To: "a@example.com", Subject: "Hi <b>there</b>",
		Heading:    `<script>alert("x")</script>`,
		Paragraphs: []string{"Tom & Jerry <img src=x onerror=alert(1)>"},
		Button:     &mail.Link{Label: "Go <now>", URL: "javascript:alert(1)"},
		Footer:     "<i>small</i>",
	})
	for _, bad := range []string{"<script>", "<img", `href="javascript:`, "<i>small", "<b>there"} {
		if strings.Contains(m.HTML, bad) {
			t.Errorf("HTML contains unescaped %q", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;", "Tom &amp; Jerry", "Go &lt;now&gt;", "&lt;i&gt;small&lt;/i&gt;", "rUv"} {
		if !strings.Contains(m.HTML, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	// The plain-text body carries the same words unescaped.
	for _, want := range []string{`<script>alert("x")</script>`, "Tom & Jerry", "Go <now>:\njavascript:alert(1)", "<i>small</i>", "— rUv"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	if m.To != "a@example.com" || m.Subject != "Hi <b>there</b>" {
		t.Errorf("To/Subject = %q/%q", m.To, m.Subject)
	}
	ok := mail.Compose(mail.Content{To: "a@example.com", Subject: "s", Button: &mail.Link{Label: "Open", URL: "https://example.com/a?b=1&c=2"}})
	if !strings.Contains(ok.HTML, `href="https://example.com/a?b=1&amp;c=2"`) {
		t.Errorf("HTML lost the https link:\n%s", ok.HTML)
	}
}

func TestSendGivesUpWhenContextEnds(t *testing.T) {
	// A server that accepts the connection and never greets.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { _ = c.Close() })
		}
	}()
	s, err := mail.NewSMTPSender("smtp://"+ln.Addr().String(), "hello@example.com", mail.WithTimeout(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = s.Send(ctx, mail.Outgoing{ID: "x", Message: mail.Message{To: "a@example.com", Subject: "s", Text: "t"}})
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("Send = %v after %s; want an error soon after the context ends", err, time.Since(start))
	}
}

func TestSenderRejectsUntrustedCertificate(t *testing.T) {
	srv := mailtest.Start(t, mailtest.WithSTARTTLS())
	s, err := mail.NewSMTPSender(srv.URL(), "hello@example.com") // system roots only
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), mail.Outgoing{ID: "c", Message: mail.Message{To: "a@example.com", Subject: "s", Text: "t"}})
	if err == nil || len(srv.Messages()) != 0 {
		t.Fatalf("a self-signed certificate was accepted: err=%v, %d messages", err, len(srv.Messages()))
	}
}

// A calendar invitation must arrive as its own part with the iTIP method in
// its media type, or mail clients show a file instead of an invitation; the
// file must survive the trip byte for byte and parse as iCalendar.
func TestInvitationAttachmentArrivesAsTextCalendar(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t, mailtest.WithSTARTTLS())
		w := mail.NewWorker(db, smtpSender(t, srv), quiet(), mail.WorkerOptions{})
		ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\n" +
			"UID:booking-1@example.com\r\nSEQUENCE:1\r\nDTSTAMP:20260301T100000Z\r\nDTSTART:20260302T140000Z\r\n" +
			"DTEND:20260302T143000Z\r\nSUMMARY:Call with Zoë\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
		m := mail.Compose(mail.Content{To: "ada@example.com", Subject: "Your call", Paragraphs: []string{"See you."}})
		m.Attachments = []mail.Attachment{{Filename: "invite.ics", ContentType: "text/calendar; method=REQUEST; charset=UTF-8", Data: []byte(ics)}}
		enqueue(t, db, m)
		drain(t, w)
		got := srv.WaitFor(t, 1, 5*time.Second)[0]
		if got.ContentType != "multipart/mixed" || !strings.Contains(got.Text, "See you.") || got.HTML == "" {
			t.Fatalf("content type %q, text %q: want mixed with the text and HTML bodies", got.ContentType, got.Text)
		}
		if len(got.Attachments) != 1 {
			t.Fatalf("%d attachments, want 1", len(got.Attachments))
		}
		a := got.Attachments[0]
		media, params, err := mime.ParseMediaType(a.ContentType)
		if err != nil || media != "text/calendar" || params["method"] != "REQUEST" || a.Filename != "invite.ics" {
			t.Errorf("attachment %q named %q (%v): want text/calendar with method=REQUEST named invite.ics", a.ContentType, a.Filename, err)
		}
		if string(a.Data) != ics {
			t.Errorf("attachment changed on the way:\n%q\nwant\n%q", a.Data, ics)
		}
		cal, err := ical.ParseCalendar(bytes.NewReader(a.Data))
		if err != nil {
			t.Fatalf("parse the invitation: %v", err)
		}
		ev := cal.Events()
		if len(ev) != 1 || ev[0].GetProperty(ical.ComponentPropertySummary).Value != "Call with Zoë" {
			t.Errorf("events %v", ev)
		}
	})
}

func TestEnqueueRefusesBadAttachments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		for _, a := range []mail.Attachment{
			{Filename: "", ContentType: "text/calendar", Data: []byte("x")},
			{Filename: "a/b.ics", ContentType: "text/calendar", Data: []byte("x")},
			{Filename: "a.ics\r\nBcc: x@example.com", ContentType: "text/calendar", Data: []byte("x")},
			{Filename: "a.ics", ContentType: "not a type;;", Data: []byte("x")},
		} {
			m := mail.Message{To: "a@example.com", Subject: "s", Text: "t", Attachments: []mail.Attachment{a}}
			if _, err := mail.Enqueue(context.Background(), db.Write, m); err == nil {
				t.Errorf("attachment %+v accepted", a)
			}
		}
		var n int
		if err := db.Read.QueryRow(`SELECT COUNT(*) FROM mail_outbox`).Scan(&n); err != nil || n != 0 {
			t.Errorf("outbox holds %d messages (%v), want 0", n, err)
		}
	})
}

// Planned mail (a booking's reminder) is planned by every instance that
// sees it due; the key lets exactly one of them queue it, and dropping
// the plan removes what was not sent yet.
func TestPlannedMailIsQueuedOnceByConcurrentPlanners(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var wg sync.WaitGroup
		var mu sync.Mutex
		queued := 0
		for range 20 {
			wg.Go(func() {
				ok, err := mail.EnqueueOnce(ctx, db.Write, "booking-reminder-b1-24h-20260302T140000Z",
					mail.Message{To: "ada@example.com", Subject: "Tomorrow", Text: "See you."})
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					queued++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if queued != 1 {
			t.Fatalf("%d planners queued the reminder, want 1", queued)
		}
		if _, err := mail.EnqueueOnce(ctx, db.Write, "booking-reminder-b2-24h-20260302T140000Z",
			mail.Message{To: "bo@example.com", Subject: "Tomorrow", Text: "See you."}); err != nil {
			t.Fatal(err)
		}
		n, err := mail.DropPlanned(ctx, db.Write, "booking-reminder-b1-")
		if err != nil || n != 1 {
			t.Fatalf("dropped %d (%v), want 1", n, err)
		}
		var left string
		if err := db.Read.QueryRow(`SELECT to_addr FROM mail_outbox`).Scan(&left); err != nil || left != "bo@example.com" {
			t.Errorf("left %q (%v): the other booking's reminder must stay", left, err)
		}
		// A plan dropped can be made again (the booking moved back).
		ok, err := mail.EnqueueOnce(ctx, db.Write, "booking-reminder-b1-24h-20260302T140000Z",
			mail.Message{To: "ada@example.com", Subject: "Tomorrow", Text: "See you."})
		if err != nil || !ok {
			t.Errorf("planned again: %v %v", ok, err)
		}
	})
}
