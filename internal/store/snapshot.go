package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// snapshot is the last value ReadThrough loaded for one table, with the
// table's change count read before loading it.
type snapshot struct {
	mu      sync.Mutex
	loaded  bool
	version int64
	value   any
}

// ReadThrough returns what load returned for table the last time, unless
// the table has changed since, in which case it calls load again and keeps
// the answer. table must be counted in table_versions (migration 0007 has
// the triggers), so a change made by any process or instance is seen on the
// next call. Every caller gets the same value: none may modify it.
func ReadThrough[T any](ctx context.Context, db *DB, table string, load func(context.Context) (T, error)) (T, error) {
	var zero T
	// The count is read before the table, so a value is never kept under a
	// count newer than its data; a change racing the load only costs one
	// more load on the next call.
	var version int64
	if err := db.ReadRow(ctx, `SELECT version FROM table_versions WHERE name = $1`, table).Scan(&version); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			err = errors.New("its changes are not counted in table_versions")
		}
		return zero, fmt.Errorf("read %s version: %w", table, err)
	}
	entry, _ := db.snapshots.LoadOrStore(table, &snapshot{})
	s := entry.(*snapshot)
	s.mu.Lock()
	if s.loaded && s.version == version {
		v := s.value.(T)
		s.mu.Unlock()
		return v, nil
	}
	s.mu.Unlock()
	v, err := load(ctx)
	if err != nil {
		return zero, err
	}
	s.mu.Lock()
	if !s.loaded || version >= s.version {
		s.loaded, s.version, s.value = true, version, v
	}
	s.mu.Unlock()
	return v, nil
}
