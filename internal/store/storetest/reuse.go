package storetest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/store"
)

// Creating, migrating and dropping a schema costs PostgreSQL about a
// hundred times what emptying a migrated one does (67 tables: seconds
// against tens of milliseconds), and most of the Go suite's PostgreSQL
// time went there. So each test process keeps the schemas its tests used
// and hands them out again, emptied: every row deleted, the rows the
// migrations insert put back, sequences restarted. A schema whose shape a
// test changed (a dropped table, say) is dropped instead. Schemas are named
// for the host and process, so the first test of a later process drops
// those a finished process left behind.
//
// The pool is process-wide on purpose: the schemas outlive any one test.
var reuse schemaPool

type schemaPool struct {
	mu      sync.Mutex
	started bool
	err     error
	admin   *sql.DB
	prefix  string   // tp_<host>_<pid>_
	seed    string   // the schema holding the rows the migrations insert
	seeded  []string // tables that have rows right after migrating
	tables  []string // every table of a migrated schema, sorted
	objects int      // tables, indexes, sequences and views of one
	made    int
	free    []string
}

// reusedPostgresSchema returns the URL of a migrated, empty schema for this
// test alone, handed back to the pool when the test ends.
func reusedPostgresSchema(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p := &reuse
	p.mu.Lock()
	if !p.started {
		p.started = true
		p.err = p.start(ctx)
	}
	if p.err != nil {
		p.mu.Unlock()
		if p.admin == nil {
			// Not a superuser, or not reachable (which NewPostgresSchema
			// reports): a fresh schema per test, as before.
			return NewPostgresSchema(t)
		}
		t.Fatalf("reusable test schemas: %v", p.err)
	}
	var schema string
	if n := len(p.free); n > 0 {
		schema, p.free = p.free[n-1], p.free[:n-1]
		p.mu.Unlock()
	} else {
		p.made++
		schema = p.prefix + strconv.Itoa(p.made)
		p.mu.Unlock()
		if err := p.create(ctx, schema); err != nil {
			t.Fatalf("reusable test schema: %v", err)
		}
	}
	t.Cleanup(func() { p.giveBack(schema) })
	return schemaURL(t, schema)
}

// start connects, checks the role may turn triggers off while it empties a
// schema (a superuser), drops what finished processes of this host left,
// and makes the first schema and the seed.
func (p *schemaPool) start(ctx context.Context) error {
	admin, err := sql.Open("pgx", PostgresURL())
	if err == nil {
		err = admin.PingContext(ctx)
	}
	if err != nil {
		if admin != nil {
			_ = admin.Close()
		}
		return fmt.Errorf("connect: %w", err)
	}
	var super bool
	if err := admin.QueryRowContext(ctx, `SELECT rolsuper FROM pg_roles WHERE rolname = current_user`).Scan(&super); err != nil || !super {
		_ = admin.Close()
		return fmt.Errorf("the test role is not a superuser")
	}
	p.admin = admin
	host, _ := os.Hostname()
	sum := sha256.Sum256([]byte(host))
	hostTag := hex.EncodeToString(sum[:3])
	p.prefix = fmt.Sprintf("tp_%s_%d_", hostTag, os.Getpid())
	p.seed = p.prefix + "seed"
	if err := p.dropOrphans(ctx, "tp_"+hostTag+"_"); err != nil {
		return err
	}
	// The first schema is migrated here; its rows become the seed before
	// any test sees it.
	p.made = 1
	first := p.prefix + "1"
	if err := p.create(ctx, first); err != nil {
		return err
	}
	tables, err := p.list(ctx, first)
	if err != nil {
		return err
	}
	p.tables = tables
	if p.objects, err = p.countObjects(ctx, first); err != nil {
		return err
	}
	if _, err := p.admin.ExecContext(ctx, "CREATE SCHEMA "+p.seed); err != nil {
		return fmt.Errorf("create seed schema: %w", err)
	}
	for _, table := range tables {
		var rows bool
		if err := p.admin.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM "+first+"."+table+")").Scan(&rows); err != nil {
			return fmt.Errorf("read %s: %w", table, err)
		}
		if !rows {
			continue
		}
		if _, err := p.admin.ExecContext(ctx, "CREATE TABLE "+p.seed+"."+table+" AS SELECT * FROM "+first+"."+table); err != nil {
			return fmt.Errorf("copy seed rows of %s: %w", table, err)
		}
		p.seeded = append(p.seeded, table)
	}
	p.free = append(p.free, first)
	return nil
}

// dropOrphans drops the schemas of processes of this host that have ended.
func (p *schemaPool) dropOrphans(ctx context.Context, hostPrefix string) error {
	names, err := store.Strings(ctx, p.admin, `SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)`, hostPrefix)
	if err != nil {
		return fmt.Errorf("list old test schemas: %w", err)
	}
	var old []string
	for _, name := range names {
		pid, _, _ := strings.Cut(strings.TrimPrefix(name, hostPrefix), "_")
		if n, err := strconv.Atoi(pid); err == nil && n != os.Getpid() {
			if _, err := os.Stat("/proc/" + pid); err == nil {
				continue // that process still runs
			}
			old = append(old, name)
		}
	}
	for _, name := range old {
		// Another process may be dropping it too.
		_, _ = p.admin.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+name+" CASCADE")
	}
	return nil
}

