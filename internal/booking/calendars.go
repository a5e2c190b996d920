package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/netguard"
	"tribe/internal/store"
)

// The owner's own calendars as busy time. The owner gives the secret
// iCalendar addresses their calendar apps publish; every instance's worker
// loop calls RefreshCalendars, which fetches each address that is due (every
// CalendarRefresh) under a lease row, so that of several instances on one
// database one fetches a feed at a time, and stores the feed's busy
// intervals, expanded over the booking window, in booking_busy. Slots and
// every booking check read those rows, so all instances see the same busy
// time, a refresh at most behind the feed. A fetch that fails keeps the last
// good intervals and records the error for the owner; it never fails
// booking.

// Limits of calendar fetching.
const (
	CalendarRefresh  = 5 * time.Minute
	MaxCalendars     = 10
	maxCalendarBytes = 5 << 20
	maxRedirects     = 3
	fetchTimeout     = 20 * time.Second
	// fetchLease is how long a claimed fetch keeps other instances off
	// the feed: longer than a fetch can take, so a crashed instance's
	// claim lapses within one more refresh.
	fetchLease = 2 * time.Minute
	// beyondWindow is how far past the booking window a feed is expanded,
	// so that an unchanged feed (answered 304) is read again in full only
	// once a week.
	beyondWindow = 7 * 24 * time.Hour
)

// calendarConfig is how the owner's calendars are fetched.
type calendarConfig struct {
	allowPrivate bool
	client       *http.Client
	once         sync.Once
	wakeOnce     sync.Once
	changed      chan struct{} // one pending wake-up of the calendar worker
}

// wake is the channel that wakes the calendar worker after a save.
func (c *calendarConfig) wake() chan struct{} {
	c.wakeOnce.Do(func() { c.changed = make(chan struct{}, 1) })
	return c.changed
}

// WithPrivateCalendars lets calendar addresses name private and loopback
// hosts and plain http (TRIBE_CALENDAR_ALLOW_PRIVATE): for tests and local
// development only, since otherwise an admin's address could reach the
// server's own network.
func WithPrivateCalendars(allow bool) Option { return func(s *Service) { s.cal.allowPrivate = allow } }

// errPrivateAddress is a fetch refused because its host is not public.
var errPrivateAddress = netguard.ErrPrivateAddress

// httpClient is the client calendars are fetched with. Its dialer checks
// the address it actually connects to, after name resolution and on every
// redirect, so neither a name that resolves to a private address nor a
// redirect to one reaches the server's network. It never uses a proxy from
// the environment, which would dial for it unchecked.
func (c *calendarConfig) httpClient() *http.Client {
	c.once.Do(func() {
		if c.client != nil {
			return
		}
		c.client = netguard.Client(netguard.ClientOptions{
			AllowPrivate: c.allowPrivate, Timeout: fetchTimeout, MaxRedirects: maxRedirects, SchemeAllowed: c.schemeAllowed,
		})
	})
	return c.client
}

func (c *calendarConfig) schemeAllowed(scheme string) bool {
	return scheme == "https" || (c.allowPrivate && scheme == "http")
}

