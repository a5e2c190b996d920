// Command s3tool is what the storage benchmarks need of an S3 server that
// no shell tool on the machine does: make a bucket, and upload a large
// stream through the site's own storage interface (storage.S3.Put) while
// measuring the process's peak memory, to show that an upload streams.
//
//	s3tool mkbucket ENDPOINT BUCKET
//	s3tool put ENDPOINT BUCKET SIZE known|unknown
//
// The credentials are storagetest's (the benchmarks start versitygw with
// them, on loopback). put writes SIZE bytes of generated data, never held
// whole, and prints the time taken, the peak Go heap (sampled every 10 ms)
// and the peak resident set size (VmHWM) as one line of key=value pairs.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"tribe/internal/storage"
	"tribe/internal/storage/storagetest"
)

func main() {
	log.SetFlags(0)
	ctx := context.Background()
	switch {
	case len(os.Args) == 4 && os.Args[1] == "mkbucket":
		c, err := minio.New(os.Args[2], &minio.Options{Creds: credentials.NewStaticV4(storagetest.AccessKeyID, storagetest.SecretAccessKey, ""),
			Region: storagetest.Region, BucketLookup: minio.BucketLookupPath})
		if err != nil {
			log.Fatal(err)
		}
		if err := c.MakeBucket(ctx, os.Args[3], minio.MakeBucketOptions{Region: storagetest.Region}); err != nil {
			log.Fatalf("make bucket %s: %v", os.Args[3], err)
		}
	case len(os.Args) == 6 && os.Args[1] == "put":
		size, err := strconv.ParseInt(os.Args[4], 10, 64)
		if err != nil {
			log.Fatalf("size %q: %v", os.Args[4], err)
		}
		put(ctx, os.Args[2], os.Args[3], size, os.Args[5] == "known")
	default:
		log.Fatal("usage: s3tool mkbucket ENDPOINT BUCKET | s3tool put ENDPOINT BUCKET SIZE known|unknown")
	}
}

func put(ctx context.Context, endpoint, bucket string, size int64, known bool) {
	s, err := storage.NewS3(storage.S3Options{Bucket: bucket, Endpoint: endpoint, Region: storagetest.Region, PathStyle: true,
		AccessKeyID: storagetest.AccessKeyID, SecretAccessKey: storagetest.SecretAccessKey})
	if err != nil {
		log.Fatal(err)
	}
	var peakHeap atomic.Uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peakHeap.Load() {
				peakHeap.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	announced := int64(-1)
	if known {
		announced = size
	}
	start := time.Now()
	err = s.Put(ctx, "bench/upload.bin", io.LimitReader(&pattern{}, size), announced, "application/octet-stream")
	took := time.Since(start)
	close(done)
	if err != nil {
		log.Fatal(err)
	}
	info, err := s.Stat(ctx, "bench/upload.bin")
	if err != nil || info.Size != size {
		log.Fatalf("stored %d bytes of %d: %v", info.Size, size, err)
	}
	_ = s.Delete(ctx, "bench/upload.bin")
	fmt.Printf("size=%d known=%v seconds=%.1f MiB/s=%.0f peak_heap_MiB=%.1f peak_rss_MiB=%.1f\n",
		size, known, took.Seconds(), float64(size)/(1<<20)/took.Seconds(), float64(peakHeap.Load())/(1<<20), float64(peakRSS())/(1<<20))
}

// pattern yields bytes forever without holding them: each Read fills p.
type pattern struct{ n byte }

func (p *pattern) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = p.n
		p.n = p.n*31 + 7
	}
	return len(b), nil
}

// peakRSS is the process's peak resident set size (VmHWM), in bytes.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
