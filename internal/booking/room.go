package booking

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base32"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"tribe/internal/community"
	"tribe/internal/errs"
)

// A room for every call: the owner's room address (Settings.MeetingLink) is
// either one fixed link (a personal Zoom or Meet room) or a template with
// {room}, which each confirmed booking fills with its own unguessable value
// (https://meet.jit.si/ruv-{room}). The address is resolved once, when the
// booking is confirmed, and stored on it: a move keeps it, and changing the
// setting later never changes a room already sent in an invitation. All the
// seats of one group training date share one room.

// RoomPlaceholder is what a room template's per-booking part is written as.
const RoomPlaceholder = "{room}"

// JoinEarly is how long before its start the manage page shows a call's
// room, the same window a tribe session's Join button opens in.
const JoinEarly = community.JoinEarly

// maxRoomAddress caps the room setting.
const maxRoomAddress = 500

// roomEncoding writes room values in lower case without padding: safe in a
// path or a host label, and read the same by every meeting service.
var roomEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newRoom is an unguessable room value: 128 random bits, 26 characters.
func newRoom() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("room: %w", err)
	}
	return roomEncoding.EncodeToString(b[:]), nil
}

// checkRoomAddress is the rule for the room setting an owner saves: empty
// (no room: the owner sends the link), or an absolute https address of at
// most maxRoomAddress characters with {room} at most once and no other
// braces.
func checkRoomAddress(s string) error {
	if s == "" {
		return nil
	}
	const field = "meeting_link"
	switch {
	case len(s) > maxRoomAddress:
		return errs.Field(field, fmt.Sprintf("The room address may be at most %d characters.", maxRoomAddress))
	case strings.ContainsAny(s, " \t\r\n"):
		return errs.Field(field, "The room address may not contain spaces.")
	case strings.Count(s, RoomPlaceholder) > 1:
		return errs.Field(field, "Write {room} at most once in the room address.")
	}
	sample := strings.Replace(s, RoomPlaceholder, "abcdefghijklmnop", 1)
	if strings.ContainsAny(sample, "{}") {
		return errs.Field(field, "Only {room} may be written in braces, in lower case (for example https://meet.jit.si/ruv-{room}).")
	}
	u, err := url.Parse(sample)
	switch {
	case err != nil || !u.IsAbs() || u.Host == "":
		return errs.Field(field, "The room address must be a full address such as https://meet.jit.si/ruv-{room}.")
	case u.Scheme != "https":
		return errs.Field(field, "The room address must start with https:// so the call is encrypted on its way.")
	case u.User != nil:
		return errs.Field(field, "The room address may not carry a user name or password.")
	}
	return nil
}

// RoomTemplate reports whether the room setting gives each booking its own
// room (it has {room}) rather than one fixed link.
func RoomTemplate(address string) bool { return strings.Contains(address, RoomPlaceholder) }

// roomFor resolves the room b gets on confirmation under st: nothing when
// no room is configured, the fixed link, or the template filled with a new
// room value. A seat takes the room of its date's seats confirmed before,
// and a new one only for the date's first: booking writes are serialised
// (write), so two seats confirmed at once still share one.
func roomFor(ctx context.Context, tx *sql.Tx, st Settings, b *Booking) (string, error) {
	if st.MeetingLink == "" {
		return "", nil
	}
	if b.MeetingLink != "" {
		return b.MeetingLink, nil // confirmed before (a late payment's re-take): keep what was sent
	}
	if b.EventID != "" {
		var link string
		err := tx.QueryRowContext(ctx, `SELECT meeting_link FROM bookings
			WHERE event_id = $1 AND id <> $2 AND meeting_link <> '' ORDER BY created_at, id LIMIT 1`, b.EventID, b.ID).Scan(&link)
		if err == nil {
			return link, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", fmt.Errorf("room of date %s: %w", b.EventID, err)
		}
	}
	if !RoomTemplate(st.MeetingLink) {
		return st.MeetingLink, nil
	}
	room, err := newRoom()
	if err != nil {
		return "", err
	}
	return strings.Replace(st.MeetingLink, RoomPlaceholder, room, 1), nil
}

// RoomWarning is Admin's warning when no room address is set, empty when
// one is.
func (st Settings) RoomWarning() string {
	if st.MeetingLink != "" {
		return ""
	}
	return "No room address is set: confirmed calls have no link to join, and bookers are told you will send one. " +
		"Set a fixed link, or a template with {room} (such as https://meet.jit.si/ruv-{room}) to give each booking its own room."
}

// RoomOpen reports whether the manage page shows b's room at now: from
// JoinEarly before the start until the end.
func RoomOpen(b *Booking, now time.Time) bool {
	return !now.Before(b.Start.Add(-JoinEarly)) && now.Before(b.End)
}

// noRoomLine is what mails say in place of a link when the booking has no
// room: the owner has configured none and sends one themselves.
func noRoomLine(owner string) string {
	return "The link to join will be sent by " + owner + " before the call."
}
