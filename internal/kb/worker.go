package kb

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tribe/internal/events"
	"tribe/internal/store"
)

// Embeddings worker timing.
const (
	embedBatch   = 64               // chunks per API call
	embedLease   = 5 * time.Minute  // a claimed chunk is left alone this long
	embedPoll    = 15 * time.Second // look for work (and sync the index) at least this often
	retryFirst   = 30 * time.Second // a failed chunk waits this long, doubling per attempt
	retryMax     = time.Hour
	pauseFirst   = time.Second // the worker pauses after a failed call, doubling
	pauseMax     = 5 * time.Minute
	embedTimeout = 2 * time.Minute // one API call
)

// RunEmbeddings is the embeddings worker: until ctx ends it stores a vector
// for every chunk that lacks one for the current model, keeps the in-memory
// vector index in step (after its own work, on change notices from other
// instances, and at every poll), and retries failures with back-off. Several
// instances may run it on one database: a chunk is claimed with a lease
// (PostgreSQL: FOR UPDATE SKIP LOCKED), so each is embedded once. Without an
// embedding model it returns at once.
func (s *Service) RunEmbeddings(ctx context.Context) {
	if s.embedder == nil || s.vectors == nil {
		return
	}
	var watch *events.Subscription
	var notices <-chan struct{} // nil without a hub: never ready
	if s.hub != nil {
		w, err := s.hub.Watch(ctx, events.TopicKB)
		if err != nil {
			s.logger.Warn("knowledge base: not following other instances' changes; polling only", "err", err)
		} else {
			defer w.Close()
			watch, notices = w, w.Wake()
		}
	}
	s.syncVectors(ctx)
	pause := s.pauseFirst
	// Go 1.23 timers: Reset never delivers a stale tick, so no draining.
	timer := time.NewTimer(s.poll)
	defer timer.Stop()
	for {
		n, err := s.embedOnce(ctx)
		wait := s.poll
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			s.logger.Warn("knowledge base: embedding failed; will retry", "err", err, "retry_in", pause)
			wait, pause = pause, min(pause*2, pauseMax)
		case n > 0:
			pause = s.pauseFirst
			s.syncVectors(ctx)
			s.notify(ctx)
			continue
		default:
			// Chunks waiting out a retry are due before the next poll.
			if due, ok := s.nextDue(ctx); ok {
				wait = min(wait, max(time.Until(due), 10*time.Millisecond))
			}
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		case <-notices:
			watch.Take()
			s.syncVectors(ctx)
		case <-timer.C:
			s.syncVectors(ctx)
		}
	}
}

// nextDue is when the earliest chunk still waiting for a vector may be
// tried again.
func (s *Service) nextDue(ctx context.Context) (time.Time, bool) {
	var due store.NullTime
	err := s.db.Read.QueryRowContext(ctx, `SELECT min(embed_after) FROM kb_chunks
		WHERE embedding_model IS NULL OR embedding_model <> $1`, s.embedder.Model()).Scan(&due)
	if err != nil || !due.Valid {
		return time.Time{}, false
	}
	return due.Time.Time, true
}

// syncVectors brings the vector index in step, logging a failure (the next
// poll tries again).
func (s *Service) syncVectors(ctx context.Context) {
	if err := s.vectors.Sync(ctx); err != nil && ctx.Err() == nil {
		s.logger.Warn("knowledge base: vector index sync failed", "err", err)
	}
	s.results.reset() // new vectors change hybrid rankings
}

// pendingChunk is a chunk claimed for embedding.
type pendingChunk struct {
	id       int64
	doc      string
	content  string
	attempts int
}