// create makes and migrates schema.
func (p *schemaPool) create(ctx context.Context, schema string) error {
	if _, err := p.admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		return fmt.Errorf("create schema %s: %w", schema, err)
	}
	u, err := urlFor(schema)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, u, "")
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }()
	if _, err := db.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate %s: %w", schema, err)
	}
	return nil
}

func (p *schemaPool) list(ctx context.Context, schema string) ([]string, error) {
	out, err := store.Strings(ctx, p.admin, `SELECT tablename FROM pg_tables WHERE schemaname = $1`, schema)
	if err != nil {
		return nil, fmt.Errorf("list tables of %s: %w", schema, err)
	}
	slices.Sort(out)
	return out, nil
}

func (p *schemaPool) countObjects(ctx context.Context, schema string) (int, error) {
	var n int
	err := p.admin.QueryRowContext(ctx, `SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1`, schema).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count objects of %s: %w", schema, err)
	}
	return n, nil
}

// giveBack empties schema for the next test, or drops it when its shape
// changed or emptying failed.
func (p *schemaPool) giveBack(schema string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.empty(ctx, schema); err != nil {
		_, _ = p.admin.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
		return
	}
	p.mu.Lock()
	p.free = append(p.free, schema)
	p.mu.Unlock()
}

func (p *schemaPool) empty(ctx context.Context, schema string) error {
	tables, err := p.list(ctx, schema)
	if err != nil {
		return err
	}
	if !slices.Equal(tables, p.tables) {
		return fmt.Errorf("a test changed the tables of %s", schema)
	}
	if n, err := p.countObjects(ctx, schema); err != nil || n != p.objects {
		return fmt.Errorf("a test changed the objects of %s", schema)
	}
	seqs, err := store.Strings(ctx, p.admin, `SELECT sequencename FROM pg_sequences WHERE schemaname = $1`, schema)
	if err != nil {
		return fmt.Errorf("list sequences: %w", err)
	}
	// One statement list on one connection: with triggers and foreign keys
	// off (replica role), rows go in any order and no counter moves.
	var b strings.Builder
	b.WriteString("BEGIN; SET LOCAL session_replication_role = replica;")
	for _, table := range tables {
		fmt.Fprintf(&b, "DELETE FROM %s.%s;", schema, table)
	}
	for _, table := range p.seeded {
		fmt.Fprintf(&b, "INSERT INTO %s.%s OVERRIDING SYSTEM VALUE SELECT * FROM %s.%s;", schema, table, p.seed, table)
	}
	for _, seq := range seqs {
		fmt.Fprintf(&b, "ALTER SEQUENCE %s.%s RESTART;", schema, seq)
	}
	b.WriteString("COMMIT;")
	conn, err := p.admin.Conn(ctx)
	if err != nil {
		return fmt.Errorf("empty %s: %w", schema, err)
	}
	defer func() { _ = conn.Close() }()
	if _, err := conn.ExecContext(ctx, b.String()); err != nil {
		_, _ = conn.ExecContext(ctx, "ROLLBACK")
		return fmt.Errorf("empty %s: %w", schema, err)
	}
	return nil
}

// sqliteMigrated returns a data directory holding a copy of a migrated
// SQLite database: copying the file costs a test a millisecond, migrating
// it tens. The migrated file is made once per set of migrations (and fresh
// schema snapshot) and kept in the temporary directory, named for their
// fingerprint, for every later process.
func sqliteMigrated(t testing.TB) (string, string) {
	t.Helper()
	dir := t.TempDir()
	template, err := sqliteTemplate()
	if err != nil {
		t.Fatalf("migrated SQLite template: %v", err)
	}
	src, err := os.Open(template)
	if err != nil {
		t.Fatalf("migrated SQLite template: %v", err)
	}
	defer func() { _ = src.Close() }()
	dst, err := os.Create(store.SQLitePath(dir))
	if err == nil {
		_, err = io.Copy(dst, src)
		err = errors.Join(err, dst.Close())
	}
	if err != nil {
		t.Fatalf("copy the migrated SQLite template: %v", err)
	}
	return "", dir
}

var sqliteOnce struct {
	sync.Once
	path string
	err  error
}

func sqliteTemplate() (string, error) {
	sqliteOnce.Do(func() { sqliteOnce.path, sqliteOnce.err = makeSQLiteTemplate() })
	return sqliteOnce.path, sqliteOnce.err
}

func makeSQLiteTemplate() (string, error) {
	fingerprint, err := store.SchemaFingerprint()
	if err != nil {
		return "", err
	}
	path := filepath.Join(os.TempDir(), "tribe-storetest-"+fingerprint[:16]+".db")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	work, err := os.MkdirTemp("", "tribe-storetest-")
	if err != nil {
		return "", err
	}
	defer func() { _ = os.RemoveAll(work) }()
	ctx := context.Background()
	db, err := store.Open(ctx, "", work)
	if err != nil {
		return "", err
	}
	_, err = db.Migrate(ctx)
	// Closing the last connection folds the write-ahead log into the file.
	if err = errors.Join(err, db.Close()); err != nil {
		return "", err
	}
	if _, err := os.Stat(store.SQLitePath(work) + "-wal"); err == nil {
		return "", fmt.Errorf("the migrated database kept a write-ahead log")
	}
	// Another process may make the same file at once: a rename is atomic and
	// both hold the same schema.
	if err := os.Rename(store.SQLitePath(work), path); err != nil {
		return "", err
	}
	return path, nil
}
