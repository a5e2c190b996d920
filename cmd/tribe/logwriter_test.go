package main

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is an output the flush loop and the test may use at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestLogWriterBatchesWholeLinesInOrder(t *testing.T) {
	var out lockedBuffer
	w := newLogWriter(&out)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 500 {
				_, _ = fmt.Fprintf(w, "writer=%d line=%03d %s\n", g, i, strings.Repeat("x", 40))
			}
		})
	}
	wg.Wait()
	_, _ = w.Write([]byte("last line\n"))

	// A line waits at most about logFlushEvery.
	deadline := time.Now().Add(20 * logFlushEvery)
	for !strings.HasSuffix(out.String(), "last line\n") {
		if time.Now().After(deadline) {
			t.Fatal("a logged line was not written out in time")
		}
		time.Sleep(logFlushEvery / 4)
	}
	_, _ = w.Write([]byte("after the flush\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4*500+2 || lines[len(lines)-1] != "after the flush" {
		t.Fatalf("%d lines, last %q; want every line, Close writing the rest", len(lines), lines[len(lines)-1])
	}
	next := map[string]int{}
	for _, line := range lines[:len(lines)-2] {
		var g, i int
		if _, err := fmt.Sscanf(line, "writer=%d line=%d", &g, &i); err != nil || len(line) != len("writer=0 line=000 ")+40 {
			t.Fatalf("torn line %q", line)
		}
		if want := next[fmt.Sprint(g)]; i != want {
			t.Fatalf("writer %d: line %d after %d", g, i, want-1)
		}
		next[fmt.Sprint(g)]++
	}
}