// embedOnce claims a batch of chunks without a current vector, embeds them
// and stores the vectors. It returns how many it stored.
func (s *Service) embedOnce(ctx context.Context) (int, error) {
	model := s.embedder.Model()
	batch, err := s.claim(ctx, model)
	if err != nil || len(batch) == 0 {
		return 0, err
	}
	texts, err := s.embedTexts(ctx, batch)
	if err != nil {
		return 0, err
	}
	callCtx, cancel := context.WithTimeout(ctx, embedTimeout)
	vecs, err := s.embedder.Embed(callCtx, texts)
	cancel()
	if err == nil && len(vecs) != len(batch) {
		err = fmt.Errorf("embeddings API returned %d vectors for %d texts", len(vecs), len(batch))
	}
	if err != nil {
		// Stopping is not the chunks' failure: hand them back as they were.
		s.release(context.WithoutCancel(ctx), batch, err, ctx.Err() == nil)
		return 0, err
	}
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		for i, c := range batch {
			// A chunk deleted meanwhile updates nothing, which is right.
			if _, err := tx.ExecContext(ctx,
				`UPDATE kb_chunks SET embedding = $1, embedding_model = $2, embed_attempts = 0, embed_after = NULL, embed_error = NULL
				  WHERE id = $3`, encodeVector(vecs[i]), model, c.id); err != nil {
				return fmt.Errorf("store vector of chunk %d: %w", c.id, err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return len(batch), nil
}

// claim takes up to embedBatch chunks that need a vector and whose time has
// come, and leases them, in one transaction.
func (s *Service) claim(ctx context.Context, model string) ([]pendingChunk, error) {
	now := store.Now()
	q := `SELECT id, document_id, content, embed_attempts FROM kb_chunks
	       WHERE (embedding_model IS NULL OR embedding_model <> $1) AND (embed_after IS NULL OR embed_after <= $2)
	       ORDER BY id LIMIT $3`
	if s.db.Dialect == store.Postgres {
		// Instances skip each other's claims instead of waiting on them.
		q += ` FOR UPDATE SKIP LOCKED`
	}
	var batch []pendingChunk
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, q, model, now, embedBatch)
		if err != nil {
			return fmt.Errorf("find chunks to embed: %w", err)
		}
		for rows.Next() {
			var c pendingChunk
			if err := rows.Scan(&c.id, &c.doc, &c.content, &c.attempts); err != nil {
				_ = rows.Close()
				return fmt.Errorf("find chunks to embed: %w", err)
			}
			batch = append(batch, c)
		}
		_ = rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("find chunks to embed: %w", err)
		}
		if len(batch) == 0 {
			return nil
		}
		args := []any{store.At(now.Add(embedLease))}
		marks := make([]string, len(batch))
		for i, c := range batch {
			args = append(args, c.id)
			marks[i] = "$" + strconv.Itoa(i+2)
		}
		_, err = tx.ExecContext(ctx, `UPDATE kb_chunks SET embed_after = $1, embed_attempts = embed_attempts + 1
			WHERE id IN (`+strings.Join(marks, ", ")+`)`, args...)
		if err != nil {
			return fmt.Errorf("claim chunks to embed: %w", err)
		}
		return nil
	})
	return batch, err
}

// release records a failed attempt: each chunk waits retryFirst, doubling
// per attempt up to retryMax, and keeps the error for operators. A chunk is
// never given up on: full-text search finds it meanwhile.
//
// With failed false (the worker is stopping) the chunks are handed back
// unchanged, to be claimed again at once.
func (s *Service) release(ctx context.Context, batch []pendingChunk, cause error, failed bool) {
	msg := cause.Error()
	if len(msg) > 500 {
		msg = msg[:500]
	}
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		for _, c := range batch {
			var err error
			if failed {
				delay := min(s.retryFirst<<min(c.attempts, 10), retryMax)
				_, err = tx.ExecContext(ctx, `UPDATE kb_chunks SET embed_after = $1, embed_error = $2 WHERE id = $3`,
					store.At(time.Now().Add(delay)), msg, c.id)
			} else {
				_, err = tx.ExecContext(ctx, `UPDATE kb_chunks SET embed_after = NULL, embed_attempts = $1 WHERE id = $2`,
					c.attempts, c.id)
			}
			if err != nil {
				return fmt.Errorf("release chunk %d: %w", c.id, err)
			}
		}
		return nil
	})
	if err != nil {
		s.logger.Warn("knowledge base: could not record an embedding failure; the lease expires instead", "err", err)
	}
}

// embedTexts is what is embedded for each chunk: its document's title, then
// its text, so a chunk that never names its subject is still about it.
func (s *Service) embedTexts(ctx context.Context, batch []pendingChunk) ([]string, error) {
	docs := map[string]string{}
	for _, c := range batch {
		docs[c.doc] = ""
	}
	ids := make([]any, 0, len(docs))
	marks := make([]string, 0, len(docs))
	for id := range docs {
		ids = append(ids, id)
		marks = append(marks, "$"+strconv.Itoa(len(ids)))
	}
	rows, err := s.db.Read.QueryContext(ctx, `SELECT id, metadata FROM documents WHERE id IN (`+strings.Join(marks, ", ")+`)`, ids...)
	if err != nil {
		return nil, fmt.Errorf("read document titles: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var (
			id   string
			meta []byte
		)
		if err := rows.Scan(&id, &meta); err != nil {
			return nil, fmt.Errorf("read document titles: %w", err)
		}
		docs[id] = decodeMetadata(meta).Title
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read document titles: %w", err)
	}
	texts := make([]string, len(batch))
	for i, c := range batch {
		texts[i] = c.content
		if t := docs[c.doc]; t != "" {
			texts[i] = t + "\n\n" + c.content
		}
	}
	return texts, nil
}
