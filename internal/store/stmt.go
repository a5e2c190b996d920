package store

import (
	"context"
	"database/sql"
)

// The hot read paths (the session behind every signed-in request, access
// checks, session lists) run through statements prepared once per DB:
// parsing the SQL again on every call was a fifth of a session list's time.
// database/sql prepares a statement on each pooled connection the first time
// that connection runs it and keeps it there.

// ReadRows runs a read query through its prepared statement on Read.
func (db *DB) ReadRows(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := db.readStmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// ReadRow runs a single-row read query through its prepared statement on Read.
func (db *DB) ReadRow(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := db.readStmt(ctx, query)
	if err != nil {
		// QueryRowContext reports the same failure through Scan.
		return db.Read.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

func (db *DB) readStmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := db.stmts.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := db.Read.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := db.stmts.LoadOrStore(query, st); loaded {
		_ = st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

// Querier runs queries: a *sql.DB, *sql.Tx or *sql.Conn.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Strings returns the one text column of every row query answers.
func Strings(ctx context.Context, q Querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
