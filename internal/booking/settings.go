package booking

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/mailaddr"
	"tribe/internal/store"
)

// Settings is the owner's availability and who they are, stored in one row
// and edited by admins. Durations are whole minutes.
type Settings struct {
	TimeZone     string                         `json:"time_zone"`
	WeeklyHours  map[string][]content.HourRange `json:"weekly_hours"`
	Overrides    []Override                     `json:"overrides"`
	SlotStep     int                            `json:"slot_step_minutes"`
	BufferBefore int                            `json:"buffer_before_minutes"`
	BufferAfter  int                            `json:"buffer_after_minutes"`
	MinNotice    int                            `json:"minimum_notice_minutes"`
	WindowDays   int                            `json:"window_days"`
	MaxPerDay    int                            `json:"max_per_day"` // 0: no limit
	Cutoff       int                            `json:"cutoff_minutes"`
	OwnerName    string                         `json:"owner_name"`
	OwnerEmail   string                         `json:"owner_email"`
	MeetingLink  string                         `json:"meeting_link"` // the room address: a fixed link, or a template with {room} (room.go)
	// NoShowPolicy is the owner's words on missed calls, shown on the
	// booking pages ("" shows nothing); at most MaxNoShowPolicy characters.
	NoShowPolicy string `json:"no_show_policy"`
}

// MaxNoShowPolicy bounds the no-show policy text, in characters.
const MaxNoShowPolicy = 1000

// Override replaces the weekly hours on one date of the owner's calendar:
// no hours is a day off.
type Override struct {
	Date  string              `json:"date"` // YYYY-MM-DD
	Hours []content.HourRange `json:"hours"`
}

// The defaults an owner starts with, besides the content's zone and hours.
const (
	DefaultSlotStep   = 15
	DefaultBuffer     = 10
	DefaultMinNotice  = 12 * 60
	DefaultWindowDays = 60
	DefaultCutoff     = 24 * 60
)

// DefaultSettings is what the owner starts with: the content's zone and
// weekly hours, the defaults above, the content's name for the owner and
// ownerEmail (the first of TRIBE_ADMIN_EMAILS), or the content's contact
// address when no admin is configured.
func DefaultSettings(site *content.Site, ownerEmail string) Settings {
	if strings.TrimSpace(ownerEmail) == "" {
		ownerEmail = site.Contact.Email
	}
	av := site.Services.Availability
	weekly := map[string][]content.HourRange{}
	for day, hours := range av.WeeklyHours {
		weekly[day] = append([]content.HourRange(nil), hours...)
	}
	zone := av.TimeZone
	if zone == "" {
		zone = "UTC"
	}
	return Settings{
		TimeZone: zone, WeeklyHours: weekly, Overrides: []Override{},
		SlotStep: DefaultSlotStep, BufferBefore: DefaultBuffer, BufferAfter: DefaultBuffer,
		MinNotice: DefaultMinNotice, WindowDays: DefaultWindowDays, Cutoff: DefaultCutoff,
		OwnerName: site.About.Name, OwnerEmail: strings.TrimSpace(ownerEmail),
	}
}

// rules is Settings checked and read into the forms slot computing uses.
type rules struct {
	loc          *time.Location
	weekly       [7][][2]int         // minutes of the day, by time.Weekday
	overrides    map[string][][2]int // by date
	step         int                 // minutes
	bufferBefore time.Duration
	bufferAfter  time.Duration
	notice       time.Duration
	window       time.Duration
	maxPerDay    int
	cutoff       time.Duration
}

// Validate checks every field and returns the first problem as a field
// error naming the JSON path (weekly_hours.monday[1]).
func (s *Settings) Validate() error {
	if _, err := s.rules(); err != nil {
		return err
	}
	// The room rule is stricter than what rules reads back, so that settings
	// saved before it (an http:// link) still open the calendar.
	return checkRoomAddress(s.MeetingLink)
}

