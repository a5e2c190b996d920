package auth

import (
	"context"
	"database/sql"
	"fmt"
)

// TakeoverStep clears, inside tx, part of what someone who made an account
// with an address they did not own left in it, when the owner of the address
// takes the account over. The function it returns (nil for none) runs after
// the transaction commits, for work outside the database: files, payment
// provider calls. Packages that own such data provide a step; WithTakeover
// puts it in the service.
type TakeoverStep func(ctx context.Context, tx *sql.Tx, userID string) (after func(context.Context), err error)

// WithTakeover adds steps run on every takeover (see ResetPassword).
func WithTakeover(steps ...TakeoverStep) Option {
	return func(s *Service) { s.takeover = append(s.takeover, steps...) }
}

// takeOver runs the takeover steps in tx and returns what is left to run
// after the commit.
//
// A takeover is the password reset of an account whose address was never
// confirmed: whoever made it never proved the mailbox, and the person
// resetting just did, so everything written before belongs to someone else.
// Confirming an address is never a takeover: it needs a session of the
// account and the mailbox, so the confirmer is who made the account. A reset
// of a confirmed account is its owner's own, and keeps everything.
func (s *Service) takeOver(ctx context.Context, tx *sql.Tx, userID string) ([]func(context.Context), error) {
	var after []func(context.Context)
	for _, step := range s.takeover {
		fn, err := step(ctx, tx, userID)
		if err != nil {
			return nil, fmt.Errorf("take over account %s: %w", userID, err)
		}
		if fn != nil {
			after = append(after, fn)
		}
	}
	return after, nil
}
