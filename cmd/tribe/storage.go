package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"tribe/internal/community"
	"tribe/internal/config"
	"tribe/internal/storage"
)

// storageFolders are the folders of the data directory whose files a
// storage.Store keeps (the rest of it is the database and keys).
var storageFolders = []string{community.AvatarKeyPrefix}

// runStorage is `tribe storage migrate`: the data directory's files copied
// to the bucket of TRIBE_STORAGE_URL, each one checked.
func runStorage(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] != "migrate" {
		_, _ = fmt.Fprintln(stderr, "usage: tribe storage migrate   (copy the uploaded files of TRIBE_DATA_DIR to the bucket of TRIBE_STORAGE_URL; safe to run again)")
		return 2
	}
	cfg, err := config.Load(os.Getenv, ".env")
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe storage: configuration:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := migrateFiles(ctx, cfg, stdout); err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe storage migrate:", err)
		return 1
	}
	return 0
}

// migrateFiles copies every file of storageFolders (files out of service,
// such as replaced avatars, left out) from the data directory to the
// configured bucket, and prints what it did.
func migrateFiles(ctx context.Context, cfg *config.Config, stdout io.Writer) error {
	if cfg.S3 == nil {
		return fmt.Errorf("TRIBE_STORAGE_URL is not set, so the files already live where the site reads them (%s); set it to the bucket to copy them to", cfg.DataDir)
	}
	dst, err := openBucket(ctx, cfg)
	if err != nil {
		return err
	}
	src := storage.NewLocal(cfg.DataDir)
	_, _ = fmt.Fprintf(stdout, "copying the files of %s to %s\n", src.Name(), dst.Name())
	var total storage.Migrated
	for _, folder := range storageFolders {
		m, err := storage.Migrate(ctx, src, dst, folder, storage.InFolder, func(key, what string) {
			_, _ = fmt.Fprintf(stdout, "  %s: %s\n", key, what)
		})
		total.Copied += m.Copied
		total.Present += m.Present
		total.Bytes += m.Bytes
		if err != nil {
			_, _ = fmt.Fprintf(stdout, "stopped after copying %d files (%d bytes)\n", total.Copied, total.Bytes)
			return err
		}
	}
	_, _ = fmt.Fprintf(stdout, "copied %d files (%d bytes), each checked by size and SHA-256; %d were already there\n", total.Copied, total.Bytes, total.Present)
	return nil
}