// normalise trims the text fields; Validate and Save call it.
func (s *Settings) normalise() {
	s.TimeZone = strings.TrimSpace(s.TimeZone)
	s.OwnerName = strings.TrimSpace(s.OwnerName)
	s.OwnerEmail = strings.TrimSpace(s.OwnerEmail)
	s.MeetingLink = strings.TrimSpace(s.MeetingLink)
	s.NoShowPolicy = strings.TrimSpace(strings.ReplaceAll(s.NoShowPolicy, "\r\n", "\n"))
	if s.WeeklyHours == nil {
		s.WeeklyHours = map[string][]content.HourRange{}
	}
	if s.Overrides == nil {
		s.Overrides = []Override{}
	}
}

func (s *Settings) rules() (*rules, error) {
	s.normalise()
	r := &rules{overrides: map[string][][2]int{}}
	loc, err := content.LoadZone(s.TimeZone)
	if err != nil {
		return nil, errs.Field("time_zone", "Time zone must be an IANA name such as America/Toronto.")
	}
	r.loc = loc
	day := map[string]time.Weekday{}
	for i, d := range content.Weekdays {
		day[d] = time.Weekday(i)
	}
	for _, name := range sortedKeys(s.WeeklyHours) {
		if _, ok := day[name]; !ok {
			return nil, errs.Field("weekly_hours."+name, fmt.Sprintf("%q is not a day of the week; use monday to sunday.", name))
		}
	}
	for _, name := range content.Weekdays {
		hours := s.WeeklyHours[name]
		if len(hours) > 12 {
			return nil, errs.Field("weekly_hours."+name, "A day may have at most 12 ranges of hours.")
		}
		spans, at, problem := content.ParseHours(hours)
		if problem != "" {
			return nil, errs.Field(fmt.Sprintf("weekly_hours.%s[%d]", name, at), "Hours: "+problem+".")
		}
		r.weekly[day[name]] = spans
	}
	if len(s.Overrides) > 400 {
		return nil, errs.Field("overrides", "At most 400 date overrides.")
	}
	for i, o := range s.Overrides {
		f := fmt.Sprintf("overrides[%d]", i)
		d, err := time.Parse(time.DateOnly, o.Date)
		if err != nil || len(o.Date) != 10 || d.Year() < 2000 || d.Year() > 2200 {
			return nil, errs.Field(f+".date", "Date must be a real date written YYYY-MM-DD.")
		}
		if _, dup := r.overrides[o.Date]; dup {
			return nil, errs.Field(f+".date", o.Date+" already has an override.")
		}
		if len(o.Hours) > 12 {
			return nil, errs.Field(f+".hours", "A day may have at most 12 ranges of hours.")
		}
		spans, at, problem := content.ParseHours(o.Hours)
		if problem != "" {
			return nil, errs.Field(fmt.Sprintf("%s.hours[%d]", f, at), "Hours: "+problem+".")
		}
		r.overrides[o.Date] = spans
	}
	for _, n := range []struct {
		field    string
		v        int
		lo, hi   int
		sentence string
	}{
		{"slot_step_minutes", s.SlotStep, 5, 240, "Slot step must be from 5 to 240 minutes."},
		{"buffer_before_minutes", s.BufferBefore, 0, 240, "Buffer before must be from 0 to 240 minutes."},
		{"buffer_after_minutes", s.BufferAfter, 0, 240, "Buffer after must be from 0 to 240 minutes."},
		{"minimum_notice_minutes", s.MinNotice, 0, 30 * 24 * 60, "Minimum notice must be from 0 minutes to 30 days."},
		{"window_days", s.WindowDays, 1, 365, "Booking window must be from 1 to 365 days."},
		{"max_per_day", s.MaxPerDay, 0, 100, "Bookings per day must be from 0 (no limit) to 100."},
		{"cutoff_minutes", s.Cutoff, 0, 30 * 24 * 60, "Cancellation cut-off must be from 0 minutes to 30 days."},
	} {
		if n.v < n.lo || n.v > n.hi {
			return nil, errs.Field(n.field, n.sentence)
		}
	}
	if s.SlotStep%5 != 0 {
		return nil, errs.Field("slot_step_minutes", "Slot step must be a multiple of 5 minutes.")
	}
	switch {
	case s.OwnerName == "" || utf8.RuneCountInString(s.OwnerName) > 120 || !printable(s.OwnerName):
		return nil, errs.Field("owner_name", "Owner name must be 1 to 120 characters.")
	case !validOwnerEmail(s.OwnerEmail):
		return nil, errs.Field("owner_email", "Owner e-mail must be an address such as owner@example.com.")
	case s.MeetingLink != "" && !httpURL(s.MeetingLink):
		return nil, errs.Field("meeting_link", "Meeting link must be an https:// or http:// address of at most 1000 characters.")
	case utf8.RuneCountInString(s.NoShowPolicy) > MaxNoShowPolicy:
		return nil, errs.Field("no_show_policy", fmt.Sprintf("The no-show policy must be at most %d characters.", MaxNoShowPolicy))
	case !policyText(s.NoShowPolicy):
		return nil, errs.Field("no_show_policy", "The no-show policy contains characters that cannot be shown (control or direction characters).")
	}
	r.step = s.SlotStep
	r.bufferBefore = time.Duration(s.BufferBefore) * time.Minute
	r.bufferAfter = time.Duration(s.BufferAfter) * time.Minute
	r.notice = time.Duration(s.MinNotice) * time.Minute
	r.window = time.Duration(s.WindowDays) * 24 * time.Hour
	r.maxPerDay = s.MaxPerDay
	r.cutoff = time.Duration(s.Cutoff) * time.Minute
	return r, nil
}

