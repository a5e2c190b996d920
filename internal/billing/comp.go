package billing

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"tribe/internal/errs"
	"tribe/internal/plural"
	"tribe/internal/store"
)

// Comp gives the member complimentary membership until the given instant
// (nil: no end). A complimentary member has access, counts toward the cap
// and is never charged: Checkout refuses them. Giving it again changes the
// end. Refusals: invalid for an end in the past; already_subscribed for a
// member who pays through Stripe now (cancel that subscription first);
// at_capacity when the tribe is full.
func (s *Service) Comp(ctx context.Context, userID string, until *time.Time) error {
	var after func()
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		after, err = s.CompTx(ctx, tx, userID, until)
		return err
	})
	if err == nil && after != nil {
		after()
	}
	return err
}

// CompTx is Comp inside the caller's transaction (the members import makes
// every row in one). It returns what to do once the transaction has
// committed (nil: nothing): expiring a checkout the member no longer needs.
// Refusals are returned before anything is written.
func (s *Service) CompTx(ctx context.Context, tx *sql.Tx, userID string, until *time.Time) (after func(), err error) {
	now := s.now()
	if until != nil && !until.After(now) {
		return nil, errs.Field("until", "The end of a complimentary membership must be in the future.")
	}
	var session string
	err = func() error {
		if err := lock(ctx, s.db, tx, seatsKey); err != nil {
			return err
		}
		if err := lock(ctx, s.db, tx, memberKey(userID)); err != nil {
			return err
		}
		if id, err := knownUser(ctx, tx, userID); err != nil || id == "" {
			if err == nil {
				err = errs.New(errs.NotFound, "No account has this id.")
			}
			return err
		}
		cur, err := readRow(ctx, tx, userID)
		if err != nil {
			return err
		}
		had := cur.access(now)
		if had && !cur.Complimentary && cur.SubID != "" {
			return errs.New(errs.AlreadySubscribed,
				"This member pays through Stripe. Cancel their subscription in Stripe first, then make them complimentary.")
		}
		if !had {
			taken, err := seatsTaken(ctx, tx, userID, now)
			if err != nil {
				return err
			}
			if taken >= s.cfg.Capacity {
				return errs.Errorf(errs.AtCapacity,
					"The tribe is full (%d of %s taken or held). Raise TRIBE_CAPACITY to make room.", taken, plural.Count(s.cfg.Capacity, "seat", "seats"))
			}
		}
		var end store.NullTime
		if until != nil {
			end = store.NullTime{Time: store.At(*until), Valid: true}
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO subscriptions (user_id, status, current_period_end, cancel_at_period_end, complimentary, comp_until, updated_at)
			 VALUES ($1, 'active', $2, FALSE, TRUE, $2, $3)
			 ON CONFLICT (user_id) DO UPDATE SET status = 'active', current_period_end = excluded.current_period_end,
			   cancel_at_period_end = FALSE, complimentary = TRUE, comp_until = excluded.comp_until,
			   stripe_subscription_id = NULL, updated_at = excluded.updated_at`,
			userID, end, store.At(now))
		if err != nil {
			return fmt.Errorf("make %s complimentary: %w", userID, err)
		}
		grant := LedgerEntry{UserID: userID, OccurredAt: now, Source: SourceCompGrant, Status: StatusActive,
			Complimentary: true, CompUntil: until}
		if err := appendLedger(ctx, tx, grant, now); err != nil {
			return err
		}
		h, err := readHold(ctx, tx, userID)
		if err != nil {
			return err
		}
		if h != nil {
			session = h.SessionID
			if _, _, err := releaseSeatTx(ctx, tx, userID, ""); err != nil {
				return err
			}
		}
		if !had {
			return s.mailWelcome(ctx, tx, userID)
		}
		return nil
	}()
	if err != nil || session == "" || s.stripe == nil {
		return nil, err
	}
	return func() { s.expireSession(ctx, session) }, nil // nothing left to pay for
}

// Uncomp ends a complimentary membership now; the member becomes a free
// member. Refusal: not_found when the member is not complimentary.
func (s *Service) Uncomp(ctx context.Context, userID string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := lock(ctx, s.db, tx, memberKey(userID)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM subscriptions WHERE user_id = $1 AND complimentary = TRUE`, userID)
		if err != nil {
			return fmt.Errorf("end the complimentary membership of %s: %w", userID, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = errs.New(errs.NotFound, "This member has no complimentary membership.")
			}
			return err
		}
		now := s.now()
		end := LedgerEntry{UserID: userID, OccurredAt: now, Source: SourceCompEnd, Status: StatusCanceled,
			Complimentary: true, CompUntil: &now}
		return appendLedger(ctx, tx, end, now)
	})
}

