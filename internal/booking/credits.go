package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/mail"
	"tribe/internal/mailaddr"
	"tribe/internal/store"
)

// Session packages and their credits. The owner sells packages in the
// content (services.json "packages"); a buyer pays once through Checkout
// (BuyPackage) and the payment's webhook grants the credits (packagePaid),
// once however often it is delivered, with a mail that links to the credits
// page. A credit books one call of its type without Checkout: Book finds and
// spends it inside the booking's own transaction, so two bookings racing
// for the last credit get one booking and one no_credit. A cancellation
// (the booker's before the cut-off, the owner's at any time) gives the
// credit back; a reschedule keeps it. Credits lapse at the end of their
// validity, with a reminder 14 days before (PlanCreditReminders); a refund
// of the package's payment removes its unspent credits.

// packageRefPrefix marks a Checkout Session's reference (billing's
// metadata booking_id) as a package purchase: booking ids are UUIDs, so the
// two never meet.
const packageRefPrefix = "package-"

// Limits on package checkouts left unpaid, per address and per client, in
// HoldStartWindow: each opens a Checkout Session at Stripe.
const (
	MaxPackageCheckoutsPerEmail  = 5
	MaxPackageCheckoutsPerClient = 10
	// CreditReminderDays before credits lapse, the buyer is reminded of
	// those left.
	CreditReminderDays = 14
	// creditReminderHour is when, on the owner's clock, that day's
	// reminder is due.
	creditReminderHour = 9
)

// errNoCredit answers a booking with a credit when none is left.
var errNoCredit = errs.New(errs.NoCredit, "You have no credit left for this session. Please book and pay as usual, or buy a package.")

// notFoundCredits is the one answer for a wrong credits link.
var notFoundCredits = errs.New(errs.NotFound, "This credits link is not valid. Please use the link in your latest credits e-mail.")

// packagesFrom lists the content's packages with prices in the smallest
// unit of their currency.
func packagesFrom(site *content.Site, types map[string]Type) []Package {
	var out []Package
	for _, p := range site.Services.Packages {
		cur := p.Currency
		if cur == "" {
			cur = site.Services.Currency
		}
		pk := Package{ID: p.ID, Name: p.Name, Type: p.Type, TypeName: types[p.Type].Name, Count: p.Count,
			Price: content.MinorUnits(p.Price, cur), Currency: cur, ValidDays: p.ValidDays, Description: p.Description}
		if p.MemberPrice > 0 {
			pk.MemberPrice = content.MinorUnits(p.MemberPrice, cur)
		}
		out = append(out, pk)
	}
	return out
}

// Packages lists the packages on sale, in content order.
func (s *Service) Packages() []Package { return append([]Package{}, s.packages...) }

// MemberPricing reports whether userID pays member prices: a signed-in
// member with tribe access now (billing.HasAccess, the one rule for it).
func (s *Service) MemberPricing(ctx context.Context, userID string) (bool, error) {
	if userID == "" {
		return false, nil
	}
	ok, err := billing.HasAccess(ctx, s.db, userID)
	if err != nil {
		return false, fmt.Errorf("member pricing: %w", err)
	}
	return ok, nil
}

// priceFor is what userID pays for one call of t: the member price for a
// tribe member when t has one, the type's price otherwise. Nothing the page
// sends changes it.
func (s *Service) priceFor(ctx context.Context, t Type, userID string) (int64, error) {
	if t.MemberPrice <= 0 || userID == "" {
		return t.Price, nil
	}
	member, err := s.MemberPricing(ctx, userID)
	if err != nil || !member {
		return t.Price, err
	}
	return t.MemberPrice, nil
}

// PackagePurchase is a request to buy a package.
type PackagePurchase struct {
	Package    string
	Name       string
	Email      string
	UserID     string // the signed-in member, if any: the member price, and the account the credits join
	ClientAddr string // for the per-client limit
}

