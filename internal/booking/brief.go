package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/billing"
	"tribe/internal/content"
	"tribe/internal/kb"
	"tribe/internal/levels"
	"tribe/internal/mail"
	"tribe/internal/store"
)

// A brief before every session: with the 24-hour reminder the owner gets,
// per booking, who is coming (and whether they are a tribe member, their
// cohort and level), their earlier bookings and what they wrote then, what
// they wrote this time, and the knowledge-base passages most related to it.
// With a language model configured, a short summary and three suggested
// questions are added, labelled as written by the model; without one, or
// when the model fails, the brief is the facts and passages alone.
//
// The brief is made before the reminders' transaction (a model call may
// take many seconds, and the booking lock must not wait for it) and queued
// inside it under its own outbox key, so it goes out exactly once across
// instances and restarts, with the reminder it belongs to.

// BriefWriter writes the model's part of a brief from its facts.
type BriefWriter interface {
	WriteBrief(ctx context.Context, facts string) (BriefNotes, error)
}

// BriefNotes is the model's part of a brief.
type BriefNotes struct {
	Summary   string
	Questions []string
}

// briefConfig is what briefs draw on besides the bookings.
type briefConfig struct {
	kb     *kb.Service // nil: no passages
	writer BriefWriter // nil: offline
}

// WithBriefs gives the brief its knowledge base and, when a model is
// configured, its writer (nil for none).
func WithBriefs(k *kb.Service, w BriefWriter) Option {
	return func(s *Service) { s.brief = briefConfig{kb: k, writer: w} }
}

// briefWriteTimeout bounds the model's part; past it the brief goes without.
const briefWriteTimeout = 45 * time.Second

func briefPrefix(bookingID string) string { return "booking-brief-" + bookingID + "-" }

// briefKey names the brief of a booking at its start: a moved booking gets
// a brief for its new time (the one for the old time is dropped unsent).
func briefKey(b *Booking) string {
	return fmt.Sprintf("%s%d", briefPrefix(b.ID), b.Start.Unix())
}

// briefQueued reports whether the brief of b is already in the outbox, so a
// second planner does not ask the model again for nothing.
func (s *Service) briefQueued(ctx context.Context, b *Booking) bool {
	var n int
	err := s.db.ReadRow(ctx, `SELECT COUNT(*) FROM mail_outbox WHERE idempotency_key = $1`, briefKey(b)).Scan(&n)
	return err == nil && n > 0
}

// memberFacts says who the booker is on the site.
type memberFacts struct {
	account  bool
	member   bool
	status   string
	cohort   string
	level    string
	attended int
}

func (s *Service) memberOf(ctx context.Context, b *Booking) (memberFacts, error) {
	var f memberFacts
	userID := b.UserID
	if userID == "" {
		err := s.db.ReadRow(ctx, `SELECT u.id FROM users u WHERE u.email_normalized =
			(SELECT email_normalized FROM bookings WHERE id = $1)`, b.ID).Scan(&userID)
		if errors.Is(err, sql.ErrNoRows) {
			return f, nil
		}
		if err != nil {
			return f, fmt.Errorf("brief: find account: %w", err)
		}
	}
	f.account = true
	sub, err := billing.SubscriptionOf(ctx, s.db, userID)
	if err != nil {
		return f, fmt.Errorf("brief: membership: %w", err)
	}
	if sub != nil {
		f.member, f.status = sub.Active(), sub.Status
		if sub.Complimentary {
			f.status = "complimentary"
		}
	}
	err = s.db.ReadRow(ctx, `SELECT c.name FROM cohort_members m JOIN cohorts c ON c.id = m.cohort_id WHERE m.user_id = $1`, userID).Scan(&f.cohort)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return f, fmt.Errorf("brief: cohort: %w", err)
	}
	p, err := levels.New(s.db, levels.WithClock(s.now)).ProgressOf(ctx, userID)
	if err != nil {
		return f, fmt.Errorf("brief: level: %w", err)
	}
	f.level, f.attended = p.Level, p.Attended
	return f, nil
}

// earlier is one of the booker's earlier bookings.
type earlier struct {
	typ, status, notes string
	start              time.Time
}

