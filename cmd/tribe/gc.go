package main

import (
	"runtime/debug"
)

// Garbage collection for `serve`. Go's default (GOGC=100) collects each
// time the heap doubles; this server's live heap is small and every request
// allocates (JSON, the MCP SDK's per-request session), so at the default the
// collector took about a third of the processor time under load. Collecting
// when the heap has grown fivefold instead cut the processor time of an MCP
// search by a third and its p99 latency by half (bench/RESULTS.md, "MCP
// endpoint"). The soft memory limit keeps that from growing a large heap
// (a big knowledge base's vectors) fivefold: near it the collector runs as
// often as it must. An operator's GOGC or GOMEMLIMIT wins over both.
const (
	serveGCPercent   = 400
	serveMemoryLimit = 768 << 20 // bytes
)

// tuneGC applies the serve defaults above where the environment sets none.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
}