// BuyPackage records a purchase and opens its Checkout Session (payment
// mode, promotion codes allowed) and returns where to pay. Nothing is
// granted until the payment's webhook arrives.
func (s *Service) BuyPackage(ctx context.Context, in PackagePurchase) (string, error) {
	var p Package
	for _, x := range s.packages {
		if x.ID == in.Package {
			p = x
		}
	}
	if p.ID == "" {
		return "", errs.New(errs.NotFound, "There is no such package.")
	}
	if !s.payments || s.pay == nil {
		return "", errs.New(errs.BillingUnavailable, "Packages are paid online, which is not set up yet. Please write to us to buy one.")
	}
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "" || !printable(name):
		return "", errs.Field("name", "Please enter your full name.")
	case utf8.RuneCountInString(name) > 120:
		return "", errs.Field("name", "Full name must be at most 120 characters.")
	}
	if _, err := auth.CheckName("name", "Full name", 120, name); err != nil {
		return "", err
	}
	addr, err := mailaddr.Parse(in.Email)
	if err != nil {
		return "", errs.Field("email", err.Error())
	}
	amount, member := p.Price, 0
	if p.MemberPrice > 0 {
		ok, err := s.MemberPricing(ctx, in.UserID)
		if err != nil {
			return "", err
		}
		if ok {
			amount, member = p.MemberPrice, 1
		}
	}
	now := s.now()
	id := store.NewID()
	ret, retHash := newToken()
	client := clientKey(in.ClientAddr)
	var user any
	if in.UserID != "" {
		user = in.UserID
	}
	err = s.write(ctx, now, func(tx *sql.Tx) error {
		since := store.At(now.Add(-HoldStartWindow))
		for _, l := range []struct {
			column, value string
			max           int
		}{{"email_normalized", addr.Key, MaxPackageCheckoutsPerEmail}, {"client_addr", client, MaxPackageCheckoutsPerClient}} {
			if l.value == "" {
				continue
			}
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM credit_purchases
				WHERE `+l.column+` = $1 AND created_at > $2 AND status IN ('pending', 'expired')`, l.value, since).Scan(&n); err != nil {
				return fmt.Errorf("count package checkouts: %w", err)
			}
			if n >= l.max {
				return errs.New(errs.RateLimited, "Payment for a package was started several times today without finishing. Please try again tomorrow, or write to us if something went wrong.").
					After(HoldStartWindow)
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO credit_purchases (id, package_id, package_name, type_id, credits, valid_days,
			    status, name, email, email_normalized, user_id, client_addr, price, member_price, currency, return_hash, created_at, updated_at)
			 VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)`,
			id, p.ID, p.Name, p.Type, p.Count, p.ValidDays, name, addr.Mailbox, addr.Key, user, client, amount, member,
			p.Currency, retHash, store.At(now))
		if err != nil {
			return fmt.Errorf("record package purchase: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", wrap("buy package", err)
	}
	opened, err := s.pay.OpenPaymentCheckout(ctx, billing.PaymentCheckout{
		Reference:   packageRefPrefix + id,
		Description: p.Name + " (" + plural(p.Count, "credit") + ")",
		Amount:      amount, Currency: p.Currency, Email: addr.Mailbox,
		ExpiresAt:           now.Add(CheckoutTTL),
		SuccessURL:          s.baseURL + "/bookings/packages/" + id + "/paid?r=" + ret,
		CancelURL:           s.baseURL + "/booking?package=cancelled#packages",
		IdempotencyKey:      "package-checkout-" + id,
		AllowPromotionCodes: true,
	})
	if err != nil {
		s.log.ErrorContext(ctx, "booking: open package Checkout", "purchase", id, "err", err)
		if _, err := s.db.Write.ExecContext(context.WithoutCancel(ctx), `UPDATE credit_purchases SET status = 'expired', updated_at = $2
			WHERE id = $1 AND status = 'pending'`, id, store.At(now)); err != nil {
			s.log.ErrorContext(ctx, "booking: close a package purchase without Checkout", "purchase", id, "err", err)
		}
		return "", errs.New(errs.Unavailable, "The payment service did not answer, so nothing was charged. Please try again in a minute.")
	}
	if _, err := s.db.Write.ExecContext(ctx, `UPDATE credit_purchases SET checkout_session_id = $2 WHERE id = $1 AND checkout_session_id IS NULL`,
		id, opened.ID); err != nil {
		s.expireQuietly(ctx, opened.ID)
		return "", fmt.Errorf("record package checkout %s: %w", id, err)
	}
	return opened.URL, nil
}

// packageRef returns the purchase a Checkout reference names, if it names one.
func packageRef(reference string) (string, bool) {
	return strings.CutPrefix(reference, packageRefPrefix)
}

// purchase is a package purchase as stored.
type purchase struct {
	id, packageID, name, typeID string
	credits, validDays          int
	status, email, emailKey     string
	userID, currency, session   string
	paymentIntent               string
	expiresAt                   *time.Time
}

func loadPurchase(ctx context.Context, q func(context.Context, string, ...any) *sql.Row, where string, arg any) (*purchase, error) {
	var (
		p   purchase
		exp store.NullTime
	)
	err := q(ctx, `SELECT id, package_id, package_name, type_id, credits, valid_days, status, email, email_normalized,
		COALESCE(user_id, ''), currency, COALESCE(checkout_session_id, ''), COALESCE(payment_intent_id, ''), expires_at
		FROM credit_purchases WHERE `+where+` = $1`, arg).Scan(&p.id, &p.packageID, &p.name, &p.typeID, &p.credits, &p.validDays,
		&p.status, &p.email, &p.emailKey, &p.userID, &p.currency, &p.session, &p.paymentIntent, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read package purchase: %w", err)
	}
	if exp.Valid {
		t := exp.Time.Time
		p.expiresAt = &t
	}
	return &p, nil
}

// creditsExpiry is when credits bought at paid lapse: at the end of the
// last day of their validity on the owner's clock.
func creditsExpiry(paid time.Time, validDays int, loc *time.Location) time.Time {
	l := paid.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day()+validDays+1, 0, 0, 0, 0, loc)
}

// creditReminderAt is when the reminder of credits lapsing at expires is
// due: CreditReminderDays days before on the owner's calendar, at
// creditReminderHour, whatever the clock changes in between.
func creditReminderAt(expires time.Time, loc *time.Location) time.Time {
	l := expires.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day()-CreditReminderDays, creditReminderHour, 0, 0, 0, loc)
}