func (s *Service) earlierBookings(ctx context.Context, b *Booking) ([]earlier, error) {
	rows, err := s.db.ReadRows(ctx, `SELECT type_id, status, start_at, notes FROM bookings
		WHERE email_normalized = (SELECT email_normalized FROM bookings WHERE id = $1) AND id <> $1 AND start_at < $2
		AND status IN ('confirmed', 'completed', 'no_show', 'cancelled', 'declined')
		ORDER BY start_at DESC LIMIT 5`, b.ID, store.At(b.Start))
	if err != nil {
		return nil, fmt.Errorf("brief: earlier bookings: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []earlier
	for rows.Next() {
		var (
			e  earlier
			at store.Time
		)
		if err := rows.Scan(&e.typ, &e.status, &at, &e.notes); err != nil {
			return nil, fmt.Errorf("brief: earlier bookings: %w", err)
		}
		e.start = at.Time
		out = append(out, e)
	}
	return out, rows.Err()
}

// briefPassage is a knowledge-base passage related to the booking.
type briefPassage struct{ title, source, text string }

func (s *Service) passages(ctx context.Context, b *Booking) []briefPassage {
	if s.brief.kb == nil {
		return nil
	}
	q := strings.TrimSpace(b.Notes)
	if q == "" {
		q = s.typeName(b.Type)
	}
	res, err := s.brief.kb.Search(ctx, clip(q, 400), 3)
	if err != nil {
		s.log.WarnContext(ctx, "booking: brief without passages", "booking", b.ID, "err", err)
		return nil
	}
	var out []briefPassage
	for _, r := range res.Results {
		out = append(out, briefPassage{title: r.Metadata.Title, source: r.Metadata.Source, text: clip(oneLine(r.Content), 400)})
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip cuts s to at most n characters on a character boundary.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}

// briefFor makes the owner's brief of b, or nil when it is already queued.
// Parts that fail (the knowledge base, the model) are left out rather than
// holding up the reminder; only the facts are needed.
func (s *Service) briefFor(ctx context.Context, b *Booking, st Settings) (*mail.Message, error) {
	if s.briefQueued(ctx, b) {
		return nil, nil
	}
	who, err := s.memberOf(ctx, b)
	if err != nil {
		return nil, err
	}
	past, err := s.earlierBookings(ctx, b)
	if err != nil {
		return nil, err
	}
	passages := s.passages(ctx, b)

	what := s.typeName(b.Type)
	var facts []string
	facts = append(facts, "When: "+When(b.Start, st.TimeZone)+" ("+what+").")
	facts = append(facts, "Who: "+b.Name+" <"+b.Email+">. "+who.describe())
	if len(past) == 0 {
		facts = append(facts, "Earlier bookings: none; this is their first.")
	} else {
		lines := []string{fmt.Sprintf("Earlier bookings (%d, latest first):", len(past))}
		for _, e := range past {
			line := "• " + e.start.In(zoneOr(st.TimeZone)).Format("Mon 2 Jan 2006") + ", " + s.typeName(e.typ) + ", " + strings.ReplaceAll(e.status, "_", "-")
			if e.notes != "" {
				line += ". They wrote: “" + clip(oneLine(e.notes), 300) + "”"
			}
			lines = append(lines, line)
		}
		facts = append(facts, strings.Join(lines, "\n"))
	}
	if b.Notes != "" {
		facts = append(facts, "What they wrote when booking: “"+b.Notes+"”")
	} else {
		facts = append(facts, "What they wrote when booking: nothing.")
	}
	var related []string
	if len(passages) > 0 {
		lines := []string{"Related in the knowledge base:"}
		for _, p := range passages {
			line := "• " + p.title
			if src := s.sourceLink(p.source); src != "" {
				line += " (" + src + ")"
			}
			lines = append(lines, line+": "+p.text)
		}
		related = append(related, strings.Join(lines, "\n"))
	}

	paragraphs := append(append([]string{}, facts...), related...)
	if s.brief.writer != nil {
		wctx, cancel := context.WithTimeout(ctx, briefWriteTimeout)
		notes, err := s.brief.writer.WriteBrief(wctx, strings.Join(paragraphs, "\n\n"))
		cancel()
		switch {
		case err != nil:
			s.log.WarnContext(ctx, "booking: brief without the model's notes", "booking", b.ID, "err", err)
		case notes.Summary != "" || len(notes.Questions) > 0:
			if notes.Summary != "" {
				paragraphs = append(paragraphs, "Summary (written by the AI model; check it against the facts above): "+clip(notes.Summary, 1200))
			}
			if len(notes.Questions) > 0 {
				lines := []string{"Suggested questions (written by the AI model):"}
				for i, q := range notes.Questions {
					lines = append(lines, fmt.Sprintf("%d. %s", i+1, clip(q, 300)))
				}
				paragraphs = append(paragraphs, strings.Join(lines, "\n"))
			}
		}
	}
	m := mail.Compose(mail.Content{
		To:         st.OwnerEmail,
		Subject:    "Brief: " + what + " with " + b.Name + " " + briefWhen(b.Start, s.now(), st.TimeZone),
		Heading:    "Before your " + what + " with " + b.Name,
		Paragraphs: paragraphs,
		Footer:     "Sent with the 24-hour reminder of each booking, or with its confirmation when it was booked less than 24 hours ahead. Only you receive it.",
	})
	return &m, nil
}

// briefWhen names the day of a call for the brief's subject: "today" or
// "tomorrow" on the owner's calendar, else its date.
func briefWhen(start, now time.Time, zone string) string {
	loc := zoneOr(zone)
	d := func(t time.Time) string { return t.In(loc).Format(time.DateOnly) }
	switch d(start) {
	case d(now):
		return "today"
	case d(now.AddDate(0, 0, 1)):
		return "tomorrow"
	}
	return "on " + start.In(loc).Format("Mon 2 Jan")
}

func (f memberFacts) describe() string {
	switch {
	case !f.account:
		return "No account on the site."
	case !f.member:
		s := "Has an account; not a tribe member"
		if f.status != "" {
			s += " (membership " + f.status + ")"
		}
		return s + "."
	}
	s := "Tribe member"
	if f.status == "complimentary" {
		s += " (complimentary)"
	}
	if f.cohort != "" {
		s += ", cohort " + f.cohort
	} else {
		s += ", no cohort"
	}
	if f.level != "" {
		s += fmt.Sprintf(", level %s (%d live sessions attended)", f.level, f.attended)
	}
	return s + "."
}

// sourceLink is a passage's source as a link the owner can open, or "".
func (s *Service) sourceLink(src string) string {
	switch {
	case strings.HasPrefix(src, "https://") || strings.HasPrefix(src, "http://"):
		return src
	case strings.HasPrefix(src, "/"):
		return strings.TrimRight(s.baseURL, "/") + src
	}
	return ""
}

func zoneOr(name string) *time.Location {
	if loc, err := content.LoadZone(name); err == nil {
		return loc
	}
	return time.UTC
}
