package kb

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"tribe/internal/store"
)

// VectorIndex ranks chunks by how similar their stored vectors are to a
// query vector. memIndex, an in-memory copy of the vectors in the database,
// is the one in use on both engines. It is also the seam for pgvector: an
// implementation that ranks in SQL (ORDER BY embedding <=> $1) would have a
// Sync that does nothing and be passed as Options.Vectors; PostgreSQL here
// has no pgvector, so that implementation is not written.
type VectorIndex interface {
	// Nearest returns up to k chunks, the most similar first.
	Nearest(ctx context.Context, query []float32, k int) ([]VectorHit, error)
	// Sync brings the index up to date with the database after a change,
	// wherever it was made.
	Sync(ctx context.Context) error
	// Len is how many chunks have a vector in the index.
	Len() int
}

// VectorHit is one chunk found by vector similarity.
type VectorHit struct {
	ChunkID    int64
	DocumentID string
	Cosine     float32 // in [-1, 1]
}

// encodeVector stores a vector as little-endian float32s.
func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// decodeVector reads a stored vector.
func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// normalize scales v to unit length in place, so that a dot product is the
// cosine; a zero vector stays zero.
func normalize(v []float32) []float32 {
	var sum float64
	for _, f := range v {
		sum += float64(f) * float64(f)
	}
	if sum == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// dot is the dot product of two vectors of the same length, unrolled by
// eight with independent sums (the loop is the whole cost of vector
// ranking; fixed-size sub-slices let the compiler drop bounds checks).
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		x := (*[8]float32)(a[i : i+8])
		y := (*[8]float32)(b[i : i+8])
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
		s4 += x[4] * y[4]
		s5 += x[5] * y[5]
		s6 += x[6] * y[6]
		s7 += x[7] * y[7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3) + (s4 + s5) + (s6 + s7)
}

// memEntry is one chunk's vector, normalised.
type memEntry struct {
	chunkID    int64
	documentID string
	vec        []float32
}

// memIndex keeps the vectors of the current embedding model in memory and
// ranks all of them exactly, by brute force split across the cores
// (bench/RESULTS.md has the cost at 10,000 chunks of 1,536 dimensions).
// Vectors are never re-read per query: Sync lists the chunk ids that have a
// vector (cheap) and reads only the vectors it lacks, so it follows writes
// from this process and from others. Chunk ids are never reused and a
// chunk's text never changes, so an id seen once keeps its vector until the
// chunk is gone.
type memIndex struct {
	db    *store.DB
	model string

	syncMu  sync.Mutex // one Sync at a time
	mu      sync.RWMutex
	entries []memEntry // replaced whole by Sync, never changed in place
}

func newMemIndex(db *store.DB, model string) *memIndex { return &memIndex{db: db, model: model} }

// Len is how many chunks have a vector in the index.
func (m *memIndex) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.entries)
}

// Sync brings the index in step with the database.
func (m *memIndex) Sync(ctx context.Context) error {
	m.syncMu.Lock()
	defer m.syncMu.Unlock()
	rows, err := m.db.Read.QueryContext(ctx,
		`SELECT id, document_id FROM kb_chunks WHERE embedding_model = $1 ORDER BY id`, m.model)
	if err != nil {
		return fmt.Errorf("list embedded chunks: %w", err)
	}
	type ref struct {
		id  int64
		doc string
	}
	var want []ref
	for rows.Next() {
		var r ref
		if err := rows.Scan(&r.id, &r.doc); err != nil {
			_ = rows.Close()
			return fmt.Errorf("list embedded chunks: %w", err)
		}
		want = append(want, r)
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list embedded chunks: %w", err)
	}

	m.mu.RLock()
	have := make(map[int64][]float32, len(m.entries))
	for _, e := range m.entries {
		have[e.chunkID] = e.vec
	}
	m.mu.RUnlock()
	var missing []int64
	for _, r := range want {
		if _, ok := have[r.id]; !ok {
			missing = append(missing, r.id)
		}
	}
	loaded, err := m.load(ctx, missing)
	if err != nil {
		return err
	}
	next := make([]memEntry, 0, len(want))
	for _, r := range want {
		v, ok := have[r.id]
		if !ok {
			v, ok = loaded[r.id]
		}
		if ok {
			next = append(next, memEntry{chunkID: r.id, documentID: r.doc, vec: v})
		}
	}
	m.mu.Lock()
	m.entries = next
	m.mu.Unlock()
	return nil
}

