// Package ical writes and reads iCalendar (RFC 5545) content. Writing: the
// folded, CRLF-ended content lines, escaped TEXT values and UTC date-times
// that every calendar file of the site (session feeds, booking invitations)
// is made of. Reading: content lines into components, tolerant of the lines
// real exports get wrong and bounded against hostile files (read.go), and
// the names Windows gives its time zones (windowszones.go). What goes into
// a file, and what a read file means, is the caller's; this package only
// gets the syntax right.
package ical

import (
	"bytes"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// Writer accumulates content lines. Its zero value is ready to use.
type Writer struct{ b bytes.Buffer }

// Line writes one content line "name:value"; value must already be in its
// value type's syntax (use Text for TEXT values).
func (w *Writer) Line(name, value string) { w.fold(name + ":" + value) }

// LineParams writes "name;params:value", params already formatted (see Param).
func (w *Writer) LineParams(name, params, value string) { w.fold(name + ";" + params + ":" + value) }

// Bytes returns what was written.
func (w *Writer) Bytes() []byte { return w.b.Bytes() }

// fold writes one content line so that no line exceeds 75 octets; a
// continuation starts with a space, and no UTF-8 sequence is split.
func (w *Writer) fold(l string) {
	limit := 75
	for len(l) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(l[cut]) {
			cut--
		}
		w.b.WriteString(l[:cut])
		w.b.WriteString("\r\n ")
		l = l[cut:]
		limit = 74 // the leading space counts
	}
	w.b.WriteString(l)
	w.b.WriteString("\r\n")
}

// UTC formats t as a UTC DATE-TIME (20260105T090000Z).
func UTC(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// Text escapes a TEXT value (RFC 5545 3.3.11): backslash, semicolon, comma
// and newlines; other control characters are dropped.
func Text(s string) string {
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

// Param formats a parameter value (RFC 5545 3.2): quoted when it holds a
// colon, semicolon or comma. A parameter value cannot carry a double quote
// or a line break, so those and the caret are written in RFC 6868's caret
// encoding (^' ^n ^^), which calendar clients decode; other control
// characters are dropped.
func Param(s string) string {
	var b strings.Builder
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString("^'")
		case r == '^':
			b.WriteString("^^")
		case r == '\n' || r == '\r':
			b.WriteString("^n")
		case r < 0x20 || r == 0x7f:
			// not allowed in a parameter value
		default:
			b.WriteRune(r)
		}
	}
	v := b.String()
	if strings.ContainsAny(v, ":;,") {
		return `"` + v + `"`
	}
	return v
}

// MailTo is the CAL-ADDRESS of an e-mail address (mailto:, escaped as a URI).
func MailTo(addr string) string { return (&url.URL{Scheme: "mailto", Opaque: addr}).String() }

// UIDDomain is the host of baseURL, the right-hand side that makes a UID
// globally unique; "tribe" when baseURL has none.
func UIDDomain(baseURL string) string {
	if u, err := url.Parse(baseURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "tribe"
}