// hours is the owner's ranges on a date of their calendar.
func (r *rules) hours(date string, wd time.Weekday) [][2]int {
	if o, ok := r.overrides[date]; ok {
		return o
	}
	return r.weekly[wd]
}

func httpURL(s string) bool {
	if len(s) > 1000 || strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// printable refuses text that cannot be stored or shown: invalid UTF-8,
// NUL and other control characters.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// LoadSettings returns the stored settings, or the defaults when the owner
// has saved none.
func (s *Service) LoadSettings(ctx context.Context) (Settings, error) {
	st, _, err := s.settings(ctx)
	return st, err
}

// settings reads the stored settings and their rules. Stored settings that
// no longer validate (written by hand) fall back to the defaults rather than
// closing the calendar with an error nobody sees.
func (s *Service) settings(ctx context.Context) (Settings, *rules, error) {
	var raw []byte
	err := s.db.ReadRow(ctx, `SELECT settings FROM booking_settings WHERE id = 1`).Scan(&raw)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Settings{}, nil, fmt.Errorf("read booking settings: %w", err)
	}
	if err == nil {
		var st Settings
		if json.Unmarshal(raw, &st) == nil {
			if r, err := st.rules(); err == nil {
				return st, r, nil
			}
		}
	}
	st := s.defaults
	r, err := st.rules()
	if err != nil {
		return Settings{}, nil, fmt.Errorf("default booking settings: %w", err)
	}
	return st, r, nil
}

// SaveSettings validates and stores the owner's settings. Bookings already
// made keep their times and buffers.
func (s *Service) SaveSettings(ctx context.Context, in Settings) (Settings, error) {
	if err := in.Validate(); err != nil {
		return Settings{}, err
	}
	raw, err := json.Marshal(in)
	if err != nil {
		return Settings{}, fmt.Errorf("encode booking settings: %w", err)
	}
	now := store.At(s.now())
	_, err = s.db.Write.ExecContext(ctx,
		`INSERT INTO booking_settings (id, settings, updated_at) VALUES (1, $1, $2)
		 ON CONFLICT (id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`,
		string(raw), now)
	if err != nil {
		return Settings{}, fmt.Errorf("save booking settings: %w", err)
	}
	return in, nil
}

// validOwnerEmail is true for an address the site's one normaliser keeps as
// it is written, so invitations name the owner exactly as configured.
func validOwnerEmail(s string) bool {
	a, err := mailaddr.Parse(s)
	return err == nil && a.Mailbox == s
}

// policyText reports whether s is text to show as it is: valid UTF-8 with
// no control characters besides line breaks and tabs, and no direction
// overrides (which could make the policy read otherwise than it is).
func policyText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return false
		case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f:
			return false
		}
	}
	return true
}
