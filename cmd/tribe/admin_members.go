package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/errs"
	"tribe/internal/plural"
)

// compArgs reads `EMAIL [--until YYYY-MM-DD]` (the flag before or after the
// address, also as --until=DATE). until is the first instant after the given
// day (UTC), nil without the flag.
func compArgs(args []string) (email string, until *time.Time, err error) {
	const hint = "give one e-mail address and optionally --until YYYY-MM-DD, e.g. tribe admin comp ada@example.com --until 2027-01-31"
	var date string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--until" || a == "-until":
			if i+1 >= len(args) {
				return "", nil, errors.New("--until needs a date; " + hint)
			}
			date = args[i+1]
			i++
		case strings.HasPrefix(a, "--until="):
			date = strings.TrimPrefix(a, "--until=")
		case strings.HasPrefix(a, "-"):
			return "", nil, fmt.Errorf("unknown flag %s; %s", a, hint)
		case email != "":
			return "", nil, errors.New("more than one address; " + hint)
		default:
			email = a
		}
	}
	if strings.TrimSpace(email) == "" {
		return "", nil, errors.New(hint)
	}
	if date != "" {
		d, err := time.Parse("2006-01-02", date)
		if err != nil {
			return "", nil, fmt.Errorf("--until %q is not a date written YYYY-MM-DD", date)
		}
		end := d.AddDate(0, 0, 1)
		until = &end
	}
	return email, until, nil
}

// adminMembership runs comp, uncomp and members.
func adminMembership(ctx context.Context, bill *billing.Service, users *auth.Service, args []string, stdout io.Writer) error {
	if args[0] == "members" {
		return adminMembers(ctx, bill, stdout)
	}
	email := args[1]
	var until *time.Time
	if args[0] == "comp" {
		email, until, _ = compArgs(args[1:]) // checked by checkAdminArgs
	}
	id, addr, err := users.LookupEmail(ctx, email)
	if err != nil {
		return noAccount(err, email)
	}
	if args[0] == "uncomp" {
		if err := bill.Uncomp(ctx, id); err != nil {
			return personal(err)
		}
		_, _ = fmt.Fprintf(stdout, "%s is no longer a complimentary member.\n", addr)
		return nil
	}
	if err := bill.Comp(ctx, id, until); err != nil {
		return personal(err)
	}
	msg := addr + " is now a complimentary member without an end date."
	if until != nil {
		msg = fmt.Sprintf("%s is now a complimentary member through %s (UTC).",
			addr, until.AddDate(0, 0, -1).Format("January 2, 2006"))
	}
	_, _ = fmt.Fprintln(stdout, msg)
	return nil
}

// personal turns a coded refusal into its message alone.
func personal(err error) error {
	var e *errs.Error
	if errors.As(err, &e) {
		return errors.New(e.Message)
	}
	return err
}

func adminMembers(ctx context.Context, bill *billing.Service, stdout io.Writer) error {
	list, err := bill.ListMembers(ctx)
	if err != nil {
		return err
	}
	st, err := bill.Status(ctx)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		_, _ = fmt.Fprintf(stdout, "No members yet (0 of %s).\n", plural.Count(st.Capacity, "seat", "seats"))
		return nil
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	_, _ = fmt.Fprintln(w, "EMAIL\tNAME\tSTATUS\tACCESS\tJOINED\tCOMPLIMENTARY")
	for _, m := range list {
		comp := "no"
		if m.Complimentary {
			comp = "yes, no end"
			if m.Until != nil {
				comp = "until " + *m.Until
			}
		}
		access := "no"
		if m.HasAccess {
			access = "yes"
		}
		_, _ = fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", m.Email, m.FullName, m.Status, access, m.JoinedAt.Format("2006-01-02"), comp)
	}
	_ = w.Flush()
	_, _ = fmt.Fprintf(stdout, "%d of %s taken.\n", st.ActiveMembers, plural.Count(st.Capacity, "seat", "seats"))
	return nil
}
