package store

import (
	"database/sql/driver"
	"fmt"
	"time"
)

// timeLayout has a fixed width so that SQLite, which keeps timestamps as text,
// orders and compares them correctly. It matches the SQLite column defaults
// strftime('%Y-%m-%dT%H:%M:%fZ', 'now').
const timeLayout = "2006-01-02T15:04:05.000Z"

// Time is a UTC instant as stored in the database, with millisecond precision.
// Use it for every timestamp argument and column so both engines agree.
type Time struct{ time.Time }

// At wraps t, converted to UTC and truncated to milliseconds.
func At(t time.Time) Time { return Time{t.UTC().Truncate(time.Millisecond)} }

// Now is the current instant as stored.
func Now() Time { return At(time.Now()) }

// Value formats the instant for either engine: PostgreSQL parses the text into
// timestamptz and SQLite stores it as is.
func (t Time) Value() (driver.Value, error) {
	return t.UTC().Format(timeLayout), nil
}

// Scan reads a timestamp from either engine.
func (t *Time) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		t.Time = v.UTC()
		return nil
	case string:
		return t.parse(v)
	case []byte:
		return t.parse(string(v))
	default:
		return fmt.Errorf("store.Time: cannot scan %T", src)
	}
}

func (t *Time) parse(s string) error {
	if v, ok := parseStored(s); ok {
		t.Time = v
		return nil
	}
	for _, layout := range []string{timeLayout, time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05"} {
		if v, err := time.Parse(layout, s); err == nil {
			t.Time = v.UTC()
			return nil
		}
	}
	return fmt.Errorf("store.Time: unreadable timestamp %q", s)
}

// parseStored reads timeLayout by hand: SQLite returns every timestamp as
// this text, a list reads several per row, and time.Parse, which matches a
// layout element by element, was a tenth of a session list's time.
func parseStored(s string) (time.Time, bool) {
	if len(s) != len(timeLayout) || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != '.' || s[23] != 'Z' {
		return time.Time{}, false
	}
	var n [7]int
	for i, f := range [7][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}, {20, 23}} {
		for _, c := range []byte(s[f[0]:f[1]]) {
			if c < '0' || c > '9' {
				return time.Time{}, false
			}
			n[i] = n[i]*10 + int(c-'0')
		}
	}
	if n[1] < 1 || n[1] > 12 || n[2] < 1 || n[3] > 23 || n[4] > 59 || n[5] > 59 {
		return time.Time{}, false
	}
	v := time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], n[6]*int(time.Millisecond), time.UTC)
	if v.Day() != n[2] { // a day the month does not have
		return time.Time{}, false
	}
	return v, true
}

// NullTime is a Time that may be NULL.
type NullTime struct {
	Time  Time
	Valid bool
}

// Value writes NULL when the time is not valid.
func (n NullTime) Value() (driver.Value, error) {
	if !n.Valid {
		return nil, nil
	}
	return n.Time.Value()
}

// Scan reads NULL or a timestamp.
func (n *NullTime) Scan(src any) error {
	if src == nil {
		n.Valid = false
		n.Time = Time{}
		return nil
	}
	n.Valid = true
	return n.Time.Scan(src)
}
