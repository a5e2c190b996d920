package notify

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"tribe/internal/billing"
	"tribe/internal/booking"
	"tribe/internal/community"
	"tribe/internal/mail"
	"tribe/internal/plural"
	"tribe/internal/store"
)

// Session reminders go to every subscriber who has not declined the session,
// 24 hours and 1 hour before it starts: by mail to those who keep reminder
// mail on, and in the notification centre to all of them (turning the mail
// off is not asking to be told nothing), in elapsed
// time (across a clock change the 24-hour one comes at another reading of
// the clock than the session, but 24 hours before it).
//
// They are planned, not scheduled, as booking's reminders are: the sweep,
// run on every instance, queues each reminder once it is due under an
// outbox key naming the session, the reminder, the start and the member, so
// that every instance and restart queues it once between them. A moved
// session has another start and so other keys: it is reminded at its new
// time. The sweep reads the session again under its row lock before
// queueing, and SessionChanged drops what was queued and not sent when an
// admin moves, cancels or deletes it, so a cancelled session is never
// reminded.

type reminder struct {
	kind string
	lead time.Duration
}

var reminders = []reminder{{"24h", 24 * time.Hour}, {"1h", time.Hour}}

func reminderPrefix(sessionID string) string { return "session-reminder-" + sessionID + "-" }

func reminderKey(s *community.Session, r reminder, userID string) string {
	return fmt.Sprintf("%s%s-%d-%s", reminderPrefix(s.ID), r.kind, s.StartsAt.Unix(), userID)
}

// dueReminder is the reminder of s due at now, if any: each is due from its
// time until the next one's. A session planned at short notice gets the
// reminder whose window it was planned in (no mail announces a new session,
// so that reminder is the members' news of it); the mail says how long is
// really left.
func dueReminder(s *community.Session, now time.Time) (reminder, bool) {
	if s.Status == "cancelled" || s.Status == "completed" {
		return reminder{}, false
	}
	for i, r := range reminders {
		at := s.StartsAt.Add(-r.lead)
		until := s.StartsAt
		if i+1 < len(reminders) {
			until = s.StartsAt.Add(-reminders[i+1].lead)
		}
		if !now.Before(at) && now.Before(until) {
			return r, true
		}
	}
	return reminder{}, false
}

// SessionChanged drops the reminders of session id queued and not yet sent:
// it was moved, cancelled or deleted. The next sweep plans what still holds.
func (s *Service) SessionChanged(ctx context.Context, id string) error {
	_, err := mail.DropPlanned(ctx, s.db.Write, reminderPrefix(id))
	return err
}

// PlanReminders queues the session reminders that are due and returns how
// many mails it queued.
func (s *Service) PlanReminders(ctx context.Context) (int, error) {
	now := s.now()
	// The in-app reminders told of sessions that started two days ago and
	// more are no use any more: no reminder of those is ever due again.
	if _, err := s.db.Write.ExecContext(ctx, `DELETE FROM session_reminder_notices WHERE starts_unix < $1`,
		now.Add(-48*time.Hour).Unix()); err != nil {
		return 0, fmt.Errorf("forget past reminder notices: %w", err)
	}
	all, err := community.Sessions(ctx, s.db)
	if err != nil {
		return 0, err
	}
	queued := 0
	for _, seen := range all {
		r, ok := dueReminder(seen, now)
		if !ok {
			continue
		}
		n, err := s.remind(ctx, seen, r, now)
		queued += n
		if err != nil {
			return queued, fmt.Errorf("plan reminders of session %s: %w", seen.ID, err)
		}
	}
	return queued, nil
}

