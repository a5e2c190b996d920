package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"tribe/internal/booking"
	"tribe/internal/clock/clocktest"
	"tribe/internal/content"
	"tribe/internal/store/storetest"
)

func TestWorkersStopTogetherAndFinishFirst(t *testing.T) {
	var running, finished atomic.Int32
	job := func(ctx context.Context) {
		running.Add(1)
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond) // in-flight work after the stop signal
		finished.Add(1)
	}
	stop := startWorkers(t.Context(), slog.New(slog.NewTextHandler(io.Discard, nil)),
		worker{"a", job}, worker{"b", job}, worker{"c", job})
	deadline := time.Now().Add(2 * time.Second)
	for running.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if running.Load() != 3 {
		t.Fatalf("%d of 3 workers started", running.Load())
	}
	stop()
	if finished.Load() != 3 {
		t.Fatalf("stop returned with %d of 3 workers finished", finished.Load())
	}
}

// Two instances on one PostgreSQL database run the booking work at the same
// moments: every lapsed hold is expired and every due reminder queued, each
// once between them.
func TestBookingWorkOnTwoInstancesDoesEachPieceOnce(t *testing.T) {
	url := storetest.NewPostgresSchema(t)
	site, err := content.Load("")
	if err != nil {
		t.Fatal(err)
	}
	clock := clocktest.At(time.Date(2026, time.January, 5, 9, 0, 0, 0, time.UTC))
	var svcs []*booking.Service
	for range 2 {
		db := storetest.Open(t, url, t.TempDir())
		svcs = append(svcs, booking.New(db, booking.Config{Site: site, OwnerEmail: "owner@example.com", BaseURL: "https://ruv.example"},
			booking.WithClock(clock.Now)))
	}
	ctx := context.Background()
	toronto, _ := time.LoadLocation("America/Toronto")
	start := time.Date(2026, time.January, 8, 10, 0, 0, 0, toronto)
	for i := range 6 {
		c, err := svcs[0].Book(ctx, booking.Request{Type: "session-15", Start: start.Add(time.Duration(i) * time.Hour).Format(time.RFC3339),
			Name: "Ada", Email: fmt.Sprintf("b%d@example.com", i), TimeZone: "UTC"})
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			if _, err := svcs[0].ConfirmRequest(ctx, c.Booking.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	clock.Set(start.Add(4*time.Hour - 24*time.Hour + 30*time.Minute)) // the 24-hour reminders of all three are due
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	stop := startWorkers(t.Context(), logger,
		worker{"booking-a", bookingWork(svcs[0], 5*time.Millisecond, logger)},
		worker{"booking-b", bookingWork(svcs[1], 5*time.Millisecond, logger)})
	time.Sleep(300 * time.Millisecond)
	stop()
	db := storetest.Open(t, url, t.TempDir())
	var reminders, distinct int
	if err := db.Read.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT idempotency_key) FROM mail_outbox WHERE idempotency_key LIKE 'booking-reminder-%'`).Scan(&reminders, &distinct); err != nil {
		t.Fatal(err)
	}
	// Three confirmed calls, a booker and the owner each, once.
	if reminders != 6 || distinct != 6 {
		t.Fatalf("%d reminders (%d distinct), want 6", reminders, distinct)
	}
}
