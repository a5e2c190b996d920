package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations
var migrationFiles embed.FS

// Migration is one versioned schema change.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Migrations lists the embedded migrations of a dialect in version order.
func Migrations(d Dialect) ([]Migration, error) {
	dir := path.Join("migrations", string(d))
	entries, err := fs.ReadDir(migrationFiles, dir)
	if err != nil {
		return nil, fmt.Errorf("read %s migrations: %w", d, err)
	}
	var out []Migration
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".sql") {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration file %s/%s: name must look like 0001_description.sql", dir, name)
		}
		body, err := fs.ReadFile(migrationFiles, path.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", name, err)
		}
		out = append(out, Migration{Version: v, Name: strings.TrimSuffix(name, ".sql"), SQL: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i := 1; i < len(out); i++ {
		if out[i].Version == out[i-1].Version {
			return nil, fmt.Errorf("two %s migrations share version %d", d, out[i].Version)
		}
	}
	return out, nil
}

// Migrate applies every pending migration and returns the names it applied.
// It is safe to run twice and from several processes at once: PostgreSQL
// serialises runners with an advisory lock, SQLite with its write lock.
func (db *DB) Migrate(ctx context.Context) ([]string, error) {
	migs, err := Migrations(db.Dialect)
	if err != nil {
		return nil, err
	}
	switch db.Dialect {
	case Postgres:
		return db.migratePostgres(ctx, migs)
	default:
		return db.migrateSQLite(ctx, migs)
	}
}

const createMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	applied_at TEXT NOT NULL
)`

func (db *DB) migrateSQLite(ctx context.Context, migs []Migration) ([]string, error) {
	var applied []string
	// One immediate transaction holds the write lock for the whole run, so a
	// second process waits (busy_timeout) and then finds nothing to do.
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, createMigrationsTable); err != nil {
			return fmt.Errorf("create schema_migrations: %w", err)
		}
		var err error
		var fresh bool
		if applied, fresh, err = db.freshSQLite(ctx, tx, migs); err != nil || fresh {
			return err
		}
		applied, err = applyPending(ctx, tx, migs)
		return err
	})
	return applied, err
}

// freshSQLite builds a database that has no migration applied yet from the
// snapshot of their end state, when the snapshot is theirs (fresh.go).
func (db *DB) freshSQLite(ctx context.Context, tx *sql.Tx, migs []Migration) ([]string, bool, error) {
	if db.noSnapshot {
		return nil, false, nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name <> 'schema_migrations'").Scan(&n); err != nil {
		return nil, false, fmt.Errorf("migrate: read schema: %w", err)
	}
	if n > 0 {
		return nil, false, nil
	}
	return applyFresh(ctx, tx, migs)
}

func (db *DB) migratePostgres(ctx context.Context, migs []Migration) ([]string, error) {
	conn, err := db.Write.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate: get connection: %w", err)
	}
	defer func() { _ = conn.Close() }()
	// The lock key includes the schema so that isolated test schemas in one
	// database do not wait for each other.
	const key = `hashtext('tribe.migrate:' || current_schema())`
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock("+key+")"); err != nil {
		return nil, fmt.Errorf("migrate: take advisory lock: %w", err)
	}
	defer func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock("+key+")")
	}()
	if _, err := conn.ExecContext(ctx, createMigrationsTable); err != nil {
		return nil, fmt.Errorf("create schema_migrations: %w", err)
	}
	var applied []string
	for _, m := range migs {
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return applied, fmt.Errorf("migrate: begin: %w", err)
		}
		names, err := applyPending(ctx, tx, []Migration{m})
		if err != nil {
			_ = tx.Rollback()
			return applied, err
		}
		if err := tx.Commit(); err != nil {
			return applied, fmt.Errorf("migrate %s: commit: %w", m.Name, err)
		}
		applied = append(applied, names...)
	}
	return applied, nil
}

func applyPending(ctx context.Context, tx *sql.Tx, migs []Migration) ([]string, error) {
	// The applied versions are read once and the record statement prepared
	// once: on a fresh database every statement parsed here is start-up time.
	done := map[int]bool{}
	rows, err := tx.QueryContext(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("migrate: read applied versions: %w", err)
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			_ = rows.Close()
			return nil, fmt.Errorf("migrate: read applied versions: %w", err)
		}
		done[v] = true
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("migrate: read applied versions: %w", err)
	}
	var record *sql.Stmt
	var applied []string
	for _, m := range migs {
		if done[m.Version] {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			return nil, fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if record == nil {
			if record, err = tx.PrepareContext(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)"); err != nil {
				return nil, fmt.Errorf("migration %s: record: %w", m.Name, err)
			}
			defer func() { _ = record.Close() }()
		}
		if _, err := record.ExecContext(ctx, m.Version, m.Name, Now().Format(timeLayout)); err != nil {
			return nil, fmt.Errorf("migration %s: record: %w", m.Name, err)
		}
		applied = append(applied, m.Name)
	}
	return applied, nil
}

// SchemaVersion is the highest applied migration, 0 on an empty database.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v sql.NullInt64
	err := db.Read.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_migrations").Scan(&v)
	if err != nil {
		if isMissingTable(err) {
			return 0, nil
		}
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return int(v.Int64), nil
}

func isMissingTable(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "no such table") || strings.Contains(msg, "does not exist") ||
		errors.Is(err, sql.ErrNoRows)
}
