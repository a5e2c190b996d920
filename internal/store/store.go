// Package store opens the database (SQLite or PostgreSQL), applies the embedded
// migrations and runs transactions. Domain packages keep their SQL next to their
// own code and reach the database through a *DB.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// Dialect names the database engine behind a DB.
type Dialect string

// The two supported engines.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// readConns is the size of SQLite's pool of read-only connections (see
// openSQLite for why it is larger than the requests one process serves at once).
const readConns = 32

// DB is an open database. Writes go through Write; reads may use Read. On
// SQLite, Write holds a single connection so writers queue inside the process
// instead of failing with "database is locked", while Read serves many
// concurrent readers (WAL lets them run beside the writer). On PostgreSQL both
// are the same pool.
type DB struct {
	Dialect Dialect
	Write   *sql.DB
	Read    *sql.DB
	// Path is the SQLite file, empty on PostgreSQL.
	Path string

	stmts sync.Map // query text -> *sql.Stmt prepared on Read; see ReadRows
	// snapshots are values kept by ReadThrough, by table name.
	snapshots sync.Map // table -> *snapshot
	// noSnapshot makes Migrate apply every migration in turn even on a
	// fresh SQLite database (the test that checks the snapshot).
	noSnapshot bool
}

// IsPostgresURL reports whether s selects the PostgreSQL engine.
func IsPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// SQLitePath is where the SQLite database lives inside a data directory.
func SQLitePath(dataDir string) string { return filepath.Join(dataDir, "tribe.db") }

// Open connects to PostgreSQL when databaseURL is a postgres:// URL and
// otherwise opens (creating if needed) the SQLite file in dataDir. It checks
// that the database answers before returning.
func Open(ctx context.Context, databaseURL, dataDir string) (*DB, error) {
	if IsPostgresURL(databaseURL) {
		return openPostgres(ctx, databaseURL)
	}
	if databaseURL != "" {
		return nil, fmt.Errorf("DATABASE_URL must start with postgres:// or postgresql:// (or be empty for SQLite)")
	}
	return openSQLite(ctx, SQLitePath(dataDir))
}

func openPostgres(ctx context.Context, databaseURL string) (*DB, error) {
	pool, err := sql.Open("pgx", databaseURL)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	pool.SetMaxOpenConns(20)
	pool.SetMaxIdleConns(10)
	pool.SetConnMaxIdleTime(5 * time.Minute)
	db := &DB{Dialect: Postgres, Write: pool, Read: pool}
	if err := db.Ping(ctx); err != nil {
		_ = pool.Close()
		// pgx lists each address it tried on its own line; keep the message to one.
		return nil, fmt.Errorf("connect to postgres at %s: %s", redact(databaseURL), strings.Join(strings.Fields(err.Error()), " "))
	}
	return db, nil
}

func openSQLite(ctx context.Context, path string) (*DB, error) {
	// busy_timeout comes first so the following pragmas wait for another
	// process instead of failing. _txlock=immediate takes the write lock at
	// BEGIN, which avoids lock-upgrade deadlocks between processes.
	base := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=busy_timeout(15000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
	w, err := sql.Open("sqlite", base+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	r, err := sql.Open("sqlite", base+"&_pragma=query_only(1)")
	if err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	// More readers than requests in flight: database/sql hands a freed
	// connection to a random waiter, so a small pool under load makes a few
	// requests wait many turns (the tail of the latency); with enough
	// connections they wait in Go's scheduler instead, which is fair. An
	// idle reader costs its page cache only once it has read.
	r.SetMaxOpenConns(readConns)
	r.SetMaxIdleConns(readConns)
	db := &DB{Dialect: SQLite, Write: w, Read: r, Path: path}
	if err := db.Ping(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	return db, nil
}

// Ping checks that the database answers a query.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	if err := db.Read.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("ping %s: %w", db.Dialect, err)
	}
	if db.Write != db.Read {
		if err := db.Write.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
			return fmt.Errorf("ping %s writer: %w", db.Dialect, err)
		}
	}
	return nil
}

// Close releases every connection.
func (db *DB) Close() error {
	db.stmts.Range(func(_, v any) bool {
		_ = v.(*sql.Stmt).Close()
		return true
	})
	err := db.Write.Close()
	if db.Read != db.Write {
		err = errors.Join(err, db.Read.Close())
	}
	return err
}

// Tx runs fn in one write transaction, committing when fn returns nil and
// rolling back otherwise, so multi-row changes are never half-written.
func (db *DB) Tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := db.Write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	if err := fn(tx); err != nil {
		if rbErr := tx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
			return errors.Join(err, fmt.Errorf("rollback: %w", rbErr))
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit transaction: %w", err)
	}
	return nil
}

// redact hides the password of a database URL for messages and logs.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}
