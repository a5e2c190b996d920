package main

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"tribe/internal/booking"
	"tribe/internal/community"
	"tribe/internal/library"
	"tribe/internal/notify"
	"tribe/internal/ratelimit"
	"tribe/internal/storage"
	"tribe/internal/store"
)

// worker is a background job of the server: it runs until its context ends
// and returns once its in-flight work is finished.
type worker struct {
	name string
	run  func(ctx context.Context)
}

// workerStagger separates the workers' starts.
const workerStagger = 20 * time.Millisecond

// startWorkers runs every worker in its own goroutine under one context. The
// returned stop ends them all and waits for each to return, so none outlives
// the database it writes to.
func startWorkers(ctx context.Context, logger *slog.Logger, workers ...worker) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i, w := range workers {
		wg.Go(func() {
			// One after another: all at once, their first rounds opened a
			// database connection each (SQLite: 0.7 MB apiece, kept idle)
			// beside the first requests.
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(i) * workerStagger):
			}
			logger.Debug("worker started", "worker", w.name)
			w.run(ctx)
			logger.Debug("worker stopped", "worker", w.name)
		})
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// bookingWork runs booking's periodic work (booking.Service.Sweep: lapsed
// holds expired, refunds owed made, reminders planned) now and then every
// interval until ctx ends. Every instance runs it; each piece of work is
// done once between them.
func bookingWork(svc *booking.Service, every time.Duration, logger *slog.Logger) func(ctx context.Context) {
	return sweepEvery("booking", svc, every, logger)
}

// notifyWork plans members' mail (notify.Service.Sweep: session reminders,
// weekly digests, level congratulations) now and then every interval until
// ctx ends. Every instance runs it; each mail is queued once between them.
func notifyWork(svc *notify.Service, every time.Duration, logger *slog.Logger) func(ctx context.Context) {
	return sweepEvery("notify", svc, every, logger)
}

// limitsWork deletes the rows of the rate limits shared on PostgreSQL that
// hold nothing any more (ratelimit.Prune), now and then every interval
// until ctx ends. Every instance runs it; a row is deleted once.
func limitsWork(db *store.DB, every time.Duration, logger *slog.Logger) func(ctx context.Context) {
	return sweepEvery("rate limits", sweepFunc(func(ctx context.Context) error {
		_, err := ratelimit.Prune(ctx, db, time.Now())
		return err
	}), every, logger)
}

// filesWork deletes the stored files nothing names any more
// (community.SweepAvatars: avatar files no profile names, older than a day,
// and replaced ones after their hour; library.Service.Sweep: uploads
// abandoned for a day with their parts, and library files no item names),
// now and then every interval until ctx ends. Every instance runs it;
// deleting twice is harmless.
func filesWork(db *store.DB, files storage.Store, lib *library.Service, every time.Duration, logger *slog.Logger) func(ctx context.Context) {
	return sweepEvery("stored files", sweepFunc(func(ctx context.Context) error {
		n, err := community.SweepAvatars(ctx, db, files, time.Now())
		if n > 0 {
			logger.Info("deleted avatar files no profile names", "files", n)
		}
		m, lerr := lib.Sweep(ctx)
		if m > 0 {
			logger.Info("deleted abandoned uploads and library files no item names", "files", m)
		}
		return errors.Join(err, lerr)
	}), every, logger)
}

// sweepFunc is periodic work written as a function.
type sweepFunc func(ctx context.Context) error

// Sweep runs f.
func (f sweepFunc) Sweep(ctx context.Context) error { return f(ctx) }

// sweeper is a service with periodic work that is safe to run on every
// instance at once.
type sweeper interface {
	Sweep(ctx context.Context) error
}

func sweepEvery(name string, svc sweeper, every time.Duration, logger *slog.Logger) func(ctx context.Context) {
	return func(ctx context.Context) {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			if err := svc.Sweep(ctx); err != nil && ctx.Err() == nil {
				logger.Error(name+" work", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}
}

// calendarWork fetches the owner's calendars that are due, now and then
// every interval until ctx ends. It runs apart from the booking work so a
// slow calendar server never delays a hold's expiry or a reminder. Every
// instance runs it; each fetch is leased to one of them.
func calendarWork(svc *booking.Service, every time.Duration, logger *slog.Logger) func(ctx context.Context) {
	return func(ctx context.Context) {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			if _, err := svc.RefreshCalendars(ctx); err != nil && ctx.Err() == nil {
				logger.Error("calendar refresh", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			case <-svc.CalendarsChanged():
				// The owner saved addresses: fetch the new ones now.
			}
		}
	}
}