// normalizeCalendarURL checks an address the owner gave and returns it as
// it is fetched: webcal:// is read as https://.
func (c *calendarConfig) normalizeCalendarURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	bad := func(msg string) (string, error) { return "", errs.Field("urls", msg) }
	if len(raw) > 2000 || strings.ContainsAny(raw, " \t\r\n") || !printable(raw) {
		return bad("A calendar address must be one link of at most 2,000 characters.")
	}
	if rest, ok := cutPrefixFold(raw, "webcal://"); ok {
		raw = "https://" + rest
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return bad("Give the calendar's address in iCalendar form, starting with https:// or webcal://.")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if !c.schemeAllowed(u.Scheme) {
		return bad("Calendar addresses must start with https:// or webcal://.")
	}
	u.Fragment = ""
	if !c.allowPrivate {
		if netguard.LocalHost(u) {
			return bad("That calendar address leads to a private or local network; give the public address your calendar app publishes.")
		}
	}
	return u.String(), nil
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

const calendarColumns = `id, url, last_success_at, last_error, last_error_at, event_count, next_fetch_at,
	skipped_count, read_notes, (SELECT COUNT(*) FROM booking_busy b WHERE b.calendar_id = booking_calendars.id)`

// Calendars lists the owner's calendar addresses and their state.
func (s *Service) Calendars(ctx context.Context) (CalendarFeeds, error) {
	out := CalendarFeeds{Calendars: []CalendarFeed{}, RefreshMinutes: int(CalendarRefresh / time.Minute)}
	rows, err := s.db.ReadRows(ctx, `SELECT `+calendarColumns+` FROM booking_calendars ORDER BY position, created_at`)
	if err != nil {
		return out, fmt.Errorf("list calendars: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var (
			f                CalendarFeed
			success, errorAt store.NullTime
			next             store.Time
			notes            string
		)
		if err := rows.Scan(&f.ID, &f.URL, &success, &f.LastError, &errorAt, &f.Events, &next, &f.Skipped, &notes, &f.Busy); err != nil {
			return out, fmt.Errorf("list calendars: %w", err)
		}
		f.Notes = []string{}
		if notes != "" {
			f.Notes = strings.Split(notes, "\n")
		}
		if success.Valid {
			t := success.Time.UTC()
			f.LastSuccess = &t
		}
		if errorAt.Valid {
			t := errorAt.Time.UTC()
			f.LastErrorAt = &t
		}
		f.NextFetch = next.UTC()
		out.Calendars = append(out.Calendars, f)
	}
	return out, rows.Err()
}

// SaveCalendars replaces the owner's calendar addresses. An address kept
// keeps its state and busy times; a new one is due at once; a removed one
// takes its busy times with it. It checks the addresses only: fetching
// and reading a stranger's file is the background worker's (woken through
// CalendarsChanged), never the admin's request's.
func (s *Service) SaveCalendars(ctx context.Context, in CalendarFeedsInput) error {
	if err := s.saveCalendars(ctx, in); err != nil {
		return err
	}
	select {
	case s.cal.wake() <- struct{}{}:
	default: // a wake-up is already pending
	}
	return nil
}

// CalendarsChanged receives after the owner saves calendar addresses, so
// the calendar worker fetches new ones at once instead of at its next tick.
func (s *Service) CalendarsChanged() <-chan struct{} { return s.cal.wake() }

func (s *Service) saveCalendars(ctx context.Context, in CalendarFeedsInput) error {
	if len(in.URLs) > MaxCalendars {
		return errs.Field("urls", fmt.Sprintf("Give at most %d calendar addresses.", MaxCalendars))
	}
	var urls []string
	seen := map[string]bool{}
	for _, raw := range in.URLs {
		u, err := s.cal.normalizeCalendarURL(raw)
		if err != nil {
			return err
		}
		if !seen[u] {
			seen[u] = true
			urls = append(urls, u)
		}
	}
	now := store.At(s.now())
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, url FROM booking_calendars`)
		if err != nil {
			return fmt.Errorf("save calendars: %w", err)
		}
		have := map[string]string{}
		for rows.Next() {
			var id, u string
			if err := rows.Scan(&id, &u); err != nil {
				_ = rows.Close()
				return fmt.Errorf("save calendars: %w", err)
			}
			have[u] = id
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("save calendars: %w", err)
		}
		for u, id := range have {
			if !seen[u] {
				// booking_busy rows go with it (ON DELETE CASCADE), but
				// SQLite enforces that only with its foreign keys on:
				// delete them by name.
				if _, err := tx.ExecContext(ctx, `DELETE FROM booking_busy WHERE calendar_id = $1`, id); err != nil {
					return fmt.Errorf("remove calendar: %w", err)
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM booking_calendars WHERE id = $1`, id); err != nil {
					return fmt.Errorf("remove calendar: %w", err)
				}
			}
		}
		for i, u := range urls {
			if id, ok := have[u]; ok {
				if _, err := tx.ExecContext(ctx, `UPDATE booking_calendars SET position = $1 WHERE id = $2`, i, id); err != nil {
					return fmt.Errorf("save calendars: %w", err)
				}
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO booking_calendars (id, url, position, next_fetch_at, created_at)
				VALUES ($1, $2, $3, $4, $4)`, store.NewID(), u, i, now); err != nil {
				return fmt.Errorf("add calendar: %w", err)
			}
		}
		return nil
	})
}

// RefreshCalendars fetches every calendar that is due and not being
// fetched by another instance, and returns how many it fetched. Failures
// are recorded on the calendar, not returned: only the database failing is
// an error.
func (s *Service) RefreshCalendars(ctx context.Context) (int, error) {
	now := s.now()
	rows, err := s.db.ReadRows(ctx, `SELECT id FROM booking_calendars
		WHERE next_fetch_at <= $1 AND (lease_until IS NULL OR lease_until <= $1) ORDER BY position`, store.At(now))
	if err != nil {
		return 0, fmt.Errorf("due calendars: %w", err)
	}
	var due []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			_ = rows.Close()
			return 0, fmt.Errorf("due calendars: %w", err)
		}
		due = append(due, id)
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("due calendars: %w", err)
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		fetched  int
		firstErr error
	)
	for _, id := range due {
		wg.Go(func() {
			ok, err := s.refreshCalendar(ctx, id, now)
			mu.Lock()
			defer mu.Unlock()
			if ok {
				fetched++
			}
			if err != nil && firstErr == nil {
				firstErr = err
			}
		})
	}
	wg.Wait()
	return fetched, firstErr
}

// claimed is a calendar this instance holds the lease of.
type claimed struct {
	id, url, token     string
	etag, lastModified string
	expandedUntil      store.NullTime
}

// claimCalendar takes the fetch lease of a due calendar. One statement,
// so of two instances that try at once, one gets it.
func (s *Service) claimCalendar(ctx context.Context, id string, now time.Time) (*claimed, error) {
	c := &claimed{id: id, token: store.NewID()}
	res, err := s.db.Write.ExecContext(ctx, `UPDATE booking_calendars SET lease_token = $1, lease_until = $2
		WHERE id = $3 AND next_fetch_at <= $4 AND (lease_until IS NULL OR lease_until <= $4)`,
		c.token, store.At(now.Add(fetchLease)), id, store.At(now))
	if err != nil {
		return nil, fmt.Errorf("claim calendar: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return nil, err
	}
	err = s.db.Write.QueryRowContext(ctx, `SELECT url, etag, last_modified, expanded_until FROM booking_calendars WHERE id = $1`, id).
		Scan(&c.url, &c.etag, &c.lastModified, &c.expandedUntil)
	if err != nil {
		return nil, fmt.Errorf("claim calendar: %w", err)
	}
	return c, nil
}

// fetchResult is what one fetch brought.
type fetchResult struct {
	notModified        bool
	body               []byte
	etag, lastModified string
}

func (s *Service) fetchCalendar(ctx context.Context, c *claimed, conditional bool) (fetchResult, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return fetchResult{}, errors.New("the address is not a link the server can fetch")
	}
	req.Header.Set("Accept", "text/calendar, */*;q=0.5")
	req.Header.Set("User-Agent", "tribe-booking/1 (calendar busy times)")
	if conditional {
		if c.etag != "" {
			req.Header.Set("If-None-Match", c.etag)
		}
		if c.lastModified != "" {
			req.Header.Set("If-Modified-Since", c.lastModified)
		}
	}
	resp, err := s.cal.httpClient().Do(req)
	if err != nil {
		return fetchResult{}, describeFetchError(err)
	}
	defer func() { _ = resp.Body.Close() }()
	switch {
	case resp.StatusCode == http.StatusNotModified && conditional:
		return fetchResult{notModified: true}, nil
	case resp.StatusCode != http.StatusOK:
		return fetchResult{}, fmt.Errorf("the calendar server answered %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxCalendarBytes+1))
	if err != nil {
		return fetchResult{}, describeFetchError(err)
	}
	if len(body) > maxCalendarBytes {
		return fetchResult{}, fmt.Errorf("the calendar is larger than %d MB", maxCalendarBytes>>20)
	}
	return fetchResult{body: body, etag: resp.Header.Get("ETag"), lastModified: resp.Header.Get("Last-Modified")}, nil
}

// describeFetchError says why a fetch failed in words for the owner.
func describeFetchError(err error) error {
	var ne net.Error
	switch {
	case errors.Is(err, errPrivateAddress):
		return errPrivateAddress
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return fmt.Errorf("the calendar server did not answer within %d seconds", int(fetchTimeout/time.Second))
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("the calendar could not be fetched: %v", ue.Err)
	}
	return fmt.Errorf("the calendar could not be fetched: %v", err)
}

// refreshCalendar fetches one calendar if this instance can claim it.
func (s *Service) refreshCalendar(ctx context.Context, id string, now time.Time) (bool, error) {
	c, err := s.claimCalendar(ctx, id, now)
	if err != nil || c == nil {
		return false, err
	}
	st, _, err := s.settings(ctx)
	if err != nil {
		return false, err
	}
	loc, err := content.LoadZone(st.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	lo := now.Add(-24 * time.Hour)
	hi := now.Add(time.Duration(st.WindowDays)*24*time.Hour + beyondWindow)
	// A feed whose stored expansion ends before the window (plus a day)
	// does is read in full even if it has not changed.
	conditional := c.expandedUntil.Valid && c.expandedUntil.Time.After(now.Add(time.Duration(st.WindowDays+1)*24*time.Hour))
	res, ferr := s.fetchCalendar(ctx, c, conditional)
	var (
		busy []span
		rep  feedReport
	)
	if ferr == nil && !res.notModified {
		busy, rep, ferr = expandBusy(res.body, loc, lo, hi)
	}
	if ferr != nil {
		msg := ferr.Error()
		if len(msg) > 480 {
			msg = msg[:480] + "…"
		}
		_, err := s.db.Write.ExecContext(ctx, `UPDATE booking_calendars SET last_error = $1, last_error_at = $2,
			next_fetch_at = $3, lease_token = NULL, lease_until = NULL WHERE id = $4 AND lease_token = $5`,
			msg, store.At(s.now()), store.At(now.Add(CalendarRefresh)), id, c.token)
		if err != nil {
			return true, fmt.Errorf("record calendar error: %w", err)
		}
		s.log.WarnContext(ctx, "booking: calendar not refreshed", "calendar", id, "err", msg)
		return true, nil
	}
	return true, s.db.Tx(ctx, func(tx *sql.Tx) error {
		if res.notModified {
			_, err := tx.ExecContext(ctx, `UPDATE booking_calendars SET last_success_at = $1, last_error = '', last_error_at = NULL,
				next_fetch_at = $2, lease_token = NULL, lease_until = NULL WHERE id = $3 AND lease_token = $4`,
				store.At(s.now()), store.At(now.Add(CalendarRefresh)), id, c.token)
			return wrap("record calendar", err)
		}
		r, err := tx.ExecContext(ctx, `UPDATE booking_calendars SET last_success_at = $1, last_error = '', last_error_at = NULL,
			next_fetch_at = $2, lease_token = NULL, lease_until = NULL, etag = $3, last_modified = $4,
			expanded_until = $5, event_count = $6, skipped_count = $7, read_notes = $8 WHERE id = $9 AND lease_token = $10`,
			store.At(s.now()), store.At(now.Add(CalendarRefresh)), limitText(res.etag, 500), limitText(res.lastModified, 100),
			store.At(hi), rep.Events, rep.Skipped, notesText(rep.Notes), id, c.token)
		if err != nil {
			return fmt.Errorf("record calendar: %w", err)
		}
		if n, err := r.RowsAffected(); err != nil || n != 1 {
			// The lease lapsed and another instance took over (or the
			// owner removed the calendar): its result stands.
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM booking_busy WHERE calendar_id = $1`, id); err != nil {
			return fmt.Errorf("replace busy times: %w", err)
		}
		return insertBusy(ctx, tx, id, busy)
	})
}

