// Package transfer moves the tribe's data in and out as CSV: the admins'
// exports (members, membership ledger, bookings, attendance, wait list) and
// the members import. Every file goes through internal/csvx. Exports read
// everything before the first byte is sent, so a failed read is a clean
// error answer rather than a cut file.
package transfer

import (
	"context"
	"strconv"
	"strings"
	"time"

	"tribe/internal/billing"
	"tribe/internal/booking"
	"tribe/internal/community"
	"tribe/internal/content"
	"tribe/internal/levels"
	"tribe/internal/store"
	"tribe/internal/waitlist"
)

// Table is an export read into memory: its header and its records.
type Table struct {
	Header  []string
	Records [][]string
}

const stampLayout = "2006-01-02T15:04:05Z"

func stamp(t time.Time) string { return t.UTC().Format(stampLayout) }

func stampPtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return stamp(*t)
}

// money writes a stored amount (the currency's smallest unit) as the
// decimal number people read: 50000 USD is "500.00", not "50000".
func money(amount int64, currency string) string { return content.DecimalAmount(amount, currency) }

// ledgerMoney is money, empty for a change without a price (no currency).
func ledgerMoney(amount int64, currency string) string {
	if currency == "" && amount == 0 {
		return ""
	}
	return money(amount, currency)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// MembersHeader names the members export's columns. The import reads the
// same file back (full_name, email, complimentary, complimentary_until,
// stripe_customer_id, joined_at) and ignores the others. plan is the paid
// membership's plan (monthly or annual), "" for none or unknown: Stripe
// keeps the subscription, so an import brings it back through the linked
// customer, on whichever of the two prices it is.
var MembersHeader = []string{"full_name", "email", "status", "has_access", "complimentary", "complimentary_until",
	"joined_at", "level", "stripe_customer_id", "current_period_end", "cancel_at_period_end", "plan"}

// Members is every account with its membership, level and Stripe customer,
// oldest account first. complimentary and complimentary_until describe a
// complimentary membership in force; an ended one shows as its status.
func Members(ctx context.Context, bill *billing.Service, lv *levels.Service) (Table, error) {
	accounts, err := bill.ListAccounts(ctx)
	if err != nil {
		return Table{}, err
	}
	lvl, err := lv.LevelsOfAll(ctx)
	if err != nil {
		return Table{}, err
	}
	customers, err := bill.Customers(ctx)
	if err != nil {
		return Table{}, err
	}
	plans, err := bill.MemberPlans(ctx)
	if err != nil {
		return Table{}, err
	}
	t := Table{Header: MembersHeader}
	for _, m := range accounts {
		comp := m.Complimentary && m.HasAccess
		until := ""
		if comp && m.Until != nil {
			until = *m.Until
		}
		level := lvl[m.UserID]
		if level == "" {
			level = levels.Apprentice
		}
		t.Records = append(t.Records, []string{m.FullName, m.Email, m.Status, yesNo(m.HasAccess), yesNo(comp), until,
			stamp(m.JoinedAt), level, customers[m.UserID], stampPtr(m.CurrentPeriodEnd), yesNo(m.CancelAtPeriodEnd), plans[m.UserID]})
	}
	return t, nil
}

// BookingsHeader names the bookings export's columns; amount and refunded
// are decimal numbers in the currency column's major unit ("500.00" USD),
// so a spreadsheet sums them as written.
var BookingsHeader = []string{"id", "type", "status", "start", "end", "name", "email", "notes", "time_zone",
	"amount", "currency", "refunded", "paid_at", "reschedule_count", "cancelled_by", "created_at"}

// Bookings is every booking, oldest start first.
func Bookings(ctx context.Context, bk *booking.Service) (Table, error) {
	t := Table{Header: BookingsHeader}
	err := bk.Each(ctx, func(b *booking.Booking) error {
		t.Records = append(t.Records, []string{b.ID, b.Type, b.Status, stamp(b.Start), stamp(b.End), b.Name, b.Email, b.Notes,
			b.TimeZone, money(b.Amount, b.Currency), strings.ToUpper(b.Currency), money(b.Refunded, b.Currency), stampPtr(b.PaidAt),
			strconv.Itoa(b.RescheduleCount), b.CancelledBy, stamp(b.CreatedAt)})
		return nil
	})
	return t, err
}

// Attendance is the attendance sheet of every session, oldest first: the
// session's columns, then the sheet's (community.AttendanceHeader).
func Attendance(ctx context.Context, db *store.DB, now time.Time) (Table, error) {
	t := Table{Header: append([]string{"session_id", "session_title", "session_status", "session_starts_at"}, community.AttendanceHeader...)}
	err := community.EachAttendanceSheet(ctx, db, now, func(sh *community.AttendanceSheet) error {
		for _, r := range sh.Rows {
			t.Records = append(t.Records, append([]string{sh.SessionID, sh.Title, sh.Status, stamp(sh.StartsAt)}, sh.Record(r)...))
		}
		return nil
	})
	return t, err
}

// Waitlist is the wait list, newest first, as GET /api/admin/waitlist.csv
// writes it (waitlist.WriteCSV).
func Waitlist(ctx context.Context, db *store.DB) ([]waitlist.Entry, error) {
	return waitlist.List(ctx, db)
}

// LedgerHeader names the membership ledger export's columns, one per
// column of membership_ledger; amount and discount (what promotion codes
// take off each interval) are decimal numbers in the currency column's
// major unit, empty when the change carries no price.
var LedgerHeader = []string{"id", "user_id", "seq", "occurred_at", "recorded_at", "source", "status", "subscription_id",
	"complimentary", "comp_until", "cancel_at_period_end", "amount", "currency", "interval", "interval_count", "discount"}

// Ledger is the membership ledger, by the time each change happened.
func Ledger(ctx context.Context, db *store.DB) (Table, error) {
	var rows [][]string
	err := billing.EachLedgerEntry(ctx, db, func(e billing.LedgerEntry) error {
		rows = append(rows, []string{e.ID, e.UserID, strconv.Itoa(e.Seq), stamp(e.OccurredAt), stamp(e.RecordedAt),
			e.Source, e.Status, e.SubscriptionID, yesNo(e.Complimentary), stampPtr(e.CompUntil),
			yesNo(e.CancelAtPeriodEnd), ledgerMoney(e.Amount, e.Currency), strings.ToUpper(e.Currency), e.Interval,
			strconv.Itoa(e.IntervalCount), ledgerMoney(e.Discount, e.Currency)})
		return nil
	})
	return Table{Header: LedgerHeader, Records: rows}, err
}
