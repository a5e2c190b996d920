package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/auth"
	"tribe/internal/storage/storagetest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// benchGate skips a library benchmark unless LIBRARY_BENCH=1 (bench/library.sh):
// they take minutes and write gigabytes, so the test run never starts them.
func benchGate(t *testing.T) {
	if os.Getenv("LIBRARY_BENCH") != "1" {
		t.Skip("set LIBRARY_BENCH=1 (bench/library.sh)")
	}
}

// TestLibraryListBench measures GET /api/library as a subscriber through
// the whole handler with 500 published items and 50 members' progress on
// every one of them (25,000 rows), on each engine: the 50th and 99th
// percentiles of LIBRARY_BENCH_ROUNDS requests (default 500).
func TestLibraryListBench(t *testing.T) {
	benchGate(t)
	rounds := 500
	if n, err := strconv.Atoi(os.Getenv("LIBRARY_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			dbURL, dir := e.New(t)
			db := storetest.Open(t, dbURL, dir)
			m := newTestSite(t, db, membersEnv())
			members := make([]testUser, 50)
			for i := range members {
				members[i] = m.user(fmt.Sprintf("lib-%d@example.com", i))
				m.subscribe(members[i], "active")
			}
			seedLibrary(t, db, members, 500)
			req := httptest.NewRequest("GET", "/api/library", nil)
			req.RemoteAddr = "127.0.0.1:1234"
			req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: members[7].token})
			times := make([]time.Duration, 0, rounds)
			for i := range rounds + 20 {
				t0 := time.Now()
				rec := httptest.NewRecorder()
				m.h.ServeHTTP(rec, req.Clone(req.Context()))
				if i >= 20 { // the first requests warm the caches and pools
					times = append(times, time.Since(t0))
				}
				if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"completed":true`) {
					t.Fatalf("list: %d %.200s", rec.Code, rec.Body)
				}
			}
			slices.Sort(times)
			t.Logf("library list %s, 500 items x 50 members' progress: p50 %.2f ms, p99 %.2f ms (%d requests)", e.Name,
				float64(percentile(times, 50).Microseconds())/1000, float64(percentile(times, 99).Microseconds())/1000, rounds)
		})
	}
}

// seedLibrary writes n published items with tags and a transcript flag,
// and every member's progress on each (a third finished), many rows per
// statement.
func seedLibrary(t *testing.T, db *store.DB, members []testUser, n int) {
	t.Helper()
	ctx := context.Background()
	kinds := []string{"recording", "material", "lesson", "link"}
	now := time.Now().Add(-time.Hour)
	ids := make([]string, n)
	insert := func(head string, width int, rows [][]any) {
		for len(rows) > 0 {
			batch := rows[:min(len(rows), 200)]
			rows = rows[len(batch):]
			var sb strings.Builder
			sb.WriteString(head)
			var args []any
			for i, r := range batch {
				if i > 0 {
					sb.WriteString(", ")
				}
				sb.WriteString("(")
				for j := range width {
					if j > 0 {
						sb.WriteString(", ")
					}
					fmt.Fprintf(&sb, "$%d", len(args)+j+1)
				}
				sb.WriteString(")")
				args = append(args, r...)
			}
			if _, err := db.Write.ExecContext(ctx, sb.String(), args...); err != nil {
				t.Fatal(err)
			}
		}
	}
	var items [][]any
	for i := range n {
		ids[i] = store.NewID()
		at := store.At(now.Add(-time.Duration(i) * time.Hour))
		items = append(items, []any{ids[i], kinds[i%4], fmt.Sprintf("Session %d replay", i), "What we built and why.",
			`["agents","memory"]`, 3600, i % 3, at, at, at})
	}
	insert(`INSERT INTO library_items (id, kind, title, description, tags, duration_s, min_level, published_at, created_at, updated_at) VALUES `, 10, items)
	var progress [][]any
	for _, m := range members {
		for i, id := range ids {
			progress = append(progress, []any{id, m.id, (i * 37) % 3600, i%3 == 0, store.At(now)})
		}
	}
	insert(`INSERT INTO library_progress (item_id, user_id, position_s, completed, updated_at) VALUES `, 5, progress)
}

// peaks samples the process's live heap every few milliseconds and reads
// its peak resident set, from a reset (Linux: clear_refs 5) to Stop.
type peaks struct {
	stop chan struct{}
	wg   sync.WaitGroup
	heap uint64
}

func watchMemory() *peaks {
	runtime.GC()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	p := &peaks{stop: make(chan struct{})}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	p.wg.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			p.heap = max(p.heap, sample[0].Value.Uint64())
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	})
	return p
}

// Stop ends the sampling and returns the peak heap and peak RSS in MiB.
func (p *peaks) Stop() (heapMiB, rssMiB float64) {
	close(p.stop)
	p.wg.Wait()
	b, _ := os.ReadFile("/proc/self/status")
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			rssMiB = float64(kb) / 1024
		}
	}
	return float64(p.heap) / (1 << 20), rssMiB
}

// TestLibraryUploadBench sends a file through the upload routes over HTTP
// in 16 MiB chunks and attaches it, to the data directory and to a bucket
// of versitygw on this machine, at 128 MiB and LIBRARY_BENCH_SIZE (default
// 1 GiB): the throughput of the chunks and of the attach (one Put of the
// whole file, streamed from the parts), and the process's peak Go heap and
// peak resident set. Client and server share the process, so both include
// the client's one 16 MiB chunk buffer.
func TestLibraryUploadBench(t *testing.T) {
	benchGate(t)
	big := int64(1 << 30)
	if n, err := strconv.ParseInt(os.Getenv("LIBRARY_BENCH_SIZE"), 10, 64); err == nil && n > 0 {
		big = n
	}
	const chunk = 16 << 20
	buf := make([]byte, chunk)
	_, _ = rand.Read(buf)
	dbURL, dir := storetest.Engines()[0].New(t)
	db := storetest.Open(t, dbURL, dir)
	for _, backend := range []string{"local", "s3"} {
		t.Run(backend, func(t *testing.T) {
			env := membersEnv()
			if backend == "s3" {
				env = s3Env(t, storagetest.StartT(t))
			}
			env["TRIBE_ADMIN_EMAILS"] = "owner." + backend + "@admin.example"
			env["TRIBE_MAX_UPLOAD"] = strconv.FormatInt(max(big, 128<<20), 10)
			m := newTestSite(t, db, env)
			admin := m.user(env["TRIBE_ADMIN_EMAILS"])
			item := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "Bench " + backend})
			for _, size := range []int64{128 << 20, big} {
				copy(buf, "\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom")
				p := watchMemory()
				t0 := time.Now()
				r := m.call(admin, "POST", "/api/admin/uploads", map[string]any{"filename": "bench.mp4", "size": size})
				if r.status != 201 {
					t.Fatalf("create: %d %s", r.status, r.body)
				}
				id := r.json["upload_id"].(string)
				for first := int64(0); first < size; first += chunk {
					n := min(chunk, size-first)
					req, _ := http.NewRequest("PATCH", m.srv.URL+"/api/admin/uploads/"+id, bytes.NewReader(buf[:n]))
					req.Header.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", first, first+n-1, size))
					req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: admin.token})
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						t.Fatal(err)
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					if resp.StatusCode != 200 {
						t.Fatalf("chunk at %d: %d", first, resp.StatusCode)
					}
					buf[len(buf)-1]++ // no two chunks alike
				}
				up := time.Since(t0)
				t1 := time.Now()
				if r := m.call(admin, "PUT", "/api/admin/library/"+item+"/media", map[string]any{"upload_id": id}); r.status != 200 {
					t.Fatalf("attach: %d %s", r.status, r.body)
				}
				attach := time.Since(t1)
				heap, rss := p.Stop()
				mib := float64(size) / (1 << 20)
				t.Logf("upload %s %5.0f MiB: chunks %6.1f MiB/s (%.1f s), attach %6.1f MiB/s (%.1f s), peak heap %5.1f MiB, peak RSS %5.1f MiB",
					backend, mib, mib/up.Seconds(), up.Seconds(), mib/attach.Seconds(), attach.Seconds(), heap, rss)
			}
		})
	}
}

// TestLibraryRangeStreamsBench plays a 256 MiB recording on 16 streams at
// once from the data directory, as browsers seeking through a video do:
// each stream reads the file in 1 MiB range requests over its own
// connection, through the whole site with the access check on every
// request. It reports the total throughput and the p50 and p99 of one
// range's answer.
func TestLibraryRangeStreamsBench(t *testing.T) {
	benchGate(t)
	const size, span, streams = 256 << 20, 1 << 20, 16
	dbURL, dir := storetest.Engines()[0].New(t)
	db := storetest.Open(t, dbURL, dir)
	env := membersEnv()
	env["TRIBE_ADMIN_EMAILS"] = "owner.streams@admin.example"
	m := newTestSite(t, db, env)
	admin := m.user(env["TRIBE_ADMIN_EMAILS"])
	sub := m.user("viewer.streams@example.com")
	m.subscribe(sub, "active")
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	item := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "Streams", "published_at": past})
	data := make([]byte, size)
	_, _ = rand.Read(data)
	copy(data, "\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom")
	up := m.uploadFile(admin, data, 16<<20)
	if r := m.call(admin, "PUT", "/api/admin/library/"+item+"/media", map[string]any{"upload_id": up}); r.status != 200 {
		t.Fatalf("attach: %d %s", r.status, r.body)
	}
	data = nil
	var mu sync.Mutex
	var times []time.Duration
	var wg sync.WaitGroup
	t0 := time.Now()
	for s := range streams {
		wg.Go(func() {
			client := &http.Client{Transport: &http.Transport{}}
			buf := make([]byte, span)
			// Each stream starts at its own place and reads on, wrapping at
			// the end, until all of them together have read the file 16 times.
			for first := (s * span * 16) % size; ; first += span {
				if first >= size {
					first = 0
				}
				req, _ := http.NewRequest("GET", m.srv.URL+"/api/library/"+item+"/media", nil)
				req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", first, first+span-1))
				req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: sub.token})
				r0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				n, _ := io.ReadFull(resp.Body, buf)
				_ = resp.Body.Close()
				d := time.Since(r0)
				if resp.StatusCode != 206 || n != span {
					t.Errorf("range at %d: %d, %d bytes", first, resp.StatusCode, n)
					return
				}
				mu.Lock()
				times = append(times, d)
				done := len(times) >= streams*size/span
				mu.Unlock()
				if done {
					return
				}
			}
		})
	}
	wg.Wait()
	total := time.Since(t0)
	slices.Sort(times)
	mib := float64(len(times)*span) / (1 << 20)
	t.Logf("range streams: %d streams x 1 MiB ranges of a %d MiB file, %.0f MiB in %.1f s: %.0f MiB/s; one range p50 %.1f ms, p99 %.1f ms",
		streams, size>>20, mib, total.Seconds(), mib/total.Seconds(),
		float64(percentile(times, 50).Microseconds())/1000, float64(percentile(times, 99).Microseconds())/1000)
}
