package kb

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"tribe/internal/events"
	"tribe/internal/store"
)

// Options configures a Service. Every field may be left zero.
type Options struct {
	// Embedder turns text into vectors; nil means full-text search only.
	Embedder Embedder
	// Vectors ranks by vector similarity; nil with an Embedder means the
	// in-memory index. See VectorIndex for the pgvector seam.
	Vectors VectorIndex
	// Hub carries "the knowledge base changed" between server instances, so
	// each keeps its vector index in step; nil for a single process.
	Hub    *events.Hub
	Logger *slog.Logger
}

// Service is the knowledge base: documents, seeding, the embeddings worker
// and search. It is safe for concurrent use; make one per process and share
// it, since it holds the in-memory vector index.
type Service struct {
	db       *store.DB
	embedder Embedder
	vectors  VectorIndex
	hub      *events.Hub
	logger   *slog.Logger
	kick     chan struct{} // wakes the embeddings worker; one slot
	queries  *vectorCache
	results  *resultCache

	loadMu sync.Mutex // guards loaded: the vector index's first Sync in this process
	loaded bool

	// seeded is closed once the seeding serve starts at start-up is through
	// (SeedInBackground); reads wait for it, so no answer comes from a
	// knowledge base still being seeded. New makes it closed.
	seeded atomic.Pointer[chan struct{}]

	stats    termStats // word counts for pruning common words
	pruneMin int       // pruneMinChunks; tests lower it

	// Worker timing (the constants in worker.go; tests shorten them).
	retryFirst, pauseFirst, poll time.Duration
}

// New returns the knowledge base over db.
func New(db *store.DB, o Options) *Service {
	s := &Service{
		db:       db,
		embedder: o.Embedder,
		vectors:  o.Vectors,
		hub:      o.Hub,
		logger:   o.Logger,
		kick:     make(chan struct{}, 1),
		queries:  newVectorCache(256),
		results:  newResultCache(),

		retryFirst: retryFirst,
		pauseFirst: pauseFirst,
		poll:       embedPoll,
		pruneMin:   pruneMinChunks,
	}
	if s.logger == nil {
		s.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	through := make(chan struct{})
	close(through)
	s.seeded.Store(&through)
	if s.embedder != nil && s.vectors == nil {
		s.vectors = newMemIndex(db, s.embedder.Model())
	}
	if s.embedder == nil {
		s.vectors = nil
	}
	return s
}

// SeedInBackground seeds docs() as SeedIfChanged does, on a goroutine of
// its own, and then calls done with the outcome. Until then Search, List
// and Get wait for it: the server answers (and says it is ready) while the
// knowledge base is seeded, and a search made meanwhile waits the few
// milliseconds left instead of finding nothing. It returns a channel closed
// when the seeding is through, to wait for before the database closes.
func (s *Service) SeedInBackground(ctx context.Context, docs func() []SeedDoc, done func(res SeedResult, changed bool, err error)) <-chan struct{} {
	through := make(chan struct{})
	s.seeded.Store(&through)
	go func() {
		defer close(through)
		// A seeding under way is finished even when the server is stopping:
		// it is short, and the next start would only do it again.
		res, changed, err := s.SeedIfChanged(context.WithoutCancel(ctx), docs())
		done(res, changed, err)
	}()
	return through
}

// waitSeeded waits for a seeding started by SeedInBackground, if any.
func (s *Service) waitSeeded(ctx context.Context) error {
	select {
	case <-*s.seeded.Load():
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for the knowledge base to be seeded: %w", ctx.Err())
	}
}

// Ranking is what Search uses when everything works: RankingHybrid with an
// embedding model, else RankingFullText.
func (s *Service) Ranking() string {
	if s.embedder != nil {
		return RankingHybrid
	}
	return RankingFullText
}

// changed runs after a committed change: cached word counts are dropped, the
// local vector index drops what is gone, the worker learns of new chunks,
// and other instances are told.
// It never fails the change, which is already made.
func (s *Service) changed(ctx context.Context) {
	s.stats.reset()
	s.results.reset()
	if s.vectors == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := s.vectors.Sync(ctx); err != nil {
		s.logger.Warn("knowledge base: vector index not updated; the next sync will catch up", "err", err)
	}
	s.wake()
	s.notify(ctx)
}

// notify tells the other instances that the knowledge base changed.
func (s *Service) notify(ctx context.Context) {
	if s.hub == nil {
		return
	}
	if err := s.hub.Publish(ctx, events.Event{Topic: events.TopicKB}); err != nil {
		s.logger.Warn("knowledge base: change notice not sent", "err", err)
	}
}

// wake asks the embeddings worker to look for chunks without vectors.
func (s *Service) wake() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// vectorCache remembers the vectors of recent queries, so a repeated query
// does not call the embedding API again.
type vectorCache struct {
	mu    sync.Mutex
	max   int
	order []string
	vecs  map[string][]float32
}

func newVectorCache(n int) *vectorCache { return &vectorCache{max: n, vecs: map[string][]float32{}} }

func (c *vectorCache) get(k string) ([]float32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.vecs[k]
	return v, ok
}

func (c *vectorCache) put(k string, v []float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.vecs[k]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.vecs, c.order[0])
		c.order = c.order[1:]
	}
	c.order = append(c.order, k)
	c.vecs[k] = v
}
