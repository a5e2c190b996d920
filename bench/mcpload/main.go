// Command mcpload measures the MCP endpoint of a running bin/tribe: the
// latency of tools/call search under a number of concurrent clients, and the
// requests per second they get through. Run it with bench/mcp.sh.
//
// It first connects with the official Go SDK client (so the protocol version
// is negotiated as an assistant would), records the exact HTTP request that
// client sends for one tools/call, checks the answer, and then replays that
// request from every client in a closed loop: each client sends the next
// request when the last answer has arrived.
//
// Each request names another client address in X-Forwarded-For (from
// 198.18.0.0/15, the range set aside for benchmarks), so the server's
// per-address rate limit stays on the path without refusing the load; the
// server must trust the loopback proxy (TRIBE_TRUSTED_PROXIES=127.0.0.1).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	endpoint := flag.String("url", "http://127.0.0.1:8080/mcp", "the MCP endpoint")
	clients := flag.Int("clients", 32, "concurrent clients")
	duration := flag.Duration("d", 10*time.Second, "how long to measure")
	warmup := flag.Duration("warmup", 2*time.Second, "load before measuring")
	query := flag.String("query", "price of a 30 minute session", "the search query")
	tool := flag.String("tool", "search", "the tool to call: search, or list_services (no database) for comparison")
	rate := flag.Float64("rate", 0, "requests per second from all clients together; 0 sends each request when the last answer arrives")
	flag.Parse()
	if err := run(*endpoint, *clients, *duration, *warmup, *tool, *query, *rate); err != nil {
		fmt.Fprintln(os.Stderr, "mcpload:", err)
		os.Exit(1)
	}
}

// recorder keeps the first tools/call request a client sends.
type recorder struct {
	mu     sync.Mutex
	header http.Header
	body   []byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(b))
		if bytes.Contains(b, []byte(`"tools/call"`)) {
			r.mu.Lock()
			if r.body == nil {
				r.header, r.body = req.Header.Clone(), b
			}
			r.mu.Unlock()
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

func run(endpoint string, clients int, duration, warmup time.Duration, tool, query string, rate float64) error {
	ctx := context.Background()
	rec := &recorder{}
	client := sdk.NewClient(&sdk.Implementation{Name: "mcpload", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: rec}}, nil)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	args := map[string]any{}
	expect := []byte(`"sessions"`)
	if tool == "search" {
		args = map[string]any{"query": query, "limit": 5}
		expect = []byte(`"results"`)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return fmt.Errorf("%s: %w", tool, err)
	}
	if res.IsError {
		return fmt.Errorf("%s refused: %+v", tool, res.Content)
	}
	if tool == "search" {
		var out struct {
			Results []json.RawMessage `json:"results"`
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil || len(out.Results) == 0 {
			return fmt.Errorf("search found nothing (is the knowledge base seeded?): %s", b)
		}
	}
	version := cs.InitializeResult().ProtocolVersion
	_ = cs.Close()
	if rec.body == nil {
		return errors.New("no tools/call request was recorded")
	}

	httpClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
	var (
		next     atomic.Uint32 // client address counter
		measure  atomic.Bool
		failures atomic.Int64
		firstErr atomic.Value
		mu       sync.Mutex
		lat      []time.Duration
		wg       sync.WaitGroup
	)
	stop := make(chan struct{})
	// one sends a request and returns the time from start to the whole answer.
	one := func(start time.Time) (time.Duration, error) {
		req, _ := http.NewRequest("POST", endpoint, bytes.NewReader(rec.body))
		req.Header = rec.header.Clone()
		n := next.Add(1)
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.%d.%d.%d", 18+(n>>16)%2, (n>>8)&0xff, n&0xff))
		resp, err := httpClient.Do(req)
		if err != nil {
			return 0, err
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		took := time.Since(start)
		switch {
		case err != nil:
			return 0, err
		case resp.StatusCode != http.StatusOK:
			return 0, fmt.Errorf("status %d: %.200s", resp.StatusCode, body)
		case !bytes.Contains(body, expect) || bytes.Contains(body, []byte(`"isError":true`)):
			return 0, fmt.Errorf("unexpected answer: %.200s", body)
		}
		return took, nil
	}
	// With a rate, each client sends on its own schedule and latency counts
	// from the scheduled time, so a slow answer that delays the next request
	// is not hidden (no coordinated omission).
	var every time.Duration
	if rate > 0 {
		every = time.Duration(float64(clients) / rate * float64(time.Second))
	}
	for c := range clients {
		wg.Go(func() {
			var mine []time.Duration
			due := time.Now().Add(every * time.Duration(c) / time.Duration(clients))
			for {
				start := time.Now()
				if every > 0 {
					time.Sleep(time.Until(due))
					start, due = due, due.Add(every)
				}
				select {
				case <-stop:
					mu.Lock()
					lat = append(lat, mine...)
					mu.Unlock()
					return
				default:
				}
				took, err := one(start)
				if !measure.Load() {
					continue
				}
				if err != nil {
					failures.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				mine = append(mine, took)
			}
		})
	}
	time.Sleep(warmup)
	measure.Store(true)
	began := time.Now()
	time.Sleep(duration)
	measure.Store(false)
	elapsed := time.Since(began)
	close(stop)
	wg.Wait()

	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	what := "tools/call " + tool
	if tool == "search" {
		what += fmt.Sprintf(" %q", query)
	}
	pace := "each client sends when its last answer arrives"
	if rate > 0 {
		pace = fmt.Sprintf("%.0f requests/s offered", rate)
	}
	fmt.Printf("%s, protocol %s, %d clients, %s, %s measured after %s warm-up\n", what, version, clients, pace, duration, warmup)
	fmt.Printf("requests %d  failures %d  req/s %.0f\n", len(lat), failures.Load(), float64(len(lat))/elapsed.Seconds())
	fmt.Printf("latency p50 %s  p90 %s  p99 %s  max %s\n", ms(pct(0.50)), ms(pct(0.90)), ms(pct(0.99)), ms(pct(1)))
	if e := firstErr.Load(); e != nil {
		fmt.Printf("first failure: %s\n", strings.TrimSpace(e.(string)))
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }
