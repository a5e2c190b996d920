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
	for _, layout := range []string{timeLayout, time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05"} {
		if v, err := time.Parse(layout, s); err == nil {
			t.Time = v.UTC()
			return nil
		}
	}
	return fmt.Errorf("store.Time: unreadable timestamp %q", s)
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