// remind queues reminder r of one session to each member it is for: a mail
// under the outbox key of the session, reminder, start and member, and an
// in-app notice under the same four in session_reminder_notices, so each
// goes once between instances and restarts. The mail and the notice are
// independent: a member with reminder mail off still gets the notice.
func (s *Service) remind(ctx context.Context, seen *community.Session, r reminder, now time.Time) (int, error) {
	to, err := s.reminderRecipients(ctx, seen.ID, now)
	if err != nil || len(to) == 0 {
		return 0, err
	}
	// The mails are written before the transaction: their links are signed
	// with a key that may have to be read first.
	msgs := make([]*mail.Message, len(to))
	for i, rc := range to {
		if !rc.mail {
			continue
		}
		m, err := s.reminderMail(ctx, seen, rc.recipient, now)
		if err != nil {
			return 0, err
		}
		msgs[i] = &m
	}
	queued := 0
	var told []string // members whose in-app reminder this instance records, after the commit
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		// Read again under the lock: a cancel or a move that committed
		// since is seen, and one that comes later drops what is queued.
		sess, err := community.LockSession(ctx, s.db, tx, seen.ID)
		if err != nil {
			return err
		}
		if _, ok := dueReminder(sess, now); !ok || !sess.StartsAt.Equal(seen.StartsAt) || sess.Title != seen.Title {
			return nil // changed meanwhile: the next sweep plans what holds now
		}
		for i, rc := range to {
			if msgs[i] != nil {
				ok, err := mail.EnqueueOnce(ctx, tx, reminderKey(sess, r, rc.UserID), *msgs[i])
				if err != nil {
					return err
				}
				if ok {
					queued++
				}
			}
			if s.inApp == nil {
				continue
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO session_reminder_notices (session_id, reminder, starts_unix, user_id)
				VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, sess.ID, r.kind, sess.StartsAt.Unix(), rc.UserID)
			if err != nil {
				return fmt.Errorf("record reminder notice: %w", err)
			}
			if n, _ := res.RowsAffected(); n == 1 {
				told = append(told, rc.UserID)
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	// The notice row committed with this instance's insert: only this
	// instance tells the member. An instance that stops between the commit
	// and here loses that one notice (the mail, if any, still goes).
	if s.inApp != nil {
		title := "Starting in " + inWords(seen.StartsAt.Sub(now)) + ": " + seen.Title
		for _, id := range told {
			if err := s.inApp(ctx, id, "reminder", title, "A live session you have not declined.", "/members"); err != nil {
				s.logger.Warn("reminder notification not recorded", "user", id, "err", err)
			}
		}
	}
	return queued, nil
}

// reminded is a member a reminder is for, and whether they keep reminder
// mail on.
type reminded struct {
	recipient
	mail bool
}

// reminderRecipients are the members with tribe access and a confirmed
// address who have not said they are not going, each with whether they
// keep reminder mail on.
func (s *Service) reminderRecipients(ctx context.Context, sessionID string, now time.Time) ([]reminded, error) {
	rows, err := s.db.ReadRows(ctx, `SELECT u.id, u.email, COALESCE(p.full_name, ''), COALESCE(n.time_zone, ''),
		n.user_id IS NULL OR n.session_reminders
		FROM subscriptions sub
		JOIN users u ON u.id = sub.user_id
		LEFT JOIN profiles p ON p.id = u.id
		LEFT JOIN notification_settings n ON n.user_id = u.id
		LEFT JOIN session_rsvps r ON r.session_id = $2 AND r.user_id = u.id
		WHERE `+billing.AccessCondition("sub", 1)+` AND u.email_confirmed_at IS NOT NULL
		  AND (r.user_id IS NULL OR r.going)
		ORDER BY u.id`, store.At(now), sessionID)
	if err != nil {
		return nil, fmt.Errorf("list reminder recipients: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []reminded
	for rows.Next() {
		var rc reminded
		if err := rows.Scan(&rc.UserID, &rc.Email, &rc.Name, &rc.Zone, &rc.mail); err != nil {
			return nil, fmt.Errorf("list reminder recipients: %w", err)
		}
		out = append(out, rc)
	}
	return out, rows.Err()
}

// inWords is how long until start, rounded to the hour ("24 hours",
// "1 hour"), or minutes under an hour.
func inWords(d time.Duration) string {
	if d < 55*time.Minute {
		return plural.Count(max(1, int((d+30*time.Second)/time.Minute)), "minute", "minutes")
	}
	return plural.Count(int((d+30*time.Minute)/time.Hour), "hour", "hours")
}

func (s *Service) reminderMail(ctx context.Context, sess *community.Session, rc recipient, now time.Time) (mail.Message, error) {
	zone := rc.Zone
	if zone == "" {
		zone = sess.Timezone
	}
	in := inWords(sess.StartsAt.Sub(now))
	paras := []string{
		rc.greeting(),
		sess.Title + " starts in " + in + ".",
		"When: " + booking.When(sess.StartsAt, zone) + ".",
	}
	if sess.Description != "" {
		paras = append(paras, sess.Description)
	}
	paras = append(paras, "The calendar file is attached. Can't make it? Say so in the members area, so your place goes to someone else.")
	m, err := s.OptOut(ctx, rc.UserID, KindSessionReminders, mail.Content{
		To:         rc.Email,
		Subject:    "Reminder: " + sess.Title + " starts in " + in,
		Heading:    sess.Title + " starts in " + in,
		Paragraphs: paras,
		Button:     &mail.Link{Label: "Join the session", URL: community.JoinLink(s.baseURL, sess.ID)},
	})
	if err != nil {
		return mail.Message{}, err
	}
	ics := community.Calendar{BaseURL: s.baseURL, WithMeeting: true, ViaJoin: true}.ICS([]*community.Session{sess})
	m.Attachments = []mail.Attachment{{
		Filename: community.ICSFileName(sess.Title) + ".ics", ContentType: "text/calendar; charset=UTF-8; method=PUBLISH", Data: ics,
	}}
	return m, nil
}
