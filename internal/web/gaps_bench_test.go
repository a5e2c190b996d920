package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"tribe/internal/auth"
	"tribe/internal/gaps"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestKnowledgeGapsBench stores gaps.MaxKept (20,000) questions through
// gaps.Service.Record, as searches do (each clustered as it is written),
// then asks for the admin page GET /api/admin/knowledge-gaps through the
// whole handler: the first page and the tenth, 300 times each. It prints
// the latency quantiles, the handler's processor time (which a busy
// machine's waiting does not inflate), the answer's size, and the cost of
// a write. It
// runs only with GAPS_BENCH=1 (bench/gaps.sh).
func TestKnowledgeGapsBench(t *testing.T) {
	if os.Getenv("GAPS_BENCH") != "1" {
		t.Skip("set GAPS_BENCH=1 (bench/gaps.sh)")
	}
	storetest.EachNamed(t, func(t *testing.T, engine string, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		adm := m.user(membersAdminEmail)
		svc := m.s.Services.Gaps
		ctx := context.Background()
		questions := benchQuestions(gaps.MaxKept)
		writes := make([]time.Duration, 0, len(questions))
		began := time.Now()
		for i, q := range questions {
			t0 := time.Now()
			svc.Record(gaps.WithClient(ctx, fmt.Sprintf("198.51.%d.%d", i/250, i%250)), q)
			writes = append(writes, time.Since(t0))
		}
		var kept, clusters int
		if err := db.Read.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT cluster_id) FROM knowledge_gaps`).Scan(&kept, &clusters); err != nil {
			t.Fatal(err)
		}
		if kept != len(questions) {
			t.Fatalf("%d of %d questions kept", kept, len(questions))
		}
		t.Logf("seeded %s: %d questions in %d groups in %s; a write p50 %s p99 %s",
			engine, kept, clusters, time.Since(began).Round(time.Millisecond), at(writes, 50), at(writes, 99))

		// The handler runs on this goroutine: pinned to its thread, the
		// thread's processor time is the request's own work, which a busy
		// machine's waiting does not inflate.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		page := func(cursor string) (string, int, time.Duration, time.Duration) {
			req := httptest.NewRequest("GET", "/api/admin/knowledge-gaps?cursor="+cursor, nil)
			req.RemoteAddr = "127.0.0.1:1234"
			req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: adm.token})
			rec := httptest.NewRecorder()
			t0, cpu0 := time.Now(), threadCPU()
			m.h.ServeHTTP(rec, req)
			took, cpu := time.Since(t0), threadCPU()-cpu0
			if rec.Code != 200 {
				t.Fatalf("knowledge gaps: %d %s", rec.Code, rec.Body)
			}
			body := rec.Body.String()
			next := ""
			if _, rest, ok := strings.Cut(body, `"next":"`); ok {
				next, _, _ = strings.Cut(rest, `"`)
			}
			return next, len(body), took, cpu
		}
		cursor := ""
		for range 9 {
			cursor, _, _, _ = page(cursor)
		}
		for _, c := range []struct{ name, cursor string }{{"first page", ""}, {"tenth page", cursor}} {
			var took, cpu []time.Duration
			size := 0
			for range 300 {
				_, n, d, c := page(c.cursor)
				took, cpu, size = append(took, d), append(cpu, c), n
			}
			t.Logf("knowledge gaps %s, %s: p50 %s p99 %s max %s, processor time p50 %s p99 %s, answer %d bytes (%d groups a page)",
				engine, c.name, at(took, 50), at(took, 99), slices.Max(took).Round(time.Microsecond), at(cpu, 50), at(cpu, 99), size, gaps.DefaultPage)
		}
	})
}

// benchQuestions are n questions as a site's visitors might ask them:
// 4,000 topics of two or three uncommon words asked with a few phrasings,
// the popular ones more often, and one question in eight with an e-mail
// address or a phone number pasted in.
func benchQuestions(n int) []string {
	r := rand.New(rand.NewPCG(29, 20000))
	vocab := make([]string, 1500)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("%s%s%s", syllables[r.IntN(len(syllables))], syllables[r.IntN(len(syllables))], syllables[r.IntN(len(syllables))])
	}
	topics := make([][]string, 4000)
	for i := range topics {
		topics[i] = []string{vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))]}
		if r.IntN(2) == 0 {
			topics[i] = append(topics[i], vocab[r.IntN(len(vocab))])
		}
	}
	frames := []string{"Do you offer %s?", "what about %s", "Is there any %s for members?", "%s", "how do I get %s",
		"Can you help with %s please", "Tell me about %s"}
	out := make([]string, n)
	for i := range out {
		// Skewed towards the first topics: the few questions many people ask.
		topic := topics[int(float64(len(topics))*r.Float64()*r.Float64())]
		q := fmt.Sprintf(frames[r.IntN(len(frames))], strings.Join(topic, " "))
		switch r.IntN(16) {
		case 0:
			q += fmt.Sprintf(" write to visitor%d@example.com", i)
		case 1:
			q += fmt.Sprintf(" call +1 415 555 %04d", i%10000)
		}
		out[i] = q
	}
	return out
}

var syllables = strings.Fields("ka lo mi ne ru sa ti vo zu be da fe gi ho ju la me no pi qua re so tu ve wi xa yo ze")

// at is the p-th percentile of ds (sorted in place), to the microsecond.
func at(ds []time.Duration, p int) time.Duration {
	slices.Sort(ds)
	return percentile(ds, p).Round(time.Microsecond)
}