// Member is one row of the admins' members list, as GET /api/admin/members
// sends it and `tribe admin members` prints it.
type Member struct {
	UserID   string `json:"user_id"`
	FullName string `json:"full_name"`
	Email    string `json:"email"`
	// Status is Stripe's status, "canceled" for an ended complimentary
	// membership, or StatusFree for an account that never had a membership.
	Status    string `json:"status" tstype:"Status | typeof StatusFree"`
	HasAccess bool   `json:"has_access"`
	// JoinedAt is when the membership began (ListMembers) or the account
	// was created (ListAccounts).
	JoinedAt      time.Time `json:"joined_at"`
	Complimentary bool      `json:"complimentary"`
	// Until is the last day (UTC, YYYY-MM-DD) of a complimentary
	// membership; nil for no end and for paying members.
	Until             *string    `json:"until" tstype:"string | null,required"`
	CurrentPeriodEnd  *time.Time `json:"current_period_end" tstype:"string | null,required"`
	CancelAtPeriodEnd bool       `json:"cancel_at_period_end"`
}

// StatusFree is the members list's status of an account that never had a
// membership; no subscription row has it.
const StatusFree = "free"

// dayLayout writes Member.Until.
const dayLayout = "2006-01-02"

// ListMembers lists everyone who has or had a membership, paying or
// complimentary, oldest membership first; JoinedAt is when it began.
func (s *Service) ListMembers(ctx context.Context) ([]Member, error) {
	return s.listMembers(ctx, "list members", `SELECT u.id, COALESCE(p.full_name, ''), u.email, s.created_at, `+memberColumns+`
		 FROM subscriptions s JOIN users u ON u.id = s.user_id LEFT JOIN profiles p ON p.id = s.user_id
		 ORDER BY s.created_at, u.email`)
}

// ListAccounts lists every account with its membership, oldest account
// first: the admins' members list, from which any member can be made
// complimentary. JoinedAt is when the account was created; Status is
// StatusFree for an account that never had a membership.
func (s *Service) ListAccounts(ctx context.Context) ([]Member, error) {
	return s.listMembers(ctx, "list accounts", `SELECT u.id, COALESCE(p.full_name, ''), u.email, u.created_at, `+memberColumns+`
		 FROM users u LEFT JOIN profiles p ON p.id = u.id LEFT JOIN subscriptions s ON s.user_id = u.id
		 ORDER BY u.created_at, u.email`)
}

// memberColumns are subscriptionColumns of the subscriptions table joined as
// s, read as no membership ("" status) where an account has none.
const memberColumns = `COALESCE(s.status, ''), s.current_period_end, COALESCE(s.cancel_at_period_end, FALSE),
		   COALESCE(s.complimentary, FALSE), s.comp_until, COALESCE(s.stripe_subscription_id, '')`

// listMembers reads Member rows: the account's id, name, e-mail and joining
// time, then memberColumns, read by the one subscription scanner so the
// list's statuses and access agree with HasAccess.
func (s *Service) listMembers(ctx context.Context, op, query string) ([]Member, error) {
	now := s.now()
	rows, err := s.db.Read.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	defer func() { _ = rows.Close() }()
	out := []Member{}
	for rows.Next() {
		var (
			m      Member
			joined store.Time
		)
		sub, err := scanSubscription(scanFunc(func(dest ...any) error {
			return rows.Scan(append([]any{&m.UserID, &m.FullName, &m.Email, &joined}, dest...)...)
		}), now)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		m.JoinedAt, m.Status, m.HasAccess = joined.Time, sub.Status, sub.Active()
		if m.Status == "" {
			m.Status = StatusFree
		}
		m.Complimentary, m.CurrentPeriodEnd, m.CancelAtPeriodEnd = sub.Complimentary, sub.CurrentPeriodEnd, sub.CancelAtPeriodEnd
		if sub.Complimentary && sub.compUntil != nil {
			// compUntil is the first instant after the last day.
			day := sub.compUntil.UTC().Add(-time.Nanosecond).Format(dayLayout)
			m.Until = &day
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return out, nil
}

// scanFunc lets a row scanner be built from a function.
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }
