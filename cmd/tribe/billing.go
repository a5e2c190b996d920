package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"

	"tribe/internal/billing"
	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/services"
)

const billingUsage = `Usage:
  tribe billing reconcile [--apply]
      list Stripe's subscriptions to STRIPE_PRICE_ID and compare them with the
      site's memberships: missing, extra and differing rows, and MRR on both
      sides to the cent. --apply writes Stripe's state over the site's through
      the code the webhooks use, and records each fix in the membership ledger.

Exit status: 0 when the two sides agree (or every difference was fixed), 3
when differences remain, 1 on an error, 2 on a usage error.
`

// exitDiffers is reconcile's exit status when differences remain.
const exitDiffers = 3

// runBilling is `tribe billing ...`.
func runBilling(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		_, _ = fmt.Fprint(stdout, billingUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] != "reconcile" {
		_, _ = fmt.Fprintf(stderr, "tribe billing: unknown command %q; use reconcile\n", args[0])
		return 2
	}
	apply := false
	for _, a := range args[1:] {
		if a != "--apply" {
			_, _ = fmt.Fprintf(stderr, "tribe billing reconcile: unexpected argument %q; the only option is --apply\n", a)
			return 2
		}
		apply = true
	}
	cfg, err := config.Load(os.Getenv, ".env")
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe: configuration:", err)
		return 1
	}
	if !cfg.PaymentsEnabled() {
		_, _ = fmt.Fprintln(stderr, "tribe billing reconcile: online payment is off; set STRIPE_SECRET_KEY and STRIPE_PRICE_ID")
		return 1
	}
	if err := cfg.PrepareDataDir(); err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	remaining, err := reconcile(ctx, cfg, apply, stdout)
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe billing reconcile:", err)
		return 1
	}
	if remaining > 0 {
		return exitDiffers
	}
	return 0
}

// reconcile runs the comparison and prints it; it returns how many
// differences are left unfixed.
func reconcile(ctx context.Context, cfg *config.Config, apply bool, stdout io.Writer) (int, error) {
	db, _, err := openMigrated(ctx, cfg)
	if err != nil {
		return 0, err
	}
	defer func() { _ = db.Close() }()
	// Reconcile books nothing; a content file that does not load must not
	// stop it, so the shipped content stands in.
	site, err := content.Load(cfg.ContentDir)
	if err != nil {
		if site, err = content.Load(""); err != nil {
			return 0, err
		}
	}
	set := services.New(cfg, db, site, slog.Default())
	defer set.Close()
	r, err := set.Billing.Reconcile(ctx, apply)
	if err != nil {
		return 0, err
	}
	_, _ = fmt.Fprintf(stdout, "Stripe: %d subscriptions to %s. The site: %d paid memberships.\n",
		r.StripeSubscriptions, cfg.StripePriceID, r.SiteMemberships)
	for _, cur := range currencies(r) {
		s, w := r.StripeMRR[cur], r.SiteMRR[cur]
		line := fmt.Sprintf("MRR (%s): Stripe %s, the site %s", strings.ToUpper(cur), billing.FormatMinor(s, cur), billing.FormatMinor(w, cur))
		if s != w {
			line += fmt.Sprintf(", differs by %s", billing.FormatMinor(s-w, cur))
		}
		_, _ = fmt.Fprintln(stdout, line+".")
	}
	remaining := 0
	if len(r.Differences) > 0 {
		tw := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
		_, _ = fmt.Fprintln(tw, "\nKIND\tMEMBER\tSUBSCRIPTION\tSTRIPE\tTHE SITE\tFIXED")
		for _, d := range r.Differences {
			fixed := "no"
			switch {
			case d.Fixed:
				fixed = "yes"
			case d.Why != "":
				fixed = "no: " + d.Why
			}
			if !d.Fixed {
				remaining++
			}
			member := d.Email
			if member == "" {
				member = "-"
			}
			_, _ = fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Kind, member, d.SubscriptionID, d.Stripe, orDash(d.Site), fixed)
		}
		_ = tw.Flush()
	}
	switch {
	case len(r.Differences) == 0:
		_, _ = fmt.Fprintln(stdout, "The site agrees with Stripe.")
	case remaining == 0:
		_, _ = fmt.Fprintf(stdout, "\nFixed %d differences on the site.\n", len(r.Differences))
	case !apply:
		_, _ = fmt.Fprintf(stdout, "\n%d differences. Run `tribe billing reconcile --apply` to write Stripe's state over the site's.\n", remaining)
	default:
		_, _ = fmt.Fprintf(stdout, "\n%d differences could not be fixed (see FIXED).\n", remaining)
	}
	return remaining, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// currencies are the currencies either side has MRR in, in order.
func currencies(r billing.Reconciliation) []string {
	var out []string
	for _, m := range []map[string]int64{r.StripeMRR, r.SiteMRR} {
		for c := range m {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}
