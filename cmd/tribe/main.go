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
	"runtime/debug"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // time-zone math must work on machines without zoneinfo

	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/events"
	"tribe/internal/httpx"
	"tribe/internal/kb"
	"tribe/internal/mail"
	"tribe/internal/services"
	"tribe/internal/storage"
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
  tribe seed-kb    seed the knowledge base from the content files and exit
                   (serve also seeds at start whenever the content changed)
  tribe admin      grant EMAIL, revoke EMAIL or list: admin rights; comp EMAIL [--until
                   YYYY-MM-DD], uncomp EMAIL or members: complimentary membership and
                   the members list (tribe admin help)
  tribe billing reconcile [--apply]
                   compare Stripe's subscriptions with the site's memberships and MRR;
                   --apply fixes the site's side (tribe billing help)
  tribe backup [--with-files] F
                   write one archive of the database (SQLite) and uploaded files to F, while
                   serving; with TRIBE_STORAGE_URL the files stay in the bucket unless
                   --with-files streams them into the archive
  tribe restore F  unpack archive F into an empty TRIBE_DATA_DIR (its files into the bucket
                   of TRIBE_STORAGE_URL, which must hold none, when it is set)
  tribe storage migrate
                   copy the uploaded files of TRIBE_DATA_DIR to the bucket of TRIBE_STORAGE_URL,
                   checking each (size and SHA-256); a second run copies nothing
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
	case "backup":
		return runBackup(args[1:], stdout, stderr)
	case "billing":
		return runBilling(args[1:], stdout, stderr)
	case "restore":
		return runRestore(args[1:], stdout, stderr)
	case "storage":
		return runStorage(args[1:], stdout, stderr)
	case "version", "--version":
		_, _ = fmt.Fprintln(stdout, "tribe", version)
		return 0
	case "serve", "migrate", "seed-kb":
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

	logOut := stderr
	if cmd == "serve" {
		tuneGC(os.Getenv)
		stopProfile, err := profileCPU(os.Getenv)
		if err != nil {
			_, _ = fmt.Fprintln(stderr, "tribe:", err)
			return 1
		}
		defer stopProfile()
		batched := newLogWriter(stderr)
		defer func() { _ = batched.Close() }()
		logOut = batched
	}
	level := new(slog.LevelVar) // info until the configuration is read
	logger := slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: level}))
	cfg, err := config.Load(os.Getenv, ".env")
	if err != nil {
		_, _ = fmt.Fprintln(logOut, "tribe: configuration:", err)
		return 1
	}
	level.Set(cfg.LogLevel)
	if err := cfg.PrepareDataDir(); err != nil {
		_, _ = fmt.Fprintln(logOut, "tribe:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if err := execute(ctx, cmd, cfg, logger, stdout); err != nil {
		_, _ = fmt.Fprintln(logOut, "tribe:", err)
		return 1
	}
	return 0
}

func execute(ctx context.Context, cmd string, cfg *config.Config, logger *slog.Logger, stdout io.Writer) error {
	var site *content.Site
	if cmd == "serve" || cmd == "seed-kb" {
		// Checked before the database opens so a broken content file fails fast;
		// the error names the file and the field to fix.
		var err error
		if site, err = content.Load(cfg.ContentDir); err != nil {
			return err
		}
		if err := site.SetTribeCapacity(cfg.Capacity); err != nil {
			return err
		}
		logger.Info("content loaded", "source", site.Source(), "search_items", len(site.Index.Items))
	}
	db, applied, err := openMigrated(ctx, cfg)
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }()
	ver, err := db.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	logger.Info("database ready", "engine", db.Dialect, "schema_version", ver, "applied", strings.Join(applied, ","))
	if cmd == "migrate" {
		return nil
	}
	// One of each service per process: the web handlers and the embeddings
	// worker share the knowledge base's in-memory vector index, and on
	// PostgreSQL the hub tells the other instances (and hears from them)
	// when the knowledge base changes.
	if site == nil {
		// seed-kb and serve loaded it above.
		return fmt.Errorf("%s: no content loaded", cmd)
	}
	set := services.New(cfg, db, site, logger)
	defer set.Close()
	if err := checkFiles(ctx, cmd, set.Files, logger); err != nil {
		return err
	}
	if cmd == "seed-kb" {
		return seedKB(ctx, set.KB, site, cfg, stdout)
	}
	return serve(ctx, cfg, db, site, set, logger)
}

// checkFiles makes serve refuse to start on a bucket it cannot use (absent,
// wrong keys, unreachable), so a bad TRIBE_STORAGE_URL is told at once
// rather than at the first upload. It is one request to the bucket.
func checkFiles(ctx context.Context, cmd string, files storage.Store, logger *slog.Logger) error {
	s3, ok := files.(*storage.S3)
	if cmd != "serve" || !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s3.Check(ctx); err != nil {
		return fmt.Errorf("file storage (TRIBE_STORAGE_URL): %w", err)
	}
	logger.Info("file storage ready", "at", s3.Name())
	return nil
}