// packagePaid grants a paid purchase's credits, once: the one change from
// pending (or expired) to paid does it, so a replayed delivery grants
// nothing more. The amount recorded is what was really paid (a promotion
// code lowers it). A payment in another currency, or through a session that
// is not the purchase's, grants nothing and is refunded whole.
func (s *Service) packagePaid(ctx context.Context, id string, p billing.CompletedPayment) error {
	_, r, err := s.settings(ctx)
	if err != nil {
		return err
	}
	now := s.now()
	refund := ""
	err = s.write(ctx, now, func(tx *sql.Tx) error {
		pu, err := loadPurchase(ctx, tx.QueryRowContext, "id", id)
		switch {
		case err != nil:
			return err
		case pu == nil:
			refund = "unknown"
			return nil
		case pu.status == "paid" || pu.status == "refunded":
			return nil // granted before: a replay
		case pu.session != "" && pu.session != p.CheckoutSessionID:
			refund = "session"
			return nil
		case !strings.EqualFold(p.Currency, pu.currency):
			refund = "currency"
			return nil
		}
		expires := creditsExpiry(now, pu.validDays, r.loc)
		user := pu.userID
		if user == "" {
			// Credits join the buyer's account when one has this address
			// (confirmed); one made later finds them by its address.
			if err := tx.QueryRowContext(ctx, `SELECT id FROM users WHERE email_normalized = $1 AND email_confirmed_at IS NOT NULL`,
				pu.emailKey).Scan(&user); err != nil && !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("find the buyer's account: %w", err)
			}
		}
		var userArg any
		if user != "" {
			userArg = user
		}
		res, err := tx.ExecContext(ctx, `UPDATE credit_purchases SET status = 'paid', amount_paid = $2, payment_intent_id = $3,
			checkout_session_id = $4, paid_at = $5, expires_at = $6, user_id = $7, updated_at = $5
			WHERE id = $1 AND status IN ('pending', 'expired')`,
			id, p.Amount, p.PaymentIntentID, p.CheckoutSessionID, store.At(now), store.At(expires), userArg)
		if err != nil {
			return fmt.Errorf("grant credits of %s: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return err
		}
		token, err := issueCreditToken(ctx, tx, pu.emailKey, now)
		if err != nil {
			return err
		}
		_, err = mail.Enqueue(ctx, tx, s.grantMail(pu, expires, r.loc, token))
		return err
	})
	if err != nil {
		return wrap("grant credits", err)
	}
	if refund == "" {
		return nil
	}
	s.log.WarnContext(ctx, "booking: package payment refunded", "purchase", id, "session", p.CheckoutSessionID, "why", refund)
	if s.pay == nil || p.PaymentIntentID == "" {
		return nil
	}
	_, err = s.pay.Refund(ctx, p.PaymentIntentID, p.Amount, "package-refund-"+refund+"-"+p.CheckoutSessionID)
	return err
}

