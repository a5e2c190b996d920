package booking

import "time"

// CalendarFeed is one of the owner's calendar addresses and how its
// fetching goes.
type CalendarFeed struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	// LastSuccess is when the address last answered with a calendar (or
	// that it had not changed); null before the first success.
	LastSuccess *time.Time `json:"last_success" tstype:"string | null,required"`
	// LastError is why the latest fetch failed, empty when it succeeded. A
	// failing address keeps blocking the busy times of its last success.
	LastError   string     `json:"last_error"`
	LastErrorAt *time.Time `json:"last_error_at" tstype:"string | null,required"`
	// Events is how many events the last good copy holds; Busy how many busy
	// intervals they make over the booking window.
	Events int `json:"events"`
	Busy   int `json:"busy"`
	// Skipped is how many events (or other components) of the last good
	// copy could not be read or placed and block nothing; Notes say why
	// and what else was left out or reduced, in short sentences for the
	// owner (an unknown time zone, a repeat rule read as its first time
	// only, a cap reached). Both empty when the whole file was read.
	Skipped   int       `json:"skipped"`
	Notes     []string  `json:"notes"`
	NextFetch time.Time `json:"next_fetch"`
}

// CalendarFeeds is the owner's calendar addresses, in the order given.
type CalendarFeeds struct {
	Calendars []CalendarFeed `json:"calendars"`
	// RefreshMinutes is how often each address is fetched.
	RefreshMinutes int `json:"refresh_minutes"`
}

// CalendarFeedsInput replaces the owner's calendar addresses: https://
// (or webcal://, read as https) iCalendar links, at most MaxCalendars.
type CalendarFeedsInput struct {
	URLs []string `json:"urls"`
}
