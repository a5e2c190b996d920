package auth

import (
	"context"
	"database/sql"
	"fmt"

	"tribe/internal/errs"
)

// ErrConfirmNeedsSignIn: a confirmation link opened in a browser that is not
// signed in to the account it confirms. The link stays unused.
//
// Anyone can sign up with an address they do not own, and the owner of the
// address then gets the confirmation mail. If opening the link confirmed the
// account, the person who made it (and knows its password) would hold a
// confirmed account, an admin one when the address is on the admin list.
// Only someone who holds both the mailbox and a session of the account may
// confirm it; the owner of a squatted address takes it over with a password
// reset instead, which ends everything the squatter held.
var ErrConfirmNeedsSignIn = errs.New(errs.Unauthorized,
	"Sign in to the account this link confirms, then open the link again.")

// credentialTables hold, per user, tokens other than the browser session
// that act for the account without its password (a calendar-feed URL; an
// assistant's OAuth grant). Each has a user_id column. Proving the mailbox
// (a confirmation or a password reset) revokes all of them, because they may
// have been made by someone who signed up with an address they did not own.
// TestEveryTokenTableIsRevoked fails for a token table missing here.
//
// The tables belong to other packages (calendar_feeds to community); the
// rule of what dies when the address is proven is the account's, so it
// lives here, in the transaction that proves it.
var credentialTables = []string{"calendar_feeds", "oauth_grants"} // a grant's codes and tokens go with it (ON DELETE CASCADE)

// revokeCredentials ends every browser session of userID except
// keepSessionID ("" keeps none) and deletes every token in credentialTables,
// inside tx, so the proof of the address and the revocation commit together.
// Mailed links (email_tokens) stay: they went to the mailbox just proven.
func revokeCredentials(ctx context.Context, tx *sql.Tx, userID, keepSessionID string) error {
	if _, err := tx.ExecContext(ctx,
		`DELETE FROM auth_sessions WHERE user_id = $1 AND id <> $2`, userID, keepSessionID); err != nil {
		return fmt.Errorf("end sessions of %s: %w", userID, err)
	}
	for _, table := range credentialTables {
		// table comes from the constant list above, never from input.
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("revoke %s of %s: %w", table, userID, err)
		}
	}
	return nil
}