// packageClosed marks a purchase whose Checkout Session expired unpaid.
func (s *Service) packageClosed(ctx context.Context, id, sessionID string) error {
	_, err := s.db.Write.ExecContext(ctx, `UPDATE credit_purchases SET status = 'expired', updated_at = $3
		WHERE id = $1 AND status = 'pending' AND (checkout_session_id IS NULL OR checkout_session_id = $2)`,
		id, sessionID, store.At(s.now()))
	if err != nil {
		return fmt.Errorf("close package purchase %s: %w", id, err)
	}
	return nil
}

// packageRefunded removes the unspent credits of a package whose payment
// was refunded (from the dashboard or here); spent ones stay spent, and
// their bookings stand. It reports whether the payment was a package's.
func (s *Service) packageRefunded(ctx context.Context, paymentIntentID string) (bool, error) {
	now := s.now()
	found := false
	err := s.write(ctx, now, func(tx *sql.Tx) error {
		pu, err := loadPurchase(ctx, tx.QueryRowContext, "payment_intent_id", paymentIntentID)
		if err != nil || pu == nil {
			return err
		}
		found = true
		_, err = tx.ExecContext(ctx, `UPDATE credit_purchases SET status = 'refunded', updated_at = $2,
			revoked = credits - spent
			WHERE id = $1 AND status = 'paid'`, pu.id, store.At(now))
		if err != nil {
			return fmt.Errorf("remove credits of %s: %w", pu.id, err)
		}
		return nil
	})
	return found, err
}

// issueCreditToken mints a credits-page token for an address; only its
// hash is stored.
func issueCreditToken(ctx context.Context, tx *sql.Tx, emailKey string, now time.Time) (string, error) {
	token, hash := newToken()
	if _, err := tx.ExecContext(ctx, `INSERT INTO credit_tokens (token_hash, email_normalized, created_at) VALUES ($1, $2, $3)`,
		hash, emailKey, store.At(now)); err != nil {
		return "", fmt.Errorf("issue credits token: %w", err)
	}
	return token, nil
}

// CreditsURL is the credits page of an address, opened by token.
func (s *Service) CreditsURL(email, token string) string {
	return s.baseURL + "/bookings/credits?email=" + url.QueryEscape(email) + "&token=" + url.QueryEscape(token)
}

