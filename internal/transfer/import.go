package transfer

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/clock"
	"tribe/internal/csvx"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// Import limits: a file larger or longer is refused whole.
const (
	MaxImportBytes = 2 << 20
	MaxImportRows  = 5000
)

// Importer applies a members file through the accounts' and billing's own
// code: accounts are made without a password or a mail
// (auth.CreateImportedTx), complimentary memberships through
// billing.CompTx (the path an admin's grant takes, welcome mail included),
// Stripe customers linked with billing.LinkCustomerTx.
type Importer struct {
	DB      *store.DB
	Auth    *auth.Service
	Billing *billing.Service
	// Now is the clock a complimentary end is checked against.
	Now clock.Clock
}

// columns is where each field the import reads sits in the file (-1: absent).
type columns struct{ name, email, comp, until, customer int }

// aliases are the header names each field is recognised by (lower case,
// spaces and dashes read as underscores).
var aliases = map[string][]string{
	"name":     {"full_name", "name"},
	"email":    {"email", "e_mail", "email_address"},
	"comp":     {"complimentary"},
	"until":    {"complimentary_until", "comp_until"},
	"customer": {"stripe_customer_id", "customer_id"},
}

var customerPattern = regexp.MustCompile(`^cus_[A-Za-z0-9]{1,250}$`)

// errDryRun rolls a dry run back once everything has been tried.
var errDryRun = errors.New("dry run")

// Members reads a members file and applies it in one transaction, or with
// dryRun tries every row the same way and rolls everything back. A row is
// refused (and nothing of it written) for an invalid name or address, an
// address seen on an earlier row, an unreadable or past end date, a
// customer id that is malformed or linked elsewhere, and whatever the
// grant refuses (a paying member, a full tribe). Applying the same file
// again changes nothing. Existing accounts keep their name (it is theirs),
// and an import never ends a membership.
func (im *Importer) Members(ctx context.Context, body io.Reader, dryRun bool) (ImportReport, error) {
	recs, err := readFile(body)
	if err != nil {
		return ImportReport{}, err
	}
	cols, err := findColumns(recs[0])
	if err != nil {
		return ImportReport{}, err
	}
	rep := ImportReport{DryRun: dryRun, Rows: len(recs) - 1, Changes: []ImportChange{}, Refused: []ImportRefusal{}}
	var afters []func()
	hash := ""
	err = im.DB.Tx(ctx, func(tx *sql.Tx) error {
		seen := map[string]int{}
		for i, rec := range recs[1:] {
			row := i + 2
			get := func(c int) string {
				if c < 0 || c >= len(rec) {
					return ""
				}
				return strings.TrimSpace(csvx.Restore(rec[c]))
			}
			email := get(cols.email)
			refuse := func(reason string) { rep.Refused = append(rep.Refused, ImportRefusal{row, email, reason}) }
			in, reason := parseRow(get(cols.name), email, get(cols.comp), get(cols.until), get(cols.customer), im.Now())
			if reason != "" {
				refuse(reason)
				continue
			}
			if first, ok := seen[in.key]; ok {
				refuse(fmt.Sprintf("This address is already on row %d.", first))
				continue
			}
			seen[in.key] = row
			if in.create && hash == "" {
				if hash, err = im.Auth.LockedPasswordHash(ctx); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, `SAVEPOINT import_row`); err != nil {
				return fmt.Errorf("import row %d: %w", row, err)
			}
			ch, after, err := im.apply(ctx, tx, in, hash)
			var refusal *errs.Error
			if errors.As(err, &refusal) {
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT import_row`); err != nil {
					return fmt.Errorf("import row %d: %w", row, err)
				}
				refuse(refusal.Message)
				continue
			}
			if err != nil {
				return fmt.Errorf("import row %d: %w", row, err)
			}
			if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT import_row`); err != nil {
				return fmt.Errorf("import row %d: %w", row, err)
			}
			if after != nil {
				afters = append(afters, after)
			}
			switch {
			case ch == nil:
				rep.Unchanged++
			case ch.Action == "create":
				rep.Created++
			default:
				rep.Updated++
			}
			if ch != nil {
				ch.Row = row
				rep.Changes = append(rep.Changes, *ch)
			}
		}
		if dryRun {
			return errDryRun
		}
		return nil
	})
	if errors.Is(err, errDryRun) {
		return rep, nil
	}
	if err != nil {
		return ImportReport{}, err
	}
	for _, f := range afters {
		f()
	}
	return rep, nil
}

// row is one record, checked.
type row struct {
	name, mailbox, key string
	comp               bool
	until              *time.Time // first instant after the last day; nil for no end
	untilDay           string
	customer           string
	create             bool // not known yet: set by apply
}

