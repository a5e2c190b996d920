package main

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"
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
