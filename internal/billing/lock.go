package billing

import (
	"context"
	"database/sql"
	"fmt"

	"tribe/internal/store"
)

// lock serialises transactions that name the same key until the
// transaction ends. SQLite needs nothing: its write transactions already run
// one at a time. PostgreSQL takes a transaction-scoped advisory lock keyed by
// the schema and the key, so deployments (and tests) in other schemas of one
// database do not wait on each other's keys more than a hash collision makes
// them.
func lock(ctx context.Context, db *store.DB, tx *sql.Tx, key string) error {
	if db.Dialect != store.Postgres {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ':' || $1, 0))`, key); err != nil {
		return fmt.Errorf("lock %s: %w", key, err)
	}
	return nil
}

// seatsKey guards the count of seats: every checkout hold is taken under it.
const seatsKey = "billing:seats"

// memberKey guards one member's subscription row while an event or an admin
// change is applied to it.
func memberKey(userID string) string { return "billing:member:" + userID }
