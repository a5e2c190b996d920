package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"tribe/internal/auth"
	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/services"
)

const adminUsage = `Usage:
  tribe admin grant EMAIL    give the account with this address admin rights
  tribe admin revoke EMAIL   take an operator grant away again
  tribe admin list           list admins (operator grants and configuration)

  tribe admin comp EMAIL [--until YYYY-MM-DD]
                             complimentary tribe membership: access without
                             payment, through the end of the given day (UTC)
                             or without an end; it counts toward TRIBE_CAPACITY
  tribe admin uncomp EMAIL   end a complimentary membership now
  tribe admin members        list members: status, joined date, complimentary

Admin rights need a confirmed e-mail address, whichever way they are given.
`

// runAdmin is `tribe admin ...`: operator grants of the admin role.
func runAdmin(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		_, _ = fmt.Fprint(stdout, adminUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	sub := args[0]
	if msg := checkAdminArgs(args); msg != "" {
		_, _ = fmt.Fprintln(stderr, msg)
		return 2
	}
	cfg, err := config.Load(os.Getenv, ".env")
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe: configuration:", err)
		return 1
	}
	if err := cfg.PrepareDataDir(); err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := admin(ctx, cfg, args, stdout); err != nil {
		_, _ = fmt.Fprintf(stderr, "tribe admin %s: %v\n", sub, err)
		return 1
	}
	return 0
}

func admin(ctx context.Context, cfg *config.Config, args []string, stdout io.Writer) error {
	db, _, err := openMigrated(ctx, cfg)
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }()
	// The same services serve builds; Stripe failures that do not fail a
	// command go to the default logger (standard error).
	// Admin commands do not book; a content file that does not load must not
	// stop them, so the shipped content stands in.
	site, err := content.Load(cfg.ContentDir)
	if err != nil {
		if site, err = content.Load(""); err != nil {
			return err
		}
	}
	set := services.New(cfg, db, site, slog.Default())
	defer set.Close()
	svc := set.Auth
	switch args[0] {
	case "grant":
		return adminGrant(ctx, svc, args[1], stdout)
	case "revoke":
		return adminRevoke(ctx, svc, args[1], stdout)
	case "comp", "uncomp", "members":
		return adminMembership(ctx, set.Billing, svc, args, stdout)
	default:
		return adminList(ctx, svc, stdout)
	}
}

// checkAdminArgs returns what is wrong with the arguments, or "".
func checkAdminArgs(args []string) string {
	sub := args[0]
	switch sub {
	case "grant", "revoke", "uncomp":
		if len(args) != 2 {
			return fmt.Sprintf("tribe admin %s: give exactly one e-mail address, e.g. tribe admin %s ada@example.com", sub, sub)
		}
	case "list", "members":
		if len(args) != 1 {
			return fmt.Sprintf("tribe admin %s: takes no arguments", sub)
		}
	case "comp":
		if _, _, err := compArgs(args[1:]); err != nil {
			return "tribe admin comp: " + err.Error()
		}
	default:
		return fmt.Sprintf("tribe admin: unknown command %q; use grant, revoke, list, comp, uncomp or members", sub)
	}
	return ""
}

func noAccount(err error, email string) error {
	if errors.Is(err, auth.ErrNoSuchUser) {
		return fmt.Errorf("no account has the e-mail address %s; the person must sign up first", strings.TrimSpace(email))
	}
	return err
}

func adminGrant(ctx context.Context, svc *auth.Service, email string, stdout io.Writer) error {
	added, err := svc.GrantAdmin(ctx, email)
	if err != nil {
		return noAccount(err, email)
	}
	entry, err := findAdmin(ctx, svc, email)
	if err != nil {
		return err
	}
	msg := entry.Email + " is now an admin (operator grant)."
	if !added {
		msg = entry.Email + " already has an operator grant; nothing changed."
	}
	if !entry.Confirmed {
		msg += " It takes effect once the address is confirmed."
	}
	_, _ = fmt.Fprintln(stdout, msg)
	return nil
}

func adminRevoke(ctx context.Context, svc *auth.Service, email string, stdout io.Writer) error {
	removed, err := svc.RevokeAdmin(ctx, email)
	if err != nil {
		return noAccount(err, email)
	}
	addr := auth.NormalizeEmail(email)
	msg := "Removed the operator grant of " + addr + "."
	if !removed {
		msg = addr + " had no operator grant; nothing changed."
	}
	if svc.IsConfiguredAdmin(addr) {
		msg += " TRIBE_ADMIN_EMAILS or TRIBE_ADMIN_DOMAIN still makes it an admin."
	}
	_, _ = fmt.Fprintln(stdout, msg)
	return nil
}

func findAdmin(ctx context.Context, svc *auth.Service, email string) (auth.AdminEntry, error) {
	list, err := svc.ListAdmins(ctx)
	if err != nil {
		return auth.AdminEntry{}, err
	}
	for _, e := range list {
		if auth.NormalizeEmail(e.Email) == auth.NormalizeEmail(email) {
			return e, nil
		}
	}
	return auth.AdminEntry{}, fmt.Errorf("the grant of %s was not found after writing it", email)
}

func adminList(ctx context.Context, svc *auth.Service, stdout io.Writer) error {
	list, err := svc.ListAdmins(ctx)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		_, _ = fmt.Fprintln(stdout, "No admins yet: grant one with `tribe admin grant EMAIL` or set TRIBE_ADMIN_EMAILS.")
		return nil
	}
	for _, e := range list {
		state := "admin"
		if !e.Active {
			state = "not yet: address unconfirmed"
		}
		_, _ = fmt.Fprintf(stdout, "%s\t%s\t(%s)\n", e.Email, state, strings.Join(e.Sources, ", "))
	}
	return nil
}
