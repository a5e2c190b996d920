package main

import (
	"context"
	"io"
	"log/slog"
	"net"
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

func TestLimitListenerCapsOpenConnections(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newLimitListener(inner, 2)
	defer func() { _ = ln.Close() }()
	accepted := make(chan net.Conn, 3)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = c.Close() }()
	}
	first, second := <-accepted, <-accepted
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted while two were open")
	case <-time.After(200 * time.Millisecond):
	}
	_ = first.Close()
	_ = first.Close() // closing twice frees one slot, not two
	select {
	case c := <-accepted:
		_ = c.Close()
	case <-time.After(2 * time.Second):
		t.Fatal("closing a connection did not free its slot")
	}
	_ = second.Close()
}
