package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	_ "embed"
	"encoding/hex"
	"fmt"
	"strings"
)

// A fresh SQLite database gets the schema the migrations end in, in one
// pass, instead of the migrations one by one: SQLite reads its whole schema
// again after every ALTER TABLE, which made applying them most of the
// server's start-up (about 35 ms of processor time for 33 migrations). The
// snapshot is made from a database the migrations built (TestFreshSchema
// with -update) and used only while it names the hash of the migrations it
// came from; a test checks that both ways give the same schema and rows.
//
//go:embed fresh/sqlite.sql
var freshSQLite string

const freshHeader = "-- The schema and rows the SQLite migrations end in, for a fresh database. Made by\n" +
	"-- `go test ./internal/store -run TestFreshSchema -update`; used only while the hash below is theirs.\n" +
	"-- migrations: "

// migrationsHash identifies a set of migrations: versions, names and SQL.
func migrationsHash(migs []Migration) string {
	h := sha256.New()
	for _, m := range migs {
		fmt.Fprintf(h, "%d %s\n%s\n", m.Version, m.Name, m.SQL)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// freshSnapshot returns the snapshot's statements when they were made from
// migs, else "".
func freshSnapshot(migs []Migration) string {
	rest, ok := strings.CutPrefix(freshSQLite, freshHeader)
	if !ok {
		return ""
	}
	hash, body, ok := strings.Cut(rest, "\n")
	if !ok || hash != migrationsHash(migs) {
		return ""
	}
	return body
}

// applyFresh builds an empty database from the snapshot and records every
// migration as applied. It reports false when the snapshot is not for migs.
func applyFresh(ctx context.Context, tx *sql.Tx, migs []Migration) ([]string, bool, error) {
	body := freshSnapshot(migs)
	if body == "" || len(migs) == 0 {
		return nil, false, nil
	}
	if _, err := tx.ExecContext(ctx, body); err != nil {
		return nil, false, fmt.Errorf("fresh schema: %w", err)
	}
	record, err := tx.PrepareContext(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)")
	if err != nil {
		return nil, false, fmt.Errorf("fresh schema: record: %w", err)
	}
	defer func() { _ = record.Close() }()
	now := Now().Format(timeLayout)
	names := make([]string, 0, len(migs))
	for _, m := range migs {
		if _, err := record.ExecContext(ctx, m.Version, m.Name, now); err != nil {
			return nil, false, fmt.Errorf("fresh schema: record %s: %w", m.Name, err)
		}
		names = append(names, m.Name)
	}
	return names, true, nil
}

// dumpSQLite writes a SQLite database's schema (tables, indexes, triggers
// and views in the order they were made, without schema_migrations and the
// tables full-text indexes make for themselves) and its rows as statements.
func dumpSQLite(ctx context.Context, q Querier) (string, error) {
	type object struct{ kind, name, sql string }
	var objects []object
	rows, err := q.QueryContext(ctx, `SELECT type, name, sql FROM sqlite_schema
		WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND name <> 'schema_migrations' ORDER BY rowid`)
	if err != nil {
		return "", fmt.Errorf("read schema: %w", err)
	}
	for rows.Next() {
		var o object
		if err := rows.Scan(&o.kind, &o.name, &o.sql); err != nil {
			_ = rows.Close()
			return "", fmt.Errorf("read schema: %w", err)
		}
		objects = append(objects, o)
	}
	if err := rows.Close(); err != nil {
		return "", fmt.Errorf("read schema: %w", err)
	}
	// A full-text table makes its own shadow tables (name_data, …) when it is
	// made: SQLite names them (pragma table_list), and they are neither
	// created nor filled here.
	names, err := Strings(ctx, q, `SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'`)
	if err != nil {
		return "", fmt.Errorf("read shadow tables: %w", err)
	}
	shadow := map[string]bool{}
	for _, name := range names {
		shadow[name] = true
	}
	virtual := func(o object) bool {
		return o.kind == "table" && strings.HasPrefix(strings.ToUpper(o.sql), "CREATE VIRTUAL TABLE")
	}
	var b strings.Builder
	var tables []string
	for _, o := range objects {
		if shadow[o.name] {
			continue
		}
		b.WriteString(o.sql)
		b.WriteString(";\n")
		if o.kind == "table" && !virtual(o) {
			tables = append(tables, o.name)
		}
	}
	for _, table := range tables {
		cols, err := Strings(ctx, q, "SELECT name FROM pragma_table_info(?)", table)
		if err != nil {
			return "", fmt.Errorf("read columns of %s: %w", table, err)
		}
		quoted := make([]string, len(cols))
		for i, c := range cols {
			quoted[i] = "quote(" + quoteIdent(c) + ")"
		}
		query := "SELECT 'INSERT INTO " + strings.ReplaceAll(quoteIdent(table), "'", "''") + " (" +
			strings.ReplaceAll(strings.Join(quotedAll(cols), ", "), "'", "''") + ") VALUES (' || " +
			strings.Join(quoted, " || ', ' || ") + " || ');' FROM " + quoteIdent(table) + " ORDER BY 1"
		inserts, err := Strings(ctx, q, query)
		if err != nil {
			return "", fmt.Errorf("read rows of %s: %w", table, err)
		}
		for _, stmt := range inserts {
			b.WriteString(stmt)
			b.WriteString("\n")
		}
	}
	return b.String(), nil
}

func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

func quotedAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = quoteIdent(n)
	}
	return out
}

// SchemaFingerprint names what a fresh SQLite database is built from: the
// migrations and the snapshot (tests key their migrated copies by it).
func SchemaFingerprint() (string, error) {
	migs, err := Migrations(SQLite)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s", migrationsHash(migs), freshSQLite)
	return hex.EncodeToString(h.Sum(nil)), nil
}
