// Package storagetest starts a real S3 server for tests, as billingtest
// starts stripe-mock: versitygw's posix backend over a temporary folder, on
// a free loopback port. Without versitygw, tests skip locally and fail
// under CI=true (scripts/ensure-s3.sh installs it, as .ci/run does).
package storagetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"tribe/internal/gotool"
	"tribe/internal/storage"
)

// VersityGWVersion is the versitygw release the tests run against;
// scripts/ensure-s3.sh installs the same one.
const VersityGWVersion = "v1.8.0"

// The server's root credentials (it listens on loopback only).
const (
	AccessKeyID     = "tribetest"
	SecretAccessKey = "tribetest-secret-key"
	Region          = "us-east-1"
)

// ErrNoVersityGW says versitygw is not installed.
var ErrNoVersityGW = errors.New("versitygw is not installed; run scripts/ensure-s3.sh (or go install github.com/versity/versitygw/cmd/versitygw@" + VersityGWVersion + ")")

// Server is a running versitygw.
type Server struct {
	// Endpoint is host:port (plain http).
	Endpoint string
	cmd      *exec.Cmd
	dir      string
}

// Find returns the versitygw binary, on PATH or in Go's bin directory.
func Find() (string, error) {
	p, err := gotool.Find(context.Background(), "versitygw")
	if err != nil {
		return "", fmt.Errorf("%w (%v)", ErrNoVersityGW, err)
	}
	return p, nil
}

// Start starts versitygw over dir and waits until it answers.
func Start(ctx context.Context, dir string) (*Server, error) {
	// A free port can be taken between finding it and the server binding it
	// (tests start servers side by side): then the address answers, but for
	// another test's server. A server is used only once a bucket it makes
	// shows up in its own directory; else it starts again on another port.
	var err error
	for range 5 {
		var s *Server
		if s, err = start(ctx, dir); err != nil {
			return nil, err
		}
		if err = s.own(ctx); err == nil {
			return s, nil
		}
		s.Close()
	}
	return nil, fmt.Errorf("versitygw in %s: %w", dir, err)
}

func start(ctx context.Context, dir string) (*Server, error) {
	bin, err := Find()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(bin, "--access", AccessKeyID, "--secret", SecretAccessKey,
		"--region", Region, "--port", addr, "--quiet", "posix", dir)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start versitygw: %w", err)
	}
	s := &Server{Endpoint: addr, cmd: cmd, dir: dir}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			_ = resp.Body.Close()
			return s, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			s.Close()
			return nil, fmt.Errorf("versitygw at %s does not answer: %v: %s", addr, err, out.String())
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// own checks that the server answering at s.Endpoint is the one serving
// s.dir: a bucket it makes appears there.
func (s *Server) own(ctx context.Context) error {
	name, err := s.NewBucket(ctx)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(s.dir, name)); err != nil {
		return fmt.Errorf("another server answers at %s", s.Endpoint)
	}
	return os.Remove(filepath.Join(s.dir, name))
}

// Close stops the server.
func (s *Server) Close() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
}

// Options are the store options of bucket on this server.
func (s *Server) Options(bucket string) storage.S3Options {
	return storage.S3Options{Bucket: bucket, Endpoint: s.Endpoint, Region: Region, PathStyle: true,
		AccessKeyID: AccessKeyID, SecretAccessKey: SecretAccessKey}
}

// NewBucket makes a bucket with a random name and returns its name.
func (s *Server) NewBucket(ctx context.Context) (string, error) {
	c, err := minio.New(s.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(AccessKeyID, SecretAccessKey, ""),
		Region: Region, BucketLookup: minio.BucketLookupPath})
	if err != nil {
		return "", err
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "tribe-" + hex.EncodeToString(b[:])
	if err := c.MakeBucket(ctx, name, minio.MakeBucketOptions{Region: Region}); err != nil {
		return "", fmt.Errorf("make bucket %s: %w", name, err)
	}
	return name, nil
}

// StartT starts a server for one test and stops it when the test ends. Without
// versitygw it skips the test, or fails it under CI=true.
func StartT(t testing.TB) *Server {
	t.Helper()
	s, err := Start(context.Background(), t.TempDir())
	if errors.Is(err, ErrNoVersityGW) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// S3 returns a store over a new, empty bucket of a server started for the
// test (StartT).
func S3(t testing.TB) *storage.S3 {
	t.Helper()
	s := StartT(t)
	return s.Store(t)
}

// Store returns a store over a new, empty bucket of s.
func (s *Server) Store(t testing.TB) *storage.S3 {
	t.Helper()
	bucket, err := s.NewBucket(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st, err := storage.NewS3(s.Options(bucket))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Each runs f once over each backend: a local directory, and a bucket of
// a real S3 server (skipped locally without versitygw).
func Each(t *testing.T, f func(t *testing.T, s storage.Store)) {
	t.Helper()
	t.Run("local", func(t *testing.T) { f(t, storage.NewLocal(t.TempDir())) })
	t.Run("s3", func(t *testing.T) { f(t, S3(t)) })
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
}
