package booking

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tribe/internal/errs"
	"tribe/internal/ical"
	"tribe/internal/store"
)

// The owner's private calendar feed of all bookings: one secret URL at a
// time (its token's SHA-256 stored in booking_feed), made again to replace
// it and deleted to revoke it.

var errNoFeed = errs.New(errs.NotFound, "Calendar not found.")

// FeedCreated returns when the owner's feed URL was made, or nil when there
// is none.
func (s *Service) FeedCreated(ctx context.Context) (*time.Time, error) {
	var at store.Time
	err := s.db.ReadRow(ctx, `SELECT created_at FROM booking_feed WHERE id = 1`).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read booking feed: %w", err)
	}
	t := at.Time
	return &t, nil
}

// CreateFeed makes the owner's feed token, replacing any earlier one, and
// returns it (shown once) with its time.
func (s *Service) CreateFeed(ctx context.Context) (string, time.Time, error) {
	token, hash := newToken()
	now := s.now()
	_, err := s.db.Write.ExecContext(ctx, `INSERT INTO booking_feed (id, token_hash, created_at) VALUES (1, $1, $2)
		ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at`, hash, store.At(now))
	if err != nil {
		return "", time.Time{}, fmt.Errorf("create booking feed: %w", err)
	}
	return token, store.At(now).Time, nil
}

// DeleteFeed revokes the owner's feed URL.
func (s *Service) DeleteFeed(ctx context.Context) error {
	if _, err := s.db.Write.ExecContext(ctx, `DELETE FROM booking_feed WHERE id = 1`); err != nil {
		return fmt.Errorf("delete booking feed: %w", err)
	}
	return nil
}

// FeedCalendar is the owner's feed for token: every booking that holds or
// held time (held, requested, confirmed, completed, no-show) from 30 days
// ago on, with the booker's details. An unknown or revoked token is
// not_found.
func (s *Service) FeedCalendar(ctx context.Context, token string) ([]byte, error) {
	var stored string
	err := s.db.ReadRow(ctx, `SELECT token_hash FROM booking_feed WHERE id = 1`).Scan(&stored)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoFeed
	}
	if err != nil {
		return nil, fmt.Errorf("read booking feed: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(hashToken(token)), []byte(stored)) != 1 {
		return nil, errNoFeed
	}
	st, _, err := s.settings(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	rows, err := s.db.ReadRows(ctx, `SELECT `+bookingColumns+` FROM bookings
		WHERE status IN ('held', 'requested', 'confirmed', 'completed', 'no_show') AND end_at > $1
		ORDER BY start_at, id LIMIT 2000`, store.At(now.AddDate(0, 0, -30)))
	if err != nil {
		return nil, fmt.Errorf("read bookings for the feed: %w", err)
	}
	var list []*Booking
	for rows.Next() {
		b, err := scanBooking(rows)
		if err != nil {
			_ = rows.Close()
			return nil, fmt.Errorf("read bookings for the feed: %w", err)
		}
		list = append(list, b)
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("read bookings for the feed: %w", err)
	}
	var w ical.Writer
	w.Line("BEGIN", "VCALENDAR")
	w.Line("VERSION", "2.0")
	w.Line("PRODID", "-//rUv//Tribe bookings//EN")
	w.Line("CALSCALE", "GREGORIAN")
	w.Line("METHOD", "PUBLISH")
	w.Line("X-WR-CALNAME", ical.Text("Bookings"))
	for _, b := range list {
		w.Line("BEGIN", "VEVENT")
		w.Line("UID", "booking-"+b.ID+"@"+ical.UIDDomain(s.baseURL))
		w.Line("SEQUENCE", strconv.Itoa(b.ICSSequence))
		w.Line("DTSTAMP", ical.UTC(b.UpdatedAt))
		w.Line("DTSTART", ical.UTC(b.Start))
		w.Line("DTEND", ical.UTC(b.End))
		title := s.typeName(b.Type) + " with " + b.Name
		switch b.Status {
		case StatusHeld:
			title += " (waiting for payment)"
		case StatusRequested:
			title += " (request)"
		}
		w.Line("SUMMARY", ical.Text(title))
		desc := []string{b.Name + " <" + b.Email + ">", "Their time zone: " + b.TimeZone}
		if b.Notes != "" {
			desc = append(desc, "What to cover: "+b.Notes)
		}
		if b.MeetingLink != "" {
			desc = append(desc, "Room: "+b.MeetingLink)
		}
		w.Line("DESCRIPTION", ical.Text(strings.Join(desc, "\n")))
		if b.MeetingLink != "" {
			w.Line("LOCATION", ical.Text(b.MeetingLink))
		}
		w.LineParams("ORGANIZER", "CN="+ical.Param(st.OwnerName), ical.MailTo(st.OwnerEmail))
		status := "CONFIRMED"
		if b.Status == StatusHeld || b.Status == StatusRequested {
			status = "TENTATIVE"
		}
		w.Line("STATUS", status)
		w.Line("END", "VEVENT")
	}
	w.Line("END", "VCALENDAR")
	return w.Bytes(), nil
}
