package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"tribe/internal/backup"
	"tribe/internal/config"
)

// runBackup is `tribe backup FILE`: one archive of the database (SQLite) and
// the uploaded files, taken while the site keeps serving.
func runBackup(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		_, _ = fmt.Fprintln(stderr, "usage: tribe backup FILE   (for example tribe backup site-backup.tar.gz)")
		return 2
	}
	cfg, err := config.Load(os.Getenv, ".env")
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe backup: configuration:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := writeBackup(ctx, cfg, args[0], stdout); err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe backup:", err)
		return 1
	}
	return 0
}

func writeBackup(ctx context.Context, cfg *config.Config, file string, stdout io.Writer) error {
	if _, err := os.Stat(file); err == nil {
		return fmt.Errorf("%s already exists; choose a new file name", file)
	}
	db, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }()

	// Written beside the target and renamed at the end, so a failed run
	// never leaves a file that looks like a backup.
	tmp, err := os.CreateTemp(filepath.Dir(file), ".tribe-backup-*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	m, err := backup.Create(ctx, db, cfg.DataDir, tmp)
	if err = errors.Join(err, tmp.Sync(), tmp.Close()); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return err
	}
	if cfg.S3 != nil {
		// The uploads live in the bucket, so the data directory lacks them
		// by design: say where they are instead of warning about each.
		_, _ = fmt.Fprintf(stdout, "uploaded files are in the bucket %s at %s, not in this archive: back the bucket up with the provider's tools (versioning, replication to a second bucket, or rclone sync to another place); see docs/operations.md\n", cfg.S3.Bucket, cfg.S3.Endpoint)
	} else {
		for _, rel := range m.Missing {
			_, _ = fmt.Fprintf(stdout, "warning: the database names %s, which was not in %s before this backup\n", rel, cfg.DataDir)
		}
	}
	if m.Database {
		_, _ = fmt.Fprintf(stdout, "backed up the SQLite database (schema %d) and %d files to %s\n", m.SchemaVersion, m.Files, file)
		return nil
	}
	_, _ = fmt.Fprintf(stdout, "backed up %d files to %s\n", m.Files, file)
	_, _ = fmt.Fprintln(stdout, "PostgreSQL is not in this archive: dump it (just before this command, so the archive holds every file the dump names) with  pg_dump -Fc \"$DATABASE_URL\" > tribe.dump")
	_, _ = fmt.Fprintln(stdout, "and restore it with  pg_restore --clean --if-exists -d \"$DATABASE_URL\" tribe.dump")
	return nil
}

// runRestore is `tribe restore FILE`: unpack an archive into an empty data directory.
func runRestore(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		_, _ = fmt.Fprintln(stderr, "usage: tribe restore FILE   (into an empty TRIBE_DATA_DIR; stop the site first)")
		return 2
	}
	cfg, err := config.Load(os.Getenv, ".env")
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe restore: configuration:", err)
		return 1
	}
	f, err := os.Open(args[0])
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe restore:", err)
		return 1
	}
	defer func() { _ = f.Close() }()
	// A refused restore (a bad entry, a database failing its integrity
	// check) leaves the data directory as it found it, so it can be retried.
	m, err := backup.Restore(f, cfg.DataDir)
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe", err)
		return 1
	}
	_, _ = fmt.Fprintf(stdout, "restored a %s backup of %s (schema %d, %d files) into %s; start the site with tribe serve\n",
		m.Engine, m.CreatedAt.Format(time.RFC3339), m.SchemaVersion, m.Files, cfg.DataDir)
	if !m.Database {
		_, _ = fmt.Fprintln(stdout, "the database is PostgreSQL: restore it with pg_restore from your pg_dump file")
	}
	return 0
}
