package main

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logFlushEvery bounds how long a log line may wait in memory.
const logFlushEvery = 100 * time.Millisecond

// logWriter batches the server's log lines into few writes: every request
// logs a line, and a write to standard error per line was a tenth of the
// processor time of serving a page (bench/RESULTS.md, "Members API, pages
// and start-up"). Lines reach the output within logFlushEvery, whole and in
// order, and Close writes what is left; only a process killed outright
// loses the last moment's lines.
type logWriter struct {
	mu   sync.Mutex
	buf  *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

// newLogWriter starts batching writes to w.
func newLogWriter(w io.Writer) *logWriter {
	l := &logWriter{buf: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go l.flushLoop()
	return l
}

// Write adds a log line; the handler writes each line in one call.
func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logWriter) flushLoop() {
	defer close(l.done)
	tick := time.NewTicker(logFlushEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			_ = l.flush()
		case <-l.stop:
			return
		}
	}
}

func (l *logWriter) flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Flush()
}

// Close stops the batching and writes what is left.
func (l *logWriter) Close() error {
	close(l.stop)
	<-l.done
	return l.flush()
}
