// Command tribe runs the consulting, coaching and community site and its
// operator tools.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // time-zone math must work on machines without zoneinfo

	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/mail"
	"tribe/internal/store"
	"tribe/internal/web"
	"tribe/internal/webapp"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

const usage = `tribe: the consulting, coaching and community site in one binary.

Usage:
  tribe serve      run the site (applies pending migrations first)
  tribe migrate    apply pending database migrations and exit
  tribe admin      grant EMAIL, revoke EMAIL or list: admin rights (tribe admin help)
  tribe version    print the version
  tribe help       show this help

Configuration comes from environment variables, and from a .env file in the
working directory for any variable the environment leaves unset:
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "help", "-h", "--help", "-help":
		printUsage(stdout)
		return 0
	case "admin":
		return runAdmin(args[1:], stdout, stderr)
	case "version", "--version":
		_, _ = fmt.Fprintln(stdout, "tribe", version)
		return 0
	case "serve", "migrate":
		if len(args) > 1 && (args[1] == "-h" || args[1] == "--help") {
			printUsage(stdout)
			return 0
		}
		if len(args) > 1 {
			_, _ = fmt.Fprintf(stderr, "tribe %s: unexpected argument %q; configure with environment variables (tribe help)\n", cmd, args[1])
			return 2
		}
	default:
		_, _ = fmt.Fprintf(stderr, "tribe: unknown command %q; run `tribe help` for the list\n", cmd)
		return 2
	}

	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	cfg, err := config.Load(os.Getenv, ".env")
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe: configuration:", err)
		return 1
	}
	if err := cfg.PrepareDataDir(); err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if err := execute(ctx, cmd, cfg, logger); err != nil {
		_, _ = fmt.Fprintln(stderr, "tribe:", err)
		return 1
	}
	return 0
}

func execute(ctx context.Context, cmd string, cfg *config.Config, logger *slog.Logger) error {
	var site *content.Site
	if cmd == "serve" {
		// Checked before the database opens so a broken content file fails fast;
		// the error names the file and the field to fix.
		var err error
		if site, err = content.Load(cfg.ContentDir); err != nil {
			return err
		}
		logger.Info("content loaded", "source", site.Source(), "search_items", len(site.Index.Items))
	}
	openCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	db, err := store.Open(openCtx, cfg.DatabaseURL, cfg.DataDir)
	cancel()
	if err != nil {
		return fmt.Errorf("%w; check DATABASE_URL (or TRIBE_DATA_DIR for SQLite)", err)
	}
	defer func() { _ = db.Close() }()

	applied, err := db.Migrate(ctx)
	if err != nil {
		return fmt.Errorf("migrate database: %w", err)
	}
	ver, err := db.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	logger.Info("database ready", "engine", db.Dialect, "schema_version", ver, "applied", strings.Join(applied, ","))
	if cmd == "migrate" {
		return nil
	}
	return serve(ctx, cfg, db, site, logger)
}

func serve(ctx context.Context, cfg *config.Config, db *store.DB, site *content.Site, logger *slog.Logger) error {
	handler, err := web.New(web.Options{Config: cfg, DB: db, Logger: logger, App: webapp.FS(), Version: version, Content: site})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w; set TRIBE_ADDR to a free address such as :8081", cfg.Addr, err)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	// The mail worker stops with the server and finishes its in-flight send
	// before the database closes.
	sender, err := mail.NewSender(cfg.SMTPURL, cfg.SMTPFrom, logger)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	logger.Info("mail", "delivery", fmt.Sprint(sender))
	mailCtx, stopMail := context.WithCancel(ctx)
	mailDone := make(chan struct{})
	go func() { mail.NewWorker(db, sender, logger, mail.WorkerOptions{}).Run(mailCtx); close(mailDone) }()
	defer func() { stopMail(); <-mailDone }()

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	logger.Info("serving", "addr", ln.Addr().String(), "url", cfg.BaseURL, "engine", db.Dialect, "version", version)

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down: finishing in-flight requests")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("stopped")
	return nil
}

func printUsage(w io.Writer) {
	_, _ = fmt.Fprint(w, usage)
	for _, v := range config.Vars {
		_, _ = fmt.Fprintf(w, "  %-22s %s (default: %s)\n", v.Name, v.Meaning, v.Default)
	}
}