// seedKB seeds the knowledge base and prints what it holds. Running servers
// learn of it through the database (the hub's notice on PostgreSQL, their
// next poll on SQLite); their embeddings workers compute any new vectors.
func seedKB(ctx context.Context, kbs *kb.Service, site *content.Site, cfg *config.Config, stdout io.Writer) error {
	res, err := kbs.Seed(ctx, kb.FromContent(site, cfg.Capacity))
	if err != nil {
		return err
	}
	b := res.Breakdown
	_, _ = fmt.Fprintf(stdout, "%s (about %d, services %d, projects %d, stack %d, contact %d, community %d)\n",
		res.Message, b.About, b.Services, b.Projects, b.Stack, b.Contact, b.Community)
	return nil
}

// seedAtStart makes a fresh site searchable and keeps the seeded documents
// in step with the content files: it seeds when the content differs from
// what was seeded last (a stored hash). It runs beside the first requests
// (kb.Service.SeedInBackground): the knowledge base's readers wait for it,
// nothing else needs it. A failure is logged, not fatal: the site still
// serves, and an admin can seed from the members area. The channel closes
// when it is through.
func seedAtStart(ctx context.Context, kbs *kb.Service, site *content.Site, cfg *config.Config, logger *slog.Logger) <-chan struct{} {
	docs := func() []kb.SeedDoc { return kb.FromContent(site, cfg.Capacity) }
	return kbs.SeedInBackground(ctx, docs, func(res kb.SeedResult, changed bool, err error) {
		switch {
		case err != nil:
			logger.Error("knowledge base not seeded; seed it with `tribe seed-kb` or from the members area", "err", err)
		case changed:
			logger.Info("knowledge base seeded from the content", "documents", res.Count)
		default:
			logger.Info("knowledge base up to date with the content", "documents", res.Count)
		}
	})
}

func serve(ctx context.Context, cfg *config.Config, db *store.DB, site *content.Site, set *services.Set, logger *slog.Logger) error {
	kbs := set.KB
	seeded := seedAtStart(ctx, kbs, site, cfg, logger)
	// The seeding writes to the database, which closes after serve returns.
	defer func() { <-seeded }()
	logger.Info("knowledge base", "ranking", kbs.Ranking())
	handler, err := web.New(web.Options{Config: cfg, DB: db, Logger: logger, App: webapp.FS(), Version: version, Content: site, Services: set})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w; set TRIBE_ADDR to a free address such as :8081", cfg.Addr, err)
	}
	srv := httpx.NewServer(handler, slog.NewLogLogger(logger.Handler(), slog.LevelWarn))
	ln = httpx.LimitListener(ln, httpx.SiteConnLimits(cfg.TrustedProxies))
	sender, err := mail.NewSender(cfg.SMTPURL, cfg.SMTPFrom, logger)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	logger.Info("mail", "delivery", fmt.Sprint(sender))
	// Workers stop with the server and finish their in-flight work before
	// the database closes.
	stopWorkers := startWorkers(ctx, logger,
		worker{"mail", mail.NewWorker(db, sender, logger, mail.WorkerOptions{}).Run},
		worker{"embeddings", kbs.RunEmbeddings},
		worker{"booking", bookingWork(set.Booking, cfg.SweepInterval, logger)},
		worker{"knowledge gaps", func(ctx context.Context) { set.Gaps.Run(ctx, time.Hour) }},
		worker{"calendars", calendarWork(set.Booking, cfg.SweepInterval, logger)},
		worker{"notify", notifyWork(set.Notify, cfg.SweepInterval, logger)},
		worker{"push", func(ctx context.Context) { set.Inbox.Run(ctx, cfg.SweepInterval) }},
		worker{"live presence", func(ctx context.Context) { set.Hub.KeepPresence(ctx, events.PresenceBeat) }},
		worker{"rate limits", limitsWork(db, cfg.SweepInterval, logger)},
		worker{"stored files", filesWork(db, set.Files, set.Library, time.Hour, logger)},
		worker{"oauth", sweepEvery("oauth", set.OAuth, time.Hour, logger)},
	)
	defer stopWorkers()

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	// Start-up (migrations, content, seeding) leaves garbage that the serve
	// GC setting (gc.go) would keep for a long while: hand it back once the
	// seeding beside the first requests is through too (before it, the
	// seeding's garbage stayed: 4 MB more of idle memory).
	go func() {
		<-seeded
		debug.FreeOSMemory()
	}()
	baseURLFrom := "TRIBE_BASE_URL"
	if cfg.BaseURLDerived {
		baseURLFrom = "TRIBE_ADDR (set TRIBE_BASE_URL to the public address)"
	}
	logger.Info("serving", "addr", ln.Addr().String(), "base_url", cfg.BaseURL, "base_url_from", baseURLFrom, "engine", db.Dialect, "version", version)

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