// load reads the vectors of the given chunks, all of the model's at once
// when most are missing (the first Sync), else in batches by id.
func (m *memIndex) load(ctx context.Context, ids []int64) (map[int64][]float32, error) {
	out := make(map[int64][]float32, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	read := func(q string, args ...any) error {
		rows, err := m.db.Read.QueryContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("read chunk vectors: %w", err)
		}
		defer func() { _ = rows.Close() }()
		for rows.Next() {
			var (
				id  int64
				raw []byte
			)
			if err := rows.Scan(&id, &raw); err != nil {
				return fmt.Errorf("read chunk vectors: %w", err)
			}
			out[id] = normalize(decodeVector(raw))
		}
		return rows.Err()
	}
	if len(ids) > 1000 {
		return out, read(`SELECT id, embedding FROM kb_chunks WHERE embedding_model = $1`, m.model)
	}
	const batch = 200
	for start := 0; start < len(ids); start += batch {
		part := ids[start:min(start+batch, len(ids))]
		args := make([]any, 0, len(part)+1)
		args = append(args, m.model)
		marks := make([]string, len(part))
		for i, id := range part {
			args = append(args, id)
			marks[i] = "$" + strconv.Itoa(i+2)
		}
		if err := read(`SELECT id, embedding FROM kb_chunks WHERE embedding_model = $1 AND id IN (`+strings.Join(marks, ", ")+`)`, args...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Nearest ranks every vector against query, split across the processor's
// cores when there are many.
func (m *memIndex) Nearest(_ context.Context, query []float32, k int) ([]VectorHit, error) {
	q := normalize(slices.Clone(query))
	m.mu.RLock()
	entries := m.entries
	m.mu.RUnlock()
	if k <= 0 || len(entries) == 0 {
		return nil, nil
	}
	parts := 1
	if len(entries) >= 2000 {
		parts = min(runtime.GOMAXPROCS(0), 8)
	}
	tops := make([][]VectorHit, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*len(entries)/parts, (p+1)*len(entries)/parts
		wg.Go(func() { tops[p] = topK(entries[lo:hi], q, k) })
	}
	wg.Wait()
	var all []VectorHit
	for _, t := range tops {
		all = append(all, t...)
	}
	sortHits(all)
	if len(all) > k {
		all = all[:k]
	}
	return all, nil
}

// topK keeps the k best entries of one slice, in no particular order.
func topK(entries []memEntry, q []float32, k int) []VectorHit {
	h := make([]VectorHit, 0, k) // a min-heap on Cosine once full
	for _, e := range entries {
		if len(e.vec) != len(q) {
			continue // written by another model version; Sync drops it
		}
		c := dot(q, e.vec)
		if len(h) < k {
			h = append(h, VectorHit{e.chunkID, e.documentID, c})
			if len(h) == k {
				heapify(h)
			}
			continue
		}
		if c > h[0].Cosine {
			h[0] = VectorHit{e.chunkID, e.documentID, c}
			siftDown(h, 0)
		}
	}
	return h
}

func heapify(h []VectorHit) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
}

func siftDown(h []VectorHit, i int) {
	for {
		small, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h[l].Cosine < h[small].Cosine {
			small = l
		}
		if r < len(h) && h[r].Cosine < h[small].Cosine {
			small = r
		}
		if small == i {
			return
		}
		h[i], h[small] = h[small], h[i]
		i = small
	}
}

// sortHits orders hits best first, by chunk id among equals.
func sortHits(h []VectorHit) {
	slices.SortFunc(h, func(a, b VectorHit) int {
		switch {
		case a.Cosine > b.Cosine:
			return -1
		case a.Cosine < b.Cosine:
			return 1
		}
		return cmp.Compare(a.ChunkID, b.ChunkID)
	})
}

// chunkText reads chunks by id with their document's metadata, for results
// found by vector alone. Chunks deleted since the index saw them are absent.
func chunkText(ctx context.Context, db *sql.DB, ids []int64) (map[int64]ftsHit, error) {
	out := map[int64]ftsHit{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	marks := make([]string, len(ids))
	for i, id := range ids {
		args[i], marks[i] = id, "$"+strconv.Itoa(i+1)
	}
	rows, err := db.QueryContext(ctx, `SELECT c.id, c.document_id, c.content, d.metadata
		  FROM kb_chunks c JOIN documents d ON d.id = c.document_id
		 WHERE c.id IN (`+strings.Join(marks, ", ")+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read chunks: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var (
			h    ftsHit
			meta []byte
		)
		if err := rows.Scan(&h.chunkID, &h.documentID, &h.content, &meta); err != nil {
			return nil, fmt.Errorf("read chunks: %w", err)
		}
		h.metadata = decodeMetadata(meta)
		out[h.chunkID] = h
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read chunks: %w", err)
	}
	return out, nil
}
