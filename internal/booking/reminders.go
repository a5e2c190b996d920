package booking

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"tribe/internal/mail"
	"tribe/internal/store"
)

// Reminders go to the booker (with the meeting link) and the owner 24 hours
// and 1 hour before a confirmed call, in elapsed time: across a clock change
// the 24-hour reminder comes at a different reading of the clock than the
// call, but exactly 24 hours before it.
//
// They are planned, not scheduled: PlanReminders, run by the worker loop on
// every instance, queues each reminder once it is due, under an outbox key
// naming the booking, the reminder, the call's start and the recipient, so
// that every instance and every restart queues it once between them. A
// move changes the start, and so the key: the reminder is planned again for
// the new time. Cancelling or moving drops what was queued and not sent
// (notify), and the planner runs under the booking lock, so it never
// queues a reminder for a booking being cancelled at the same moment.

// A reminder: how long before the call, and its name in the key.
type reminder struct {
	kind string
	lead time.Duration
}

var reminders = []reminder{{"24h", 24 * time.Hour}, {"1h", time.Hour}}

func reminderPrefix(bookingID string) string { return "booking-reminder-" + bookingID + "-" }

func reminderKey(b *Booking, r reminder, who string) string {
	return fmt.Sprintf("%s%s-%d-%s", reminderPrefix(b.ID), r.kind, b.Start.Unix(), who)
}

// PlanReminders queues the reminders that are due and returns how many it
// queued. A reminder is due from its time until the next one's (the
// 24-hour one until an hour before, the 1-hour one until the start); one
// whose time had passed when the booking was made is skipped, since the
// confirmation just went out.
func (s *Service) PlanReminders(ctx context.Context) (int, error) {
	now := s.now()
	rows, err := s.db.ReadRows(ctx, `SELECT `+bookingColumns+` FROM bookings
		WHERE status = 'confirmed' AND start_at > $1 AND start_at <= $2 ORDER BY start_at`,
		store.At(now), store.At(now.Add(reminders[0].lead)))
	if err != nil {
		return 0, fmt.Errorf("plan reminders: %w", err)
	}
	var due []*Booking
	for rows.Next() {
		b, err := scanBooking(rows)
		if err != nil {
			_ = rows.Close()
			return 0, fmt.Errorf("plan reminders: %w", err)
		}
		due = append(due, b)
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("plan reminders: %w", err)
	}
	if len(due) == 0 {
		return 0, nil
	}
	st, _, err := s.settings(ctx)
	if err != nil {
		return 0, err
	}
	queued := 0
	for _, seen := range due {
		r, remind := dueReminder(seen, now)
		// brief.go: with the 24-hour reminder, or, for a booking made less
		// than 24 hours ahead, on the first planning after its confirmation.
		brief, err := s.briefFor(ctx, seen, st)
		if err != nil {
			return queued, wrap("plan reminders", err)
		}
		if !remind && brief == nil {
			continue
		}
		err = s.write(ctx, now, func(tx *sql.Tx) error {
			// Read again under the lock: a cancel or a move that committed
			// since is seen, and one that comes later drops what is queued.
			b, err := loadBooking(ctx, tx.QueryRowContext, seen.ID)
			if err != nil {
				return err
			}
			if b.Status != StatusConfirmed || !b.Start.Equal(seen.Start) {
				return nil
			}
			var mails []addressed
			if remind {
				mails = s.reminderMails(b, st, r)
			}
			for _, msg := range mails {
				key := msg.key
				if key == "" {
					key = reminderKey(b, r, msg.who)
				}
				ok, err := mail.EnqueueOnce(ctx, tx, key, msg.Message)
				if err != nil {
					return err
				}
				if ok {
					queued++
				}
			}
			if brief != nil {
				if _, err := mail.EnqueueOnce(ctx, tx, briefKey(b), *brief); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return queued, wrap("plan reminders", err)
		}
	}
	return queued, nil
}

// dueReminder is the reminder of b due at now, if any.
func dueReminder(b *Booking, now time.Time) (reminder, bool) {
	for i, r := range reminders {
		at := b.Start.Add(-r.lead)
		until := b.Start
		if i+1 < len(reminders) {
			until = b.Start.Add(-reminders[i+1].lead)
		}
		if !now.Before(at) && now.Before(until) && !b.CreatedAt.After(at) {
			return r, true
		}
	}
	return reminder{}, false
}

type addressed struct {
	who string
	key string // the outbox key when not the booking's own (a group training's one owner reminder)
	mail.Message
}

func (s *Service) reminderMails(b *Booking, st Settings, r reminder) []addressed {
	in := "tomorrow"
	if r.lead == time.Hour {
		in = "in an hour"
	}
	what := s.typeName(b.Type)
	booker := []string{"When: " + When(b.Start, b.TimeZone) + "."}
	if b.MeetingLink != "" {
		booker = append(booker, "Join the call here: "+b.MeetingLink)
	} else {
		booker = append(booker, noRoomLine(st.OwnerName))
	}
	if b.Notes != "" {
		booker = append(booker, "What you would like to cover: "+b.Notes)
	}
	owner := []string{
		"Who: " + b.Name + " <" + b.Email + ">",
		"When: " + When(b.Start, st.TimeZone) + ".",
	}
	if b.Notes != "" {
		owner = append(owner, "What they would like to cover: "+b.Notes)
	}
	if b.MeetingLink != "" {
		owner = append(owner, "Room: "+b.MeetingLink)
	} else {
		owner = append(owner, "No room address is set: send "+b.Name+" the link to join.")
	}
	bc := mail.Content{To: b.Email, Subject: "Reminder: your " + what + " with " + st.OwnerName + " is " + in,
		Heading: "Your " + what + " is " + in, Paragraphs: booker}
	if b.MeetingLink != "" {
		bc.Button = &mail.Link{Label: "Join the call", URL: b.MeetingLink}
	}
	if b.EventID != "" {
		return []addressed{{"booker", "", mail.Compose(bc)}, s.eventOwnerReminder(b, st, r, in)}
	}
	oc := mail.Content{To: st.OwnerEmail, Subject: "Reminder: " + what + " with " + b.Name + " " + in,
		Heading: what + " with " + b.Name + " " + in, Paragraphs: owner}
	return []addressed{{"booker", "", mail.Compose(bc)}, {"owner", "", mail.Compose(oc)}}
}
