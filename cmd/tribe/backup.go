package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"tribe/internal/backup"
	"tribe/internal/config"
	"tribe/internal/services"
	"tribe/internal/storage"
)

// runBackup is `tribe backup [--with-files] FILE`: one archive of the
// database (SQLite) and the uploaded files, taken while the site keeps
// serving.
func runBackup(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	withFiles := fs.Bool("with-files", false, "")
	// The file may come before the flag (tribe backup F --with-files).
	var rest []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			rest = nil
			break
		}
		args = fs.Args()
		if len(args) > 0 {
			rest, args = append(rest, args[0]), args[1:]
		}
	}
	if len(rest) != 1 {
		_, _ = fmt.Fprintln(stderr, "usage: tribe backup [--with-files] FILE   (for example tribe backup site-backup.tar.gz;"+
			" --with-files streams the bucket's files into the archive when TRIBE_STORAGE_URL is set, as the data directory's always are)")
		return 2
	}
	cfg, err := config.Load(os.Getenv, ".env")
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe backup: configuration:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := writeBackup(ctx, cfg, rest[0], *withFiles, stdout); err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe backup:", err)
		return 1
	}
	return 0
}

// writeBackup writes the archive. withFiles matters with TRIBE_STORAGE_URL
// only: the bucket's objects are streamed into the archive rather than left
// to the provider's tools.
func writeBackup(ctx context.Context, cfg *config.Config, file string, withFiles bool, stdout io.Writer) error {
	if _, err := os.Stat(file); err == nil {
		return fmt.Errorf("%s already exists; choose a new file name", file)
	}
	var bucket *storage.S3
	if cfg.S3 != nil && withFiles {
		var err error
		if bucket, err = openBucket(ctx, cfg); err != nil {
			return err
		}
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
	var m backup.Manifest
	if bucket != nil {
		m, err = backup.CreateFromBucket(ctx, db, cfg.DataDir, bucket, tmp)
	} else {
		m, err = backup.Create(ctx, db, cfg.DataDir, tmp)
	}
	if err = errors.Join(err, tmp.Sync(), tmp.Close()); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return err
	}
	if bucket != nil {
		for _, rel := range m.Missing {
			_, _ = fmt.Fprintf(stdout, "warning: the database names %s, which was not in %s before this backup\n", rel, bucket.Name())
		}
		_, _ = fmt.Fprintf(stdout, "the uploaded files are streamed from %s into the archive, each with its SHA-256 in SHA256SUMS\n", bucket.Name())
	} else if cfg.S3 != nil {
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

// openBucket is the bucket of TRIBE_STORAGE_URL, checked.
func openBucket(ctx context.Context, cfg *config.Config) (*storage.S3, error) {
	bucket, ok := services.NewFiles(cfg).(*storage.S3)
	if !ok {
		return nil, errors.New("TRIBE_STORAGE_URL names no bucket")
	}
	if err := bucket.Check(ctx); err != nil {
		return nil, err
	}
	return bucket, nil
}

// runRestore is `tribe restore FILE`: unpack an archive into an empty data
// directory, and its uploaded files into the bucket when there is one.
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := restoreBackup(ctx, cfg, args[0], stdout); err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe", err)
		return 1
	}
	return 0
}

// restoreBackup restores the archive file. A refused restore (a bad entry,
// a checksum that does not match, a database failing its integrity check)
// leaves the data directory and the bucket as it found them, so it can be
// retried.
func restoreBackup(ctx context.Context, cfg *config.Config, file string, stdout io.Writer) error {
	var opts backup.RestoreOptions
	where := cfg.DataDir
	if cfg.S3 != nil {
		bucket, err := openBucket(ctx, cfg)
		if err != nil {
			return fmt.Errorf("restore: %w", err)
		}
		opts.Files, where = bucket, cfg.DataDir+" and "+bucket.Name()
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer func() { _ = f.Close() }()
	m, err := backup.RestoreWith(ctx, f, cfg.DataDir, opts)
	if err != nil {
		return err
	}
	_, _ = fmt.Fprintf(stdout, "restored a %s backup of %s (schema %d, %d files) into %s; start the site with tribe serve\n",
		m.Engine, m.CreatedAt.Format(time.RFC3339), m.SchemaVersion, m.Files, where)
	if !m.Database {
		_, _ = fmt.Fprintln(stdout, "the database is PostgreSQL: restore it with pg_restore from your pg_dump file")
	}
	return nil
}
