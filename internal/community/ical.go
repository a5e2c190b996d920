package community

import (
	"bytes"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// Calendar describes an iCalendar file to write.
type Calendar struct {
	Name string // X-WR-CALNAME; empty for a single-event file
	// BaseURL makes event UIDs globally unique (its host is the UID domain).
	BaseURL string
	// WithMeeting includes meeting details (a subscriber's or admin's file).
	WithMeeting bool
}

// ICS writes sessions as an RFC 5545 calendar: CRLF line ends, lines folded
// at 75 octets, text escaped, times in UTC.
func (c Calendar) ICS(sessions []*Session) []byte {
	var b bytes.Buffer
	line := func(name, value string) { writeFolded(&b, name+":"+value) }
	line("BEGIN", "VCALENDAR")
	line("VERSION", "2.0")
	line("PRODID", "-//rUv//Tribe live sessions//EN")
	line("CALSCALE", "GREGORIAN")
	line("METHOD", "PUBLISH")
	if c.Name != "" {
		line("X-WR-CALNAME", escapeText(c.Name))
	}
	domain := "tribe"
	if u, err := url.Parse(c.BaseURL); err == nil && u.Hostname() != "" {
		domain = u.Hostname()
	}
	for _, s := range sessions {
		line("BEGIN", "VEVENT")
		line("UID", s.ID+"@"+domain)
		line("DTSTAMP", icalTime(s.UpdatedAt))
		line("DTSTART", icalTime(s.StartsAt))
		line("DTEND", icalTime(s.EndsAt))
		line("SUMMARY", escapeText(s.Title))
		if desc := c.description(s); desc != "" {
			line("DESCRIPTION", escapeText(desc))
		}
		if len(s.Tags) > 0 {
			esc := make([]string, len(s.Tags))
			for i, t := range s.Tags {
				esc[i] = escapeText(t)
			}
			line("CATEGORIES", strings.Join(esc, ","))
		}
		if c.WithMeeting {
			if link := firstNonEmpty(s.JoinURL, s.MeetingLink); link != "" {
				line("URL", link)
			}
		}
		status := "CONFIRMED"
		if s.Status == "cancelled" {
			status = "CANCELLED"
		}
		line("STATUS", status)
		line("END", "VEVENT")
	}
	line("END", "VCALENDAR")
	return b.Bytes()
}

func (c Calendar) description(s *Session) string {
	parts := []string{}
	if s.Description != "" {
		parts = append(parts, s.Description)
	}
	if !c.WithMeeting {
		return strings.Join(parts, "\n\n")
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

func icalTime(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// escapeText escapes a TEXT value (RFC 5545 3.3.11): backslash, semicolon,
// comma and newlines; other control characters are dropped.
func escapeText(s string) string {
	var b strings.Builder
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == ';':
			b.WriteString(`\;`)
		case r == ',':
			b.WriteString(`\,`)
		case r == '\n' || r == '\r':
			b.WriteString(`\n`)
		case r < 0x20 && r != '\t', r == 0x7f:
			// not allowed in TEXT
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// writeFolded writes one content line, folding it so no line exceeds 75
// octets; a continuation starts with a space and no UTF-8 sequence is split.
func writeFolded(b *bytes.Buffer, l string) {
	limit := 75
	for len(l) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(l[cut]) {
			cut--
		}
		b.WriteString(l[:cut])
		b.WriteString("\r\n ")
		l = l[cut:]
		limit = 74 // the leading space counts
	}
	b.WriteString(l)
	b.WriteString("\r\n")
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
