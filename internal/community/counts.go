package community

import (
	"context"
	"fmt"

	"tribe/internal/store"
)

// countsBy runs a query answering (id, count) rows and returns the counts
// by id; what names the count in errors ("count rsvps").
func countsBy(ctx context.Context, db *store.DB, what, query string) (map[string]int, error) {
	rows, err := db.ReadRows(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out[id] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}
