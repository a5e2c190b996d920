package main

import (
	"context"
	"fmt"
	"time"

	"tribe/internal/config"
	"tribe/internal/store"
)

// openTimeout bounds connecting to the database (a PostgreSQL server that
// does not answer), not the migrations.
const openTimeout = 30 * time.Second

// openStore opens the database the configuration names, as it is. Backups
// use it so that an archive holds the schema the site was serving.
func openStore(ctx context.Context, cfg *config.Config) (*store.DB, error) {
	openCtx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	db, err := store.Open(openCtx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return nil, fmt.Errorf("%w; check DATABASE_URL (or TRIBE_DATA_DIR for SQLite)", err)
	}
	return db, nil
}

// openMigrated opens the database and applies pending migrations, returning
// the names of those it applied: every command that reads or writes the
// site's tables starts here. The caller closes the database.
func openMigrated(ctx context.Context, cfg *config.Config) (*store.DB, []string, error) {
	db, err := openStore(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	applied, err := db.Migrate(ctx)
	if err != nil {
		_ = db.Close()
		return nil, nil, fmt.Errorf("migrate database: %w", err)
	}
	return db, applied, nil
}
