package auth

import (
	"context"
	"fmt"
	"time"

	"tribe/internal/store"
)

// AccountTimes returns when each account was created, oldest first (the
// owner's insights count free members from them). The list is kept until
// an account is added or removed (table_versions "users_created"); callers
// must not change it.
func AccountTimes(ctx context.Context, db *store.DB) ([]time.Time, error) {
	return store.ReadThrough(ctx, db, "users_created", func(ctx context.Context) ([]time.Time, error) {
		return readAccountTimes(ctx, db)
	})
}

func readAccountTimes(ctx context.Context, db *store.DB) ([]time.Time, error) {
	rows, err := db.Read.QueryContext(ctx, `SELECT created_at FROM users ORDER BY created_at`)
	if err != nil {
		return nil, fmt.Errorf("read account times: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []time.Time{}
	for rows.Next() {
		var t store.Time
		if err := rows.Scan(&t); err != nil {
			return nil, fmt.Errorf("read account times: %w", err)
		}
		out = append(out, t.Time)
	}
	return out, rows.Err()
}