// notesText stores a read's notes one a line, at most 2,000 bytes: a
// hostile feed with a thousand unknown zones gets the first few and a count.
func notesText(notes []string) string {
	var b strings.Builder
	for i, n := range notes {
		if b.Len()+len(n) > 1900 {
			fmt.Fprintf(&b, "\nand %d more problems", len(notes)-i)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.ReplaceAll(n, "\n", " "))
	}
	return b.String()
}

func limitText(s string, n int) string {
	if len(s) > n {
		return ""
	}
	return s
}

// insertBusy writes busy intervals in batches.
func insertBusy(ctx context.Context, tx *sql.Tx, id string, busy []span) error {
	const batch = 200
	for i := 0; i < len(busy); i += batch {
		part := busy[i:min(i+batch, len(busy))]
		var (
			q    strings.Builder
			args = []any{id}
		)
		q.WriteString(`INSERT INTO booking_busy (calendar_id, start_at, end_at) VALUES `)
		for j, b := range part {
			if j > 0 {
				q.WriteString(", ")
			}
			fmt.Fprintf(&q, "($1, $%d, $%d)", len(args)+1, len(args)+2)
			args = append(args, store.At(b.from), store.At(b.until))
		}
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			return fmt.Errorf("store busy times: %w", err)
		}
	}
	return nil
}

// readExternalBusy is the owner's calendar busy time that touches [lo, hi).
func readExternalBusy(ctx context.Context, q queryFunc, lo, hi time.Time) ([]span, error) {
	rows, err := q(ctx, `SELECT start_at, end_at FROM booking_busy WHERE end_at > $1 AND start_at < $2`, store.At(lo), store.At(hi))
	if err != nil {
		return nil, fmt.Errorf("read calendar busy times: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []span
	for rows.Next() {
		var from, until store.Time
		if err := rows.Scan(&from, &until); err != nil {
			return nil, fmt.Errorf("read calendar busy times: %w", err)
		}
		out = append(out, span{from.Time, until.Time})
	}
	return out, rows.Err()
}
