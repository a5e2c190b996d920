// Command fakeai serves a fake OpenAI-compatible chat-completions API with
// predictable streamed answers (aitest.Echo), so the site's AI chat can be
// developed and browser-tested without a model or a key:
//
//	go run ./internal/agent/aitest/cmd/fakeai -addr 127.0.0.1:0
//	fakeai: serving http://127.0.0.1:41234/v1
//
// Flags: -addr (default 127.0.0.1:0, a free port), -pause between streamed
// words (default 20ms), -hold to wait after each answer's first chunk
// (load tests). A question containing "[fail]" is answered 503 and one
// containing "[cut]" ends mid-stream, for testing the error paths.
//
// Then start the site with AI_BASE_URL set to the printed URL and any
// AI_MODEL (e.g. AI_MODEL=fake). The first line on standard output is
// always that URL line, so a test runner can read the port. It stops on
// SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"tribe/internal/agent/aitest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (port 0 picks a free port)")
	pause := flag.Duration("pause", 20*time.Millisecond, "pause between streamed words")
	hold := flag.Duration("hold", 0, "wait this long after the first chunk of every answer (holds streams open for load tests)")
	flag.Parse()
	script := aitest.Echo(*pause)
	if *hold > 0 {
		script = aitest.Hold(script, *hold)
	}
	if err := run(*addr, script); err != nil {
		fmt.Fprintln(os.Stderr, "fakeai:", err)
		os.Exit(1)
	}
}

func run(addr string, script aitest.Script) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: aitest.NewHandler(script), ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("fakeai: serving http://%s/v1\n", ln.Addr())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}
