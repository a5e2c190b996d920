package main

import (
	"context"
	"log/slog"
	"sync"
)

// worker is a background job of the server: it runs until its context ends
// and returns once its in-flight work is finished.
type worker struct {
	name string
	run  func(ctx context.Context)
}

// startWorkers runs every worker in its own goroutine under one context. The
// returned stop ends them all and waits for each to return, so none outlives
// the database it writes to.
func startWorkers(ctx context.Context, logger *slog.Logger, workers ...worker) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Go(func() {
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
