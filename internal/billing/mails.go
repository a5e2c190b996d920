package billing

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"tribe/internal/mail"
)

// recipient is a member's address and the name to greet them by.
func recipient(ctx context.Context, q querier, userID string) (email, name string, err error) {
	err = q.QueryRowContext(ctx,
		`SELECT u.email, COALESCE(p.full_name, '') FROM users u LEFT JOIN profiles p ON p.id = u.id WHERE u.id = $1`,
		userID).Scan(&email, &name)
	if err != nil {
		return "", "", fmt.Errorf("read the address of %s: %w", userID, err)
	}
	return email, strings.TrimSpace(name), nil
}

func greeting(name string) string {
	if name == "" {
		return "Hello,"
	}
	return "Hello " + strings.Fields(name)[0] + ","
}

func longDate(t time.Time) string { return t.UTC().Format("January 2, 2006") }

func (s *Service) membersURL() string { return s.cfg.BaseURL + "/members" }

// mailWelcome greets a member whose access just started, with the
// group-chat invitation when one is configured.
func (s *Service) mailWelcome(ctx context.Context, tx *sql.Tx, userID string) error {
	to, name, err := recipient(ctx, tx, userID)
	if err != nil {
		return err
	}
	c := mail.Content{
		To:      to,
		Subject: "Welcome to the tribe",
		Heading: "Welcome to the tribe",
		Paragraphs: []string{
			greeting(name),
			"Your membership is active. In the members area you'll find the live group sessions (every two weeks, two hours each) with their join links, and the cohorts where members build together.",
		},
		Button: &mail.Link{Label: "Open the members area", URL: s.membersURL()},
		Footer: "You received this because your tribe membership started.",
	}
	if s.cfg.GroupChatURL != "" {
		c.Paragraphs = append(c.Paragraphs,
			"Join the members' group chat here: "+s.cfg.GroupChatURL+" (please keep this invitation to yourself).")
	}
	return enqueue(ctx, tx, c)
}

// mailPaymentFailed tells a member that a renewal payment failed and where
// to fix it; their access continues while Stripe retries.
func (s *Service) mailPaymentFailed(ctx context.Context, tx *sql.Tx, userID string) error {
	to, name, err := recipient(ctx, tx, userID)
	if err != nil {
		return err
	}
	return enqueue(ctx, tx, mail.Content{
		To:      to,
		Subject: "Your tribe payment did not go through",
		Heading: "Your payment did not go through",
		Paragraphs: []string{
			greeting(name),
			"We could not collect this month's tribe membership payment. Your access continues while the payment is retried over the next days.",
			"To update your card, open the members area and choose Manage in the subscription panel.",
		},
		Button: &mail.Link{Label: "Update my payment method", URL: s.membersURL()},
		Footer: "You received this because a payment for your tribe membership failed.",
	})
}

// mailCancelScheduled confirms that a membership will end at end.
func (s *Service) mailCancelScheduled(ctx context.Context, tx *sql.Tx, userID string, end time.Time) error {
	to, name, err := recipient(ctx, tx, userID)
	if err != nil {
		return err
	}
	when, subject := "at the end of the current period", "Your tribe membership will end"
	if !end.IsZero() {
		when = "on " + longDate(end)
		subject += " on " + longDate(end)
	}
	return enqueue(ctx, tx, mail.Content{
		To:      to,
		Subject: subject,
		Heading: "Your membership is cancelled",
		Paragraphs: []string{
			greeting(name),
			"Your tribe membership will not renew. You keep full access until it ends " + when + ", and you will not be charged again.",
			"Changed your mind? Choose Manage in the members area to keep your membership.",
		},
		Button: &mail.Link{Label: "Open the members area", URL: s.membersURL()},
		Footer: "You received this because the cancellation of your tribe membership was scheduled.",
	})
}

func enqueue(ctx context.Context, tx *sql.Tx, c mail.Content) error {
	if _, err := mail.Enqueue(ctx, tx, mail.Compose(c)); err != nil {
		return fmt.Errorf("queue %q: %w", c.Subject, err)
	}
	return nil
}
