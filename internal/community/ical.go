package community

import (
	"strings"

	"tribe/internal/ical"
)

// Calendar describes an iCalendar file to write.
type Calendar struct {
	Name string // X-WR-CALNAME; empty for a single-event file
	// BaseURL makes event UIDs globally unique (its host is the UID domain).
	BaseURL string
	// WithMeeting includes meeting details (a subscriber's or admin's file).
	WithMeeting bool
	// ViaJoin, with WithMeeting, gives the site's join redirect
	// (BaseURL/api/sessions/{id}/join) as the event's link instead of the
	// meeting's own, so a click from a mailed invitation counts as attending.
	ViaJoin bool
}

// JoinLink is the site's join redirect of session id: it records attendance
// and sends the member on to the meeting.
func JoinLink(baseURL, id string) string {
	return strings.TrimRight(baseURL, "/") + "/api/sessions/" + id + "/join"
}

// ICS writes sessions as an RFC 5545 calendar: CRLF line ends, lines folded
// at 75 octets, text escaped, times in UTC.
func (c Calendar) ICS(sessions []*Session) []byte {
	var w ical.Writer
	w.Line("BEGIN", "VCALENDAR")
	w.Line("VERSION", "2.0")
	w.Line("PRODID", "-//rUv//Tribe live sessions//EN")
	w.Line("CALSCALE", "GREGORIAN")
	w.Line("METHOD", "PUBLISH")
	if c.Name != "" {
		w.Line("X-WR-CALNAME", ical.Text(c.Name))
	}
	domain := ical.UIDDomain(c.BaseURL)
	for _, s := range sessions {
		w.Line("BEGIN", "VEVENT")
		w.Line("UID", s.ID+"@"+domain)
		w.Line("DTSTAMP", ical.UTC(s.UpdatedAt))
		w.Line("DTSTART", ical.UTC(s.StartsAt))
		w.Line("DTEND", ical.UTC(s.EndsAt))
		w.Line("SUMMARY", ical.Text(s.Title))
		if desc := c.description(s); desc != "" {
			w.Line("DESCRIPTION", ical.Text(desc))
		}
		if len(s.Tags) > 0 {
			esc := make([]string, len(s.Tags))
			for i, t := range s.Tags {
				esc[i] = ical.Text(t)
			}
			w.Line("CATEGORIES", strings.Join(esc, ","))
		}
		if c.WithMeeting {
			if c.ViaJoin {
				w.Line("URL", JoinLink(c.BaseURL, s.ID))
			} else if link := firstNonEmpty(s.JoinURL, s.MeetingLink); link != "" {
				w.Line("URL", link)
			}
		}
		status := "CONFIRMED"
		if s.Status == "cancelled" {
			status = "CANCELLED"
		}
		w.Line("STATUS", status)
		w.Line("END", "VEVENT")
	}
	w.Line("END", "VCALENDAR")
	return w.Bytes()
}

func (c Calendar) description(s *Session) string {
	parts := []string{}
	if s.Description != "" {
		parts = append(parts, s.Description)
	}
	if !c.WithMeeting {
		return strings.Join(parts, "\n\n")
	}
	if c.ViaJoin {
		return strings.Join(append(parts, "Join: "+JoinLink(c.BaseURL, s.ID)), "\n\n")
	}
	var m []string
	if s.JoinURL != "" {
		m = append(m, "Join: "+s.JoinURL)
	}
	if s.MeetingID != "" {
		m = append(m, "Meeting ID: "+s.MeetingID)
	}
	if s.Password != "" {
		m = append(m, "Password: "+s.Password)
	}
	if s.MeetingLink != "" && s.MeetingLink != s.JoinURL {
		m = append(m, "Meeting link: "+s.MeetingLink)
	}
	if len(m) > 0 {
		parts = append(parts, strings.Join(m, "\n"))
	}
	return strings.Join(parts, "\n\n")
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

// icsFileName keeps letters, digits and dashes of a title for a file name.
func icsFileName(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
		if b.Len() >= 60 {
			break
		}
	}
	name := strings.Trim(b.String(), "-")
	if name == "" {
		return "session"
	}
	return name
}