// parseRow checks a record's cells; reason is why it is refused, "" when
// it is not.
func parseRow(name, email, comp, until, customer string, now time.Time) (row, string) {
	var r row
	addr, err := auth.CheckEmail(email)
	if err != nil {
		return r, "E-mail: " + errs.MessageOf(err)
	}
	r.mailbox, r.key = addr.Mailbox, addr.Key
	if r.name, err = auth.CheckFullName(name); err != nil {
		return r, "Name: " + errs.MessageOf(err)
	}
	switch strings.ToLower(comp) {
	case "", "no", "false", "0":
	case "yes", "true", "1":
		r.comp = true
	default:
		return r, fmt.Sprintf("Complimentary must be yes or no, not %q.", comp)
	}
	if until != "" {
		day, err := time.Parse(time.DateOnly, until)
		if err != nil {
			return r, fmt.Sprintf("The complimentary end %q is not a date written YYYY-MM-DD.", until)
		}
		end := day.AddDate(0, 0, 1) // through the end of that day, as an admin's grant
		if !end.After(now) {
			return r, fmt.Sprintf("The complimentary membership ended on %s; leave the end empty to import a free member.", until)
		}
		r.comp, r.until, r.untilDay = true, &end, until
	}
	if customer != "" && !customerPattern.MatchString(customer) {
		return r, fmt.Sprintf("%q is not a Stripe customer id (cus_…).", customer)
	}
	r.customer = customer
	return r, ""
}

// apply makes one checked row true, inside the row's savepoint. It returns
// nil when nothing changed, and what to run after the commit.
func (im *Importer) apply(ctx context.Context, tx *sql.Tx, in row, hash string) (*ImportChange, func(), error) {
	acct, err := im.Auth.AccountByEmailTx(ctx, tx, in.key)
	if err != nil {
		return nil, nil, err
	}
	ch := &ImportChange{Email: in.mailbox, FullName: in.name, Action: "update", Details: []string{}}
	var id string
	var before billing.Standing
	if acct == nil {
		if id, err = im.Auth.CreateImportedTx(ctx, tx, in.name, in.mailbox, in.key, hash); err != nil {
			return nil, nil, err
		}
		ch.Action = "create"
		ch.Details = append(ch.Details, "New account, without a password: the member sets one with “Forgot password”. No e-mail is sent for it.")
	} else {
		id, ch.Email, ch.FullName = acct.ID, acct.Email, acct.FullName
		if before, err = im.Billing.StandingTx(ctx, tx, id); err != nil {
			return nil, nil, err
		}
	}
	grant := in.comp && (!before.Complimentary || before.Until != in.untilDay)
	link := in.customer != "" && before.Customer != in.customer
	if acct != nil && !acct.Confirmed && (grant || link) {
		// Whoever made this account never proved the mailbox: a membership
		// or a Stripe customer given to it now would be theirs, not the
		// member's (the takeover rule of sign-up).
		return nil, nil, errs.New(errs.Conflict, "This address has an account whose address was never confirmed, "+
			"so it may have been made by someone else. Nothing is given to it until the member confirms the address "+
			"(the link in their confirmation e-mail, or “Forgot password”); import the file again after that.")
	}
	var after func()
	if grant {
		if after, err = im.Billing.CompTx(ctx, tx, id, in.until); err != nil {
			return nil, nil, err
		}
		end := "with no end"
		if in.untilDay != "" {
			end = "until " + in.untilDay
		}
		d := "Complimentary membership " + end + "."
		if before.Complimentary {
			d = "Complimentary membership now " + end + "."
		} else if !before.Paying {
			d += " The member gets the welcome e-mail, as for any new complimentary member."
		}
		ch.Details = append(ch.Details, d)
	}
	if link {
		if err := im.Billing.LinkCustomerTx(ctx, tx, id, in.customer); err != nil {
			return nil, nil, err
		}
		ch.Details = append(ch.Details, "Linked to Stripe customer "+in.customer+".")
	}
	if len(ch.Details) == 0 {
		return nil, after, nil
	}
	return ch, after, nil
}

// readFile reads a whole CSV file, refusing one too large, not UTF-8, not
// CSV, without a data row or with too many.
func readFile(body io.Reader) ([][]string, error) {
	raw, err := io.ReadAll(io.LimitReader(body, MaxImportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read import: %w", err)
	}
	if len(raw) > MaxImportBytes {
		return nil, errs.Errorf(errs.TooLarge, "The file is larger than %d MB; split it and import the parts.", MaxImportBytes>>20)
	}
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf")) // a spreadsheet's byte-order mark
	if !utf8.Valid(raw) {
		return nil, errs.Field("file", "The file is not UTF-8 text. Save it as “CSV UTF-8” and try again.")
	}
	r := csv.NewReader(bytes.NewReader(raw))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		return nil, errs.Field("file", "The file is not valid CSV: "+err.Error()+".")
	}
	if len(recs) < 2 {
		return nil, errs.Field("file", "The file has no members: a header row, then one row per member.")
	}
	if len(recs)-1 > MaxImportRows {
		return nil, errs.Errorf(errs.TooLarge, "The file has %d rows; at most %d can be imported at once.", len(recs)-1, MaxImportRows)
	}
	return recs, nil
}

// findColumns reads the header row.
func findColumns(header []string) (columns, error) {
	at := map[string]int{}
	for i, h := range header {
		k := strings.ToLower(strings.TrimSpace(csvx.Restore(h)))
		k = strings.NewReplacer(" ", "_", "-", "_").Replace(k)
		if _, dup := at[k]; !dup {
			at[k] = i
		}
	}
	find := func(field string) int {
		for _, a := range aliases[field] {
			if i, ok := at[a]; ok {
				return i
			}
		}
		return -1
	}
	c := columns{name: find("name"), email: find("email"), comp: find("comp"), until: find("until"), customer: find("customer")}
	if c.email < 0 || c.name < 0 {
		return c, errs.Field("file", "The header row must name the columns full_name and email (optional: complimentary, complimentary_until, stripe_customer_id).")
	}
	return c, nil
}
