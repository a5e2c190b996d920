package web

import (
	"bufio"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"tribe/internal/agent/aitest"
	"tribe/internal/store/storetest"
)

// BenchmarkAIStreamOverhead measures what the chat stream adds between the
// provider and the person: a fake provider on loopback streams 20 content
// chunks 2 ms apart (so each arrives in its own read) to the site, which
// relays them to a client on loopback. For each chunk it pairs the moment
// the provider flushed it with the moment the client read the relayed
// chunk. Reported: first_byte_p50/p99 (the first content chunk) and
// chunk_p50/p99 (every chunk), in microseconds, for the chat stream
// (via_site) and, for comparison, for a client reading the fake provider
// directly (direct): the difference is what the site adds. One iteration is
// one answer (SQLite, knowledge base empty, no tool calls):
//
//	go test -run '^$' -bench AIStreamOverhead -benchtime 200x ./internal/web
func BenchmarkAIStreamOverhead(b *testing.B) {
	const chunks = 20
	turn := aitest.Turn{}
	for i := range chunks {
		turn.Steps = append(turn.Steps, aitest.Step{Write: aitest.ContentChunk(fmt.Sprintf("word%d ", i)), Pause: 2 * time.Millisecond})
	}
	turn.Steps = append(turn.Steps, aitest.Step{Write: aitest.FinishChunk("stop")}, aitest.Step{Write: aitest.Done})
	fake := aitest.Start(b, aitest.ScriptFunc(func(aitest.Request) aitest.Turn { return turn }))
	db := storetest.Open(b, "", b.TempDir())
	site := newTestSite(b, db, aiEnv(fake))
	users := 0

	// via_site is the chat stream; direct reads the fake provider itself,
	// the one loopback hop the site's relay adds to, for comparison.
	for _, via := range []string{"via_site", "direct"} {
		b.Run(via, func(b *testing.B) {
			var first, every []time.Duration
			for range b.N {
				b.StopTimer()
				u := site.user(fmt.Sprintf("bench%d@example.com", users)) // each answer its own account: no rate limit in the way
				users++
				n := len(fake.Requests())
				b.StartTimer()
				var resp *http.Response
				var err error
				if via == "direct" {
					resp, err = http.Post(fake.URL+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[]}`))
					if err != nil {
						b.Fatal(err)
					}
				} else {
					resp, _ = site.openChat(u, "Stream please")
				}
				var got []time.Time
				rd := bufio.NewReaderSize(resp.Body, 64<<10)
				for {
					line, err := rd.ReadString('\n')
					if err != nil {
						b.Fatalf("answer ended early: %v", err)
					}
					if strings.Contains(line, `"content":"word`) {
						got = append(got, time.Now())
					}
					if line == "data: [DONE]\n" {
						break
					}
				}
				_ = resp.Body.Close()
				sent := fake.Writes(n)
				if len(got) != chunks || len(sent) < chunks {
					b.Fatalf("%d chunks read, %d written", len(got), len(sent))
				}
				for k := range chunks {
					d := got[k].Sub(sent[k])
					every = append(every, d)
					if k == 0 {
						first = append(first, d)
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(pct(first, 50), "first_byte_p50_µs")
			b.ReportMetric(pct(first, 99), "first_byte_p99_µs")
			b.ReportMetric(pct(every, 50), "chunk_p50_µs")
			b.ReportMetric(pct(every, 99), "chunk_p99_µs")
		})
	}
}

// pct is the p-th percentile of ds in microseconds.
func pct(ds []time.Duration, p int) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s) - 1) * p / 100
	return float64(s[i].Microseconds())
}
