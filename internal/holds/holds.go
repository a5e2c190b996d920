// Package holds is the one rule for holding something scarce for a while
// before paying for it: a tribe seat while its Stripe Checkout is open, and
// the booking slots that come later. Without it anyone could stop every sale
// by holding everything with checkouts they never pay.
//
// The rule, checked when a hold starts (Rule.Admit):
//
//   - the account's e-mail address must be confirmed, so every hold costs a
//     mailbox that receives mail, not just a typed address;
//   - one client address may have at most PerClient live holds at once;
//   - one account may start at most PerAccount holds within Window, so
//     starting again as soon as a hold runs out does not keep a seat for ever.
//
// A hold is never renewed: its owner gets the same hold back until it
// expires. The caller keeps what is held (checkout_holds for seats) and runs
// Admit in the transaction that takes it, under the lock that serialises
// takers of that thing, so the counts cannot race.
package holds

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tribe/internal/errs"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
)

// Kinds of holds (the holds table accepts exactly these).
const (
	KindSeat    = "seat"
	KindBooking = "booking"
)

// Rule limits the holds of one kind.
type Rule struct {
	Kind string
	// PerClient is how many live holds one client address may have.
	PerClient int
	// PerAccount is how many holds one account may start within Window.
	PerAccount int
	Window     time.Duration
	// Unconfirmed, Busy and Spent are the refusals' messages: the address
	// is not confirmed; the client address has PerClient live holds; the
	// account started PerAccount holds within Window.
	Unconfirmed, Busy, Spent string
}

// Seats is the rule for tribe seats held while a Checkout is open (31
// minutes each): three at once from one network (a household or an office
// buying together) and three a day per account.
var Seats = Rule{
	Kind:        KindSeat,
	PerClient:   3,
	PerAccount:  3,
	Window:      24 * time.Hour,
	Unconfirmed: "Confirm your e-mail address before you take a spot: open the link we sent you, or send a new one from the members area.",
	Busy:        "Too many checkouts are open from your network right now. Finish one of them, or try again in half an hour.",
	Spent:       "You have started checkout several times today without finishing. Please try again tomorrow, or write to us if something went wrong.",
}

// Claim is one hold about to start.
type Claim struct {
	ID      string // the hold's id; the caller's row names it
	UserID  string
	Client  string // the client address, as the rate limits key it
	Expires time.Time
}

// Admit checks the rule for a new hold and records it inside tx, which
// must hold the lock that serialises takers of the thing held. Refusals:
// forbidden (address not confirmed), rate_limited (too many live holds
// from the client address, or too many started by the account lately),
// whose RetryAfter is when a new hold can be admitted.
func (r Rule) Admit(ctx context.Context, tx *sql.Tx, c Claim, now time.Time) error {
	// One client is one IPv4 address or one IPv6 /64, whatever the caller
	// passed: a network with 2^64 addresses must not get 2^64 allowances.
	c.Client = ratelimit.AddrKey(c.Client)
	var confirmed store.NullTime
	err := tx.QueryRowContext(ctx, `SELECT email_confirmed_at FROM users WHERE id = $1`, c.UserID).Scan(&confirmed)
	if errors.Is(err, sql.ErrNoRows) {
		return errs.New(errs.NotFound, "No account has this id.")
	}
	if err != nil {
		return fmt.Errorf("hold %s: read account %s: %w", r.Kind, c.UserID, err)
	}
	if !confirmed.Valid {
		return errs.New(errs.Forbidden, r.Unconfirmed)
	}
	since := store.At(now.Add(-r.Window))
	// Holds that ended before the window only take room.
	if _, err := tx.ExecContext(ctx,
		`DELETE FROM holds WHERE kind = $1 AND created_at < $2 AND expires_at < $3`, r.Kind, since, store.At(now)); err != nil {
		return fmt.Errorf("hold %s: prune: %w", r.Kind, err)
	}
	var (
		live, started           int
		firstEnds, firstStarted store.NullTime
	)
	err = tx.QueryRowContext(ctx,
		`SELECT (SELECT COUNT(*) FROM holds WHERE kind = $1 AND client = $2 AND expires_at > $3 AND released = FALSE),
		        (SELECT MIN(expires_at) FROM holds WHERE kind = $1 AND client = $2 AND expires_at > $3 AND released = FALSE),
		        (SELECT COUNT(*) FROM holds WHERE kind = $1 AND user_id = $4 AND created_at > $5),
		        (SELECT MIN(created_at) FROM holds WHERE kind = $1 AND user_id = $4 AND created_at > $5)`,
		r.Kind, c.Client, store.At(now), c.UserID, since).Scan(&live, &firstEnds, &started, &firstStarted)
	if err != nil {
		return fmt.Errorf("hold %s: count: %w", r.Kind, err)
	}
	// The refusals say when trying again can succeed: once the client's
	// first live hold ends, or once the account's oldest start leaves the
	// window.
	if live >= r.PerClient {
		return errs.New(errs.RateLimited, r.Busy).After(firstEnds.Time.Sub(now))
	}
	if started >= r.PerAccount {
		return errs.New(errs.RateLimited, r.Spent).After(firstStarted.Time.Add(r.Window).Sub(now))
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO holds (id, kind, user_id, client, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		c.ID, r.Kind, c.UserID, c.Client, store.At(now), store.At(c.Expires)); err != nil {
		return fmt.Errorf("hold %s: record: %w", r.Kind, err)
	}
	return nil
}

// Release ends holds before they expire (paid, given up, closed by the
// payment provider), so they no longer count against their client address.
// They still count against their account's starts.
func Release(ctx context.Context, tx *sql.Tx, ids ...string) error {
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `UPDATE holds SET released = TRUE WHERE id = $1`, id); err != nil {
			return fmt.Errorf("release hold %s: %w", id, err)
		}
	}
	return nil
}

// Forget removes a hold that never took effect (its checkout could not be
// opened), so it costs its account and client address nothing.
func Forget(ctx context.Context, tx *sql.Tx, id string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM holds WHERE id = $1`, id); err != nil {
		return fmt.Errorf("forget hold %s: %w", id, err)
	}
	return nil
}
