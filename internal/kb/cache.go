package kb

import (
	"slices"
	"sync"
	"time"
)

// Repeated searches. Assistants and the console ask the same questions again
// and again (every MCP client's first search is much the same), and a
// full-text query costs more than everything else on the request's path, so
// a search's results are kept for a moment. A local change clears them at
// once; another instance's change is seen within resultTTL.
const (
	resultTTL     = 2 * time.Second
	resultEntries = 512
)

type resultKey struct {
	query string
	limit int
}

type resultEntry struct {
	res Results
	at  time.Time
}

// resultCache holds recent search results. gen counts changes, so a search
// that began before a change never stores what it found.
type resultCache struct {
	mu      sync.Mutex
	gen     uint64
	entries map[resultKey]resultEntry
}

func newResultCache() *resultCache {
	return &resultCache{entries: map[resultKey]resultEntry{}}
}

// get returns fresh results for k, and the generation a search started now
// must hand to put.
func (c *resultCache) get(k resultKey, now time.Time) (Results, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok || now.Sub(e.at) >= resultTTL {
		return Results{}, c.gen, false
	}
	return e.res.clone(), c.gen, true
}

// put stores results found at generation gen, unless a change came since.
func (c *resultCache) put(k resultKey, gen uint64, res Results, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if len(c.entries) >= resultEntries {
		for key, e := range c.entries {
			if now.Sub(e.at) >= resultTTL {
				delete(c.entries, key)
			}
		}
		if len(c.entries) >= resultEntries {
			clear(c.entries)
		}
	}
	c.entries[k] = resultEntry{res: res.clone(), at: now}
}

// reset forgets every result, after a change to the knowledge base.
func (c *resultCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.entries)
}

// clone copies the list, so a caller that reorders or edits its results
// leaves the cached ones alone.
func (r Results) clone() Results {
	r.Results = slices.Clone(r.Results)
	return r
}