// lastDay is the owner's day whose end is expires: the last day the
// credits can be used.
func lastDay(expires time.Time, loc *time.Location) time.Time {
	return expires.Add(-time.Nanosecond).In(loc)
}

func (s *Service) grantMail(pu *purchase, expires time.Time, loc *time.Location, token string) mail.Message {
	what := s.typeName(pu.typeID)
	last := lastDay(expires, loc).Format("Monday 2 January 2006")
	return mail.Compose(mail.Content{
		To:      pu.email,
		Subject: "Your credits: " + pu.name,
		Heading: "Your " + plural(pu.credits, "credit") + " are ready",
		Paragraphs: []string{
			"Thank you for buying " + pu.name + ". Each credit books one " + what + ": choose a time on your credits page and it is confirmed at once, with nothing more to pay.",
			"Use them by " + last + ".",
			"A call booked with a credit and cancelled before the cut-off gives the credit back; moving it keeps it.",
		},
		Button: &mail.Link{Label: "See your credits and book", URL: s.CreditsURL(pu.email, token)},
		Footer: "Keep this e-mail: its link opens your credits. You received it because this address bought a package.",
	})
}

// ExchangePackageReturn is the package Checkout's success URL: its
// one-time return id becomes a credits-page token for the buyer's address.
// A second use or a wrong id get not_found.
func (s *Service) ExchangePackageReturn(ctx context.Context, id, ret string) (email, token string, err error) {
	if ret == "" {
		return "", "", notFoundCredits
	}
	now := s.now()
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE credit_purchases SET return_hash = '' WHERE id = $1 AND return_hash = $2 AND return_hash <> ''`,
			id, hashToken(ret))
		if err != nil {
			return fmt.Errorf("use package return id: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			if err == nil {
				err = notFoundCredits
			}
			return err
		}
		var key string
		if err := tx.QueryRowContext(ctx, `SELECT email, email_normalized FROM credit_purchases WHERE id = $1`, id).Scan(&email, &key); err != nil {
			return fmt.Errorf("read package purchase: %w", err)
		}
		token, err = issueCreditToken(ctx, tx, key, now)
		return err
	})
	if err != nil {
		return "", "", err
	}
	return email, token, nil
}

// creditTokenKey is the address a credits token opens, or notFoundCredits.
func creditTokenKey(ctx context.Context, q func(context.Context, string, ...any) *sql.Row, token string) (string, error) {
	if token == "" || len(token) > 100 {
		return "", notFoundCredits
	}
	var key string
	err := q(ctx, `SELECT email_normalized FROM credit_tokens WHERE token_hash = $1`, hashToken(token)).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", notFoundCredits
	}
	if err != nil {
		return "", fmt.Errorf("read credits token: %w", err)
	}
	return key, nil
}

// CreditsByToken lists the credits of the address a credits mail was sent
// to; the link's address and token must belong together.
func (s *Service) CreditsByToken(ctx context.Context, email, token string) (*CreditsReply, error) {
	addr, err := mailaddr.Parse(email)
	if err != nil {
		return nil, notFoundCredits
	}
	key, err := creditTokenKey(ctx, s.db.Read.QueryRowContext, token)
	if err != nil {
		return nil, err
	}
	if key != addr.Key {
		return nil, notFoundCredits
	}
	list, err := s.listCredits(ctx, `p.email_normalized = $2`, key)
	if err != nil {
		return nil, err
	}
	return &CreditsReply{Credits: list, Email: addr.Mailbox}, nil
}

// CreditsOfUser lists a signed-in member's credits: those bought while
// signed in and those bought with the account's confirmed address.
func (s *Service) CreditsOfUser(ctx context.Context, userID string) (*CreditsReply, error) {
	list, err := s.listCredits(ctx, userCredits, userID)
	if err != nil {
		return nil, err
	}
	var email string
	if err := s.db.ReadRow(ctx, `SELECT email FROM users WHERE id = $1`, userID).Scan(&email); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("read member address: %w", err)
	}
	return &CreditsReply{Credits: list, Email: email}, nil
}

// userCredits is the condition of a member's purchases ($2 the user id).
const userCredits = `(p.user_id = $2 OR p.email_normalized =
	(SELECT u.email_normalized FROM users u WHERE u.id = $2 AND u.email_confirmed_at IS NOT NULL))`

func (s *Service) listCredits(ctx context.Context, cond string, arg any) ([]Credit, error) {
	_, r, err := s.settings(ctx)
	if err != nil {
		return nil, fmt.Errorf("list credits: %w", err)
	}
	rows, err := s.db.ReadRows(ctx, `SELECT p.package_id, p.package_name, p.type_id, p.credits, p.expires_at, p.spent
		FROM credit_purchases p WHERE p.status = 'paid' AND p.expires_at > $1 AND `+cond+`
		ORDER BY p.expires_at, p.id`, store.At(s.now()), arg)
	if err != nil {
		return nil, fmt.Errorf("list credits: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []Credit{}
	for rows.Next() {
		var (
			c    Credit
			used int
			exp  store.Time
		)
		if err := rows.Scan(&c.Package, &c.Name, &c.Type, &c.Count, &exp, &used); err != nil {
			return nil, fmt.Errorf("list credits: %w", err)
		}
		c.TypeName, c.ExpiresAt, c.Remaining = s.typeName(c.Type), exp.Time, max(c.Count-used, 0)
		c.LastDay = lastDay(exp.Time, r.loc).Format(time.DateOnly)
		out = append(out, c)
	}
	return out, rows.Err()
}

// creditFor finds, inside the booking's transaction, the purchase whose
// credit pays for the booking c: a paid package of c's type, not lapsed
// before the call starts, with a credit left, the soonest to lapse first.
// The credits are the signed-in member's, or with a credits token those of
// the token's address, which must be the booking's.
func (s *Service) creditFor(ctx context.Context, tx *sql.Tx, c *checked, in Request, now time.Time) (string, error) {
	var (
		cond string
		arg  any
	)
	switch {
	case in.CreditToken != "":
		key, err := creditTokenKey(ctx, tx.QueryRowContext, in.CreditToken)
		if err != nil {
			return "", err
		}
		if key != c.key {
			return "", errs.Field("email", "Please book with the address your credits were sent to.")
		}
		cond, arg = `p.email_normalized = $4`, key
	case in.UserID != "":
		cond, arg = strings.ReplaceAll(userCredits, "$2", "$4"), in.UserID
	default:
		return "", errNoCredit
	}
	var id string
	err := tx.QueryRowContext(ctx, `SELECT p.id FROM credit_purchases p
		WHERE p.status = 'paid' AND p.expires_at > $1 AND p.expires_at > $2 AND p.type_id = $3 AND `+cond+`
		  AND p.credits > p.spent
		ORDER BY p.expires_at, p.id LIMIT 1`, store.At(now), store.At(c.start), c.typ.ID, arg).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errNoCredit
	}
	if err != nil {
		return "", fmt.Errorf("find a credit: %w", err)
	}
	return id, nil
}

// spendCredit records a credit of purchase spent on a booking. The count
// is raised only while a credit is left, in one statement the database
// serialises on the purchase's row: even without the booking lock, two
// spends of the last credit cannot both pass.
func spendCredit(ctx context.Context, tx *sql.Tx, purchaseID, bookingID string, now time.Time) error {
	res, err := tx.ExecContext(ctx, `UPDATE credit_purchases SET spent = spent + 1 WHERE id = $1 AND status = 'paid' AND spent < credits`,
		purchaseID)
	if err != nil {
		return fmt.Errorf("spend credit: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		if err == nil {
			err = errNoCredit
		}
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO credit_uses (booking_id, purchase_id, spent_at) VALUES ($1, $2, $3)`,
		bookingID, purchaseID, store.At(now)); err != nil {
		return fmt.Errorf("spend credit: %w", err)
	}
	return nil
}

