// Command loadmix puts a running bin/tribe under the mixed load of many
// anonymous visitors and reports what they got: requests per second,
// latency percentiles and errors, overall and per kind of request. Run it
// with bench/loadmix.sh, which starts the server on each engine.
//
// Each connection sends its next request when the last answer has arrived
// (a closed loop). The mix, by weight: pages (/, /about, /tribe, /booking)
// 4, the public API (GET /api/tribe/status) 2, search (POST /api/search) 2
// and MCP (tools/call search) 2. Every request names another client
// address in X-Forwarded-For (from 198.18.0.0/15, the range set aside for
// benchmarks), so the per-address limits stay on the path for many honest
// visitors; the server must trust the loopback proxy
// (TRIBE_TRUSTED_PROXIES=127.0.0.1).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// kind is one kind of request of the mix.
type kind struct {
	name   string
	weight int
	build  func(base string, i uint64) *http.Request
}

var queries = []string{"price of a 30 minute session", "tribe cohorts", "agentic payments", "memory for agents", "booking"}

var pages = []string{"/", "/about", "/tribe", "/booking"}

func mix() []kind {
	return []kind{
		{"pages", 4, func(base string, i uint64) *http.Request {
			r, _ := http.NewRequest(http.MethodGet, base+pages[i%uint64(len(pages))], nil)
			return r
		}},
		{"api", 2, func(base string, _ uint64) *http.Request {
			r, _ := http.NewRequest(http.MethodGet, base+"/api/tribe/status", nil)
			return r
		}},
		{"search", 2, func(base string, i uint64) *http.Request {
			body := fmt.Sprintf(`{"query":%q}`, queries[i%uint64(len(queries))])
			r, _ := http.NewRequest(http.MethodPost, base+"/api/search", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Origin", base)
			return r
		}},
		{"mcp", 2, func(base string, i uint64) *http.Request {
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search","arguments":{"query":%q}}}`,
				i, queries[i%uint64(len(queries))])
			r, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			return r
		}},
	}
}

// sample is one answered (or failed) request.
type sample struct {
	kind    int
	latency time.Duration
	status  int // 0: the request failed before an answer
}

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "the site")
	conns := flag.Int("c", 64, "connections")
	duration := flag.Duration("d", 30*time.Second, "how long to measure")
	warmup := flag.Duration("warmup", 3*time.Second, "load before measuring")
	flag.Parse()
	if err := run(*base, *conns, *duration, *warmup); err != nil {
		fmt.Fprintln(os.Stderr, "loadmix:", err)
		os.Exit(1)
	}
}

func run(base string, conns int, duration, warmup time.Duration) error {
	kinds := mix()
	var schedule []int // one round of the mix, by weight
	for k, kd := range kinds {
		for range kd.weight {
			schedule = append(schedule, k)
		}
	}
	client := &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, DisableCompression: false},
	}
	// Every kind must answer 200 before the measurement starts.
	for k, kd := range kinds {
		resp, err := client.Do(kd.build(base, 0))
		if err != nil {
			return fmt.Errorf("%s: %w", kd.name, err)
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK || k == 3 && !bytes.Contains(b, []byte(`"result"`)) {
			return fmt.Errorf("%s answered %d: %.200s", kd.name, resp.StatusCode, b)
		}
	}

	var next atomic.Uint64
	ctx, cancel := context.WithTimeout(context.Background(), warmup+duration)
	defer cancel()
	start := time.Now().Add(warmup)
	results := make([][]sample, conns)
	var wg sync.WaitGroup
	for c := range conns {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := next.Add(1)
				k := schedule[i%uint64(len(schedule))]
				req := kinds[k].build(base, i)
				// 198.18.0.0/15: 131,072 addresses, one after another.
				n := i % (1 << 17)
				req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.%d.%d.%d", 18+n>>16, n>>8&0xff, n&0xff))
				t0 := time.Now()
				resp, err := client.Do(req.WithContext(ctx))
				status := 0
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					status = resp.StatusCode
				}
				end := time.Now()
				if t0.Before(start) || ctx.Err() != nil {
					continue // warm-up, or cut off by the end of the run
				}
				results[c] = append(results[c], sample{kind: k, latency: end.Sub(t0), status: status})
			}
		})
	}
	wg.Wait()

	all := slices.Concat(results...)
	fmt.Printf("connections=%d duration=%s warmup=%s requests=%d\n", conns, duration, warmup, len(all))
	report("all", all, duration)
	for k, kd := range kinds {
		var of []sample
		for _, s := range all {
			if s.kind == k {
				of = append(of, s)
			}
		}
		report(kd.name, of, duration)
	}
	return nil
}

// report prints one line: requests per second, latency percentiles and the
// errors (answers other than 200, and requests with no answer) by status.
func report(name string, s []sample, d time.Duration) {
	lat := make([]time.Duration, len(s))
	errors := map[int]int{}
	nerr := 0
	for i, x := range s {
		lat[i] = x.latency
		if x.status != http.StatusOK {
			errors[x.status]++
			nerr++
		}
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	var codes []string
	for code, n := range errors {
		codes = append(codes, fmt.Sprintf("%d:%d", code, n))
	}
	sort.Strings(codes)
	fmt.Printf("%-7s req/s=%8.1f p50=%-9s p99=%-9s max=%-9s errors=%d %s\n", name, float64(len(s))/d.Seconds(),
		pct(0.50).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), pct(1).Round(10*time.Microsecond), nerr, strings.Join(codes, " "))
}
