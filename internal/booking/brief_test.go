package booking

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/kb"
	"tribe/internal/mail"
	"tribe/internal/mail/mailtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// seedMember makes an account with an active membership in a cohort.
func seedMember(t *testing.T, db *store.DB, email, cohort string) {
	t.Helper()
	ctx := context.Background()
	id, cid := store.NewID(), store.NewID()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $2, 'x')`, []any{id, email}},
		{`INSERT INTO subscriptions (user_id, status) VALUES ($1, 'active')`, []any{id}},
		{`INSERT INTO cohorts (id, name) VALUES ($1, $2)`, []any{cid, cohort}},
		{`INSERT INTO cohort_members (id, cohort_id, user_id) VALUES ($1, $2, $3)`, []any{store.NewID(), cid, id}},
	} {
		if _, err := db.Write.ExecContext(ctx, q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
}

// fakeWriter stands in for the model.
type fakeWriter struct {
	calls int
	err   error
	mu    sync.Mutex
}

func (f *fakeWriter) WriteBrief(_ context.Context, facts string) (BriefNotes, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.err != nil {
		return BriefNotes{}, f.err
	}
	return BriefNotes{Summary: "Ada wants help with agent memory.", Questions: []string{"What have you tried?", "Which model?", "What does success look like?"}}, nil
}

// An owner who walks into a paid call cold wastes its first minutes on who
// the person is; a brief sent twice (two instances) or never (a planner
// that forgot it) is noise or nothing. Two instances planning at the
// reminder's moment queue one brief per booking, delivered over SMTP to
// the owner, with who is coming (a member, their cohort and level), their
// earlier booking and its notes, what they wrote now and the related
// knowledge-base passage; offline, nothing in it claims to be the model's.
func TestBriefReachesTheOwnerOnceWithMemberFactsHistoryAndPassagesOffline(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		k := kb.New(db, kb.Options{})
		if _, err := k.Create(ctx, kb.Input{Title: "Agent memory patterns", Content: "Long-term memory for agents: episodic stores, summaries and retrieval with evaluation."}); err != nil {
			t.Fatal(err)
		}
		seedMember(t, db, "ada@example.com", "Agents Guild")
		a, clock := newService(t, db, false)
		WithBriefs(k, nil)(a)
		b := New(db, Config{Site: site, OwnerEmail: "owner@example.com", BaseURL: "https://ruv.example"}, WithClock(clock.Now), WithBriefs(k, nil))

		first := req("session-30", at(2026, time.January, 6, 10, 0), "ada@example.com")
		first.Notes = "Evaluating retrieval quality."
		next := req("session-30", at(2026, time.January, 8, 10, 0), "ada@example.com")
		next.Notes = "Agent memory: what to keep and for how long."
		for _, r := range []Request{first, next} {
			if _, err := a.ConfirmRequest(ctx, book(t, a, r).Booking.ID); err != nil {
				t.Fatal(err)
			}
		}
		clock.Set(at(2026, time.January, 8, 10, 0).Add(-24 * time.Hour))
		for range 2 {
			var wg sync.WaitGroup
			for _, s := range []*Service{a, b} {
				wg.Go(func() {
					if _, err := s.PlanReminders(ctx); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE idempotency_key LIKE 'booking-brief-%'`); n != 1 {
			t.Fatalf("%d briefs queued, want 1", n)
		}

		smtp := mailtest.Start(t)
		sender, err := mail.NewSMTPSender(smtp.URL(), "hello@ruv.example")
		if err != nil {
			t.Fatal(err)
		}
		w := mail.NewWorker(db, sender, slog.New(slog.NewTextHandler(io.Discard, nil)), mail.WorkerOptions{})
		if _, err := w.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		var brief *mailtest.Received
		for _, m := range smtp.WaitFor(t, 4, 10*time.Second) {
			if strings.HasPrefix(m.Subject, "Brief:") {
				brief = &m
			}
		}
		if brief == nil || !strings.Contains(brief.To, "owner@example.com") || !strings.Contains(brief.Subject, "Ada Lovelace") {
			t.Fatalf("brief = %+v", brief)
		}
		text := strings.Join(strings.Fields(brief.Text), " ")
		for _, want := range []string{
			"Tribe member, cohort Agents Guild, level Apprentice",
			"Earlier bookings (1, latest first)", "Evaluating retrieval quality.",
			"What they wrote when booking: “Agent memory: what to keep and for how long.”",
			"Related in the knowledge base", "Agent memory patterns",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("brief lacks %q:\n%s", want, brief.Text)
			}
		}
		if strings.Contains(text, "AI model") {
			t.Errorf("an offline brief claims the model's words:\n%s", brief.Text)
		}
	})
}

// With a model the brief carries its summary and three questions, each
// labelled as the model's; a model that fails leaves the facts to go out
// on time rather than holding the brief back.
func TestBriefLabelsTheModelsSummaryAndQuestionsAndGoesWithoutThemWhenItFails(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		good, bad := &fakeWriter{}, &fakeWriter{err: errors.New("model down")}
		for _, c := range []struct {
			w     *fakeWriter
			email string
			day   int
		}{{good, "guest@example.com", 8}, {bad, "other@example.com", 9}} {
			s, clock := newService(t, db, false)
			WithBriefs(nil, c.w)(s)
			start := at(2026, time.January, c.day, 10, 0)
			if _, err := s.ConfirmRequest(ctx, book(t, s, req("session-60", start, c.email)).Booking.ID); err != nil {
				t.Fatal(err)
			}
			clock.Set(start.Add(-24 * time.Hour))
			if _, err := s.PlanReminders(ctx); err != nil {
				t.Fatal(err)
			}
		}
		rows, err := db.Read.QueryContext(ctx, `SELECT text_body FROM mail_outbox WHERE idempotency_key LIKE 'booking-brief-%' ORDER BY created_at`)
		if err != nil {
			t.Fatal(err)
		}
		var bodies []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			bodies = append(bodies, strings.Join(strings.Fields(s), " "))
		}
		_ = rows.Close()
		if len(bodies) != 2 {
			t.Fatalf("%d briefs", len(bodies))
		}
		for _, want := range []string{"Summary (written by the AI model; check it against the facts above): Ada wants help",
			"Suggested questions (written by the AI model): 1. What have you tried? 2. Which model? 3. What does success look like?",
			"No account on the site."} {
			if !strings.Contains(bodies[0], want) {
				t.Errorf("brief with the model lacks %q:\n%s", want, bodies[0])
			}
		}
		if strings.Contains(bodies[1], "AI model") || !strings.Contains(bodies[1], "What they wrote when booking") {
			t.Errorf("brief after the model failed:\n%s", bodies[1])
		}
	})
}
