package community

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"tribe/internal/auth"
	"tribe/internal/storage"
	"tribe/internal/store"
)

// ClearSquatter is the takeover step (auth.WithTakeover) for what this
// package keeps of a member: when the owner of an address takes over an
// account someone else made with it, the profile's details (bio, phone,
// location, company, job title) and avatar are cleared, and the account
// leaves its cohort. A cohort the account created goes to the member who
// has been in it longest; one nobody else is in is deleted. The avatar file
// in files is taken out of service after the commit. The full name stays, reported as
// unverified until the owner saves their profile.
func ClearSquatter(files storage.Store) auth.TakeoverStep {
	return func(ctx context.Context, tx *sql.Tx, userID string) (func(context.Context), error) {
		var avatar *string
		err := tx.QueryRowContext(ctx, `SELECT avatar_url FROM profiles WHERE id = $1`, userID).Scan(&avatar)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("read profile of %s: %w", userID, err)
		}
		now := store.Now()
		if _, err := tx.ExecContext(ctx,
			`UPDATE profiles SET bio = '', phone = '', location = '', company = '', job_title = '', avatar_url = NULL,
			   updated_at = $2 WHERE id = $1`, userID, now); err != nil {
			return nil, fmt.Errorf("clear profile of %s: %w", userID, err)
		}
		if _, err := tx.ExecContext(ctx,
			`UPDATE cohorts SET updated_at = $2, created_by = (
			   SELECT m.user_id FROM cohort_members m WHERE m.cohort_id = cohorts.id AND m.user_id <> $1
			   ORDER BY m.joined_at, m.id LIMIT 1)
			 WHERE created_by = $1
			   AND EXISTS (SELECT 1 FROM cohort_members m WHERE m.cohort_id = cohorts.id AND m.user_id <> $1)`,
			userID, now); err != nil {
			return nil, fmt.Errorf("hand over cohorts of %s: %w", userID, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM cohorts WHERE created_by = $1`, userID); err != nil {
			return nil, fmt.Errorf("delete cohorts of %s: %w", userID, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM cohort_members WHERE user_id = $1`, userID); err != nil {
			return nil, fmt.Errorf("leave cohort of %s: %w", userID, err)
		}
		return func(ctx context.Context) { removeAvatarFile(ctx, files, avatar) }, nil
	}
}