// returnCredit gives back the credit a cancelled booking spent, if any.
func returnCredit(ctx context.Context, tx *sql.Tx, bookingID string, now time.Time) error {
	var purchaseID string
	err := tx.QueryRowContext(ctx, `UPDATE credit_uses SET returned_at = $2 WHERE booking_id = $1 AND returned_at IS NULL
		RETURNING purchase_id`, bookingID, store.At(now)).Scan(&purchaseID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // not paid with a credit, or given back before
	}
	if err != nil {
		return fmt.Errorf("return credit: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE credit_purchases SET spent = spent - 1 WHERE id = $1 AND spent > 0`, purchaseID); err != nil {
		return fmt.Errorf("return credit: %w", err)
	}
	return nil
}

// creditReminderKey is the outbox key of a purchase's expiry reminder: the
// outbox keeps keys unique, so two instances queue it once between them.
func creditReminderKey(purchaseID string) string { return "credits-expiry-" + purchaseID }

// PlanCreditReminders queues the reminder of credits about to lapse, due
// CreditReminderDays days before (creditReminderAt) for a package with
// credits left, and returns how many it queued. A package bought after its
// reminder would have been due gets none. Run by the worker loop on every
// instance; each reminder is queued once.
func (s *Service) PlanCreditReminders(ctx context.Context) (int, error) {
	at := s.now()
	_, r, err := s.settings(ctx)
	if err != nil {
		return 0, err
	}
	// Anything lapsing within the reminder's days and a margin for the
	// clock changes; the exact moment is decided per purchase below.
	rows, err := s.db.ReadRows(ctx, `SELECT p.id, p.package_name, p.type_id, p.email, p.email_normalized, p.credits, p.paid_at, p.expires_at, p.spent
		FROM credit_purchases p WHERE p.status = 'paid' AND p.expires_at > $1 AND p.expires_at <= $2 ORDER BY p.expires_at`,
		store.At(at), store.At(at.AddDate(0, 0, CreditReminderDays+2)))
	if err != nil {
		return 0, fmt.Errorf("plan credit reminders: %w", err)
	}
	type due struct {
		pu        purchase
		remaining int
		expires   time.Time
	}
	var list []due
	for rows.Next() {
		var (
			d         due
			paid, exp store.Time
			used      int
		)
		if err := rows.Scan(&d.pu.id, &d.pu.name, &d.pu.typeID, &d.pu.email, &d.pu.emailKey, &d.pu.credits, &paid, &exp, &used); err != nil {
			_ = rows.Close()
			return 0, fmt.Errorf("plan credit reminders: %w", err)
		}
		remindAt := creditReminderAt(exp.Time, r.loc)
		if d.remaining = d.pu.credits - used; d.remaining > 0 && !at.Before(remindAt) && paid.Before(remindAt) {
			d.expires = exp.Time
			list = append(list, d)
		}
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("plan credit reminders: %w", err)
	}
	queued := 0
	for _, d := range list {
		sent := false
		err := s.db.Tx(ctx, func(tx *sql.Tx) error {
			token, hash := newToken()
			last := lastDay(d.expires, r.loc).Format("Monday 2 January 2006")
			m := mail.Compose(mail.Content{
				To:      d.pu.email,
				Subject: "Your " + d.pu.name + " credits lapse on " + last,
				Heading: plural(d.remaining, "credit") + " left, until " + last,
				Paragraphs: []string{
					"You still have " + plural(d.remaining, "credit") + " of " + d.pu.name + ", each for one " + s.typeName(d.pu.typeID) + ".",
					"Credits not used by " + last + " lapse. Choose a time on your credits page: the call is confirmed at once.",
				},
				Button: &mail.Link{Label: "Book with a credit", URL: s.CreditsURL(d.pu.email, token)},
				Footer: "You received this because this address bought a package.",
			})
			ok, err := mail.EnqueueOnce(ctx, tx, creditReminderKey(d.pu.id), m)
			if err != nil || !ok {
				return err
			}
			sent = true
			_, err = tx.ExecContext(ctx, `INSERT INTO credit_tokens (token_hash, email_normalized, created_at) VALUES ($1, $2, $3)`,
				hash, d.pu.emailKey, store.At(at))
			if err != nil {
				return fmt.Errorf("issue credits token: %w", err)
			}
			return nil
		})
		if err != nil {
			return queued, fmt.Errorf("plan credit reminders: %w", err)
		}
		if sent {
			queued++
		}
	}
	return queued, nil
}

// PackageSalesLimit is the most purchases the owner's list shows.
const PackageSalesLimit = 500

// PackageSales lists the packages bought (paid, then maybe refunded or
// lapsed), newest first: the owner's view. Checkouts never paid are left
// out.
func (s *Service) PackageSales(ctx context.Context) ([]PackageSale, error) {
	rows, err := s.db.ReadRows(ctx, `SELECT id, name, email, package_id, package_name, credits, spent, revoked,
		amount_paid, currency, status, paid_at, expires_at
		FROM credit_purchases WHERE status IN ('paid', 'refunded') ORDER BY paid_at DESC, id DESC LIMIT $1`, PackageSalesLimit)
	if err != nil {
		return nil, fmt.Errorf("read package sales: %w", err)
	}
	defer func() { _ = rows.Close() }()
	now := s.now()
	out := []PackageSale{}
	for rows.Next() {
		var (
			p             PackageSale
			revoked       int
			paid, expires store.Time
		)
		if err := rows.Scan(&p.ID, &p.Name, &p.Email, &p.Package, &p.PackageName, &p.Credits, &p.Spent, &revoked,
			&p.AmountPaid, &p.Currency, &p.Status, &paid, &expires); err != nil {
			return nil, fmt.Errorf("read package sales: %w", err)
		}
		p.PaidAt, p.ExpiresAt = paid.Time, expires.Time
		p.Left = max(p.Credits-p.Spent-revoked, 0)
		if p.Status == PurchasePaid && !now.Before(p.ExpiresAt) {
			p.Status = PurchaseLapsed
		}
		if p.Status != PurchasePaid {
			p.Left = 0
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PackageTakings lists the packages' payments received and refunds made
// in [from, to), as Takings does for bookings (the owner's insights). The
// amount is what was really paid. A refunded package counts its whole
// payment back at the refund (its status change), the way the refund
// webhook removes its credits; a booking paid with a credit has no
// payment of its own, so a package's money is counted once.
func PackageTakings(ctx context.Context, db *store.DB, from, to time.Time) ([]Taking, error) {
	out := []Taking{}
	for _, q := range []struct {
		sql    string
		refund bool
	}{
		{`SELECT paid_at, amount_paid, currency FROM credit_purchases
			WHERE status IN ('paid', 'refunded') AND paid_at >= $1 AND paid_at < $2 ORDER BY paid_at`, false},
		{`SELECT updated_at, amount_paid, currency FROM credit_purchases
			WHERE status = 'refunded' AND updated_at >= $1 AND updated_at < $2 ORDER BY updated_at`, true},
	} {
		rows, err := db.ReadRows(ctx, q.sql, store.At(from), store.At(to))
		if err != nil {
			return nil, fmt.Errorf("read package takings: %w", err)
		}
		for rows.Next() {
			var (
				t  Taking
				at store.Time
			)
			if err := rows.Scan(&at, &t.Amount, &t.Currency); err != nil {
				_ = rows.Close()
				return nil, fmt.Errorf("read package takings: %w", err)
			}
			t.At, t.Refund = at.Time, q.refund
			out = append(out, t)
		}
		err = rows.Err()
		_ = rows.Close()
		if err != nil {
			return nil, fmt.Errorf("read package takings: %w", err)
		}
	}
	return out, nil
}
