package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"modernc.org/sqlite"
)

// ErrNotSQLite refuses an SQLite-only operation on PostgreSQL.
var ErrNotSQLite = errors.New("this works on the SQLite engine only")

// BackupSQLite writes a consistent copy of the SQLite database to the file
// dst with SQLite's online backup API, read from a read-only connection, so
// the site keeps serving (WAL lets writers go on) while it runs.
func (db *DB) BackupSQLite(ctx context.Context, dst string) error {
	if db.Dialect != SQLite {
		return ErrNotSQLite
	}
	conn, err := db.Read.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backup: open a read connection: %w", err)
	}
	defer func() { _ = conn.Close() }()
	return conn.Raw(func(dc any) error {
		src, ok := dc.(interface {
			NewBackup(string) (*sqlite.Backup, error)
		})
		if !ok {
			return fmt.Errorf("backup: the SQLite driver has no backup API (%T)", dc)
		}
		b, err := src.NewBackup(dst)
		if err != nil {
			return fmt.Errorf("backup: start: %w", err)
		}
		// All pages in one step: the copy is one snapshot, however many
		// writes happen meanwhile.
		_, stepErr := b.Step(-1)
		if err := errors.Join(stepErr, b.Finish()); err != nil {
			return fmt.Errorf("backup: copy: %w", err)
		}
		return nil
	})
}

// IntegrityCheck runs SQLite's integrity check and returns its findings
// ("ok" when the file is sound).
func IntegrityCheck(ctx context.Context, path string) (string, error) {
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return "", fmt.Errorf("open %s: %w", path, err)
	}
	defer func() { _ = raw.Close() }()
	var result string
	if err := raw.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&result); err != nil {
		return "", fmt.Errorf("integrity check of %s: %w", path, err)
	}
	return result, nil
}
