// Package billingtest gives billing's tests (and the HTTP and benchmark code
// built on billing) what stands in for Stripe: stripe-mock, the official
// stateless API mock, for the client calls; Fake, a small stateful server of
// the few endpoints billing uses, where a test needs state; and signed
// webhook events.
package billingtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tribe/internal/gotool"
)

// StripeMockVersion is the stripe-mock release the tests run against;
// scripts/ensure-stripe-mock.sh installs the same one.
const StripeMockVersion = "v0.203.0"

// Mock is a running stripe-mock.
type Mock struct {
	// URL is its HTTP API base, for STRIPE_API_BASE.
	URL string
	cmd *exec.Cmd
}

// Close stops stripe-mock.
func (m *Mock) Close() {
	if m.cmd != nil && m.cmd.Process != nil {
		_ = m.cmd.Process.Kill()
		_ = m.cmd.Wait()
	}
}

// ErrNoStripeMock says stripe-mock is not installed and was not installed now.
var ErrNoStripeMock = errors.New("stripe-mock is not installed; run scripts/ensure-stripe-mock.sh (or go install github.com/stripe/stripe-mock@" + StripeMockVersion + ")")

// FindStripeMock returns the stripe-mock binary: on PATH, or in Go's bin
// directory. When it is in neither and install is true, it installs it with
// go install first.
func FindStripeMock(ctx context.Context, install bool) (string, error) {
	if p, err := gotool.Find(ctx, "stripe-mock"); err == nil {
		return p, nil
	}
	bin, err := gotool.Bin(ctx)
	if err != nil {
		return "", err
	}
	p := filepath.Join(bin, "stripe-mock")
	if !install {
		return "", ErrNoStripeMock
	}
	out, err := exec.CommandContext(ctx, "go", "install", "github.com/stripe/stripe-mock@"+StripeMockVersion).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go install stripe-mock: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return p, nil
}

// StartStripeMock starts stripe-mock on 127.0.0.1, on ports the system
// chooses (both -http-addr and -https-addr set, so it never takes the
// default ports another run may hold), and waits until it answers. It
// installs stripe-mock first when install is true and it is missing.
func StartStripeMock(ctx context.Context, install bool) (*Mock, error) {
	bin, err := FindStripeMock(ctx, install)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-http-addr", "127.0.0.1:", "-https-addr", "127.0.0.1:")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("stripe-mock: %w", err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start stripe-mock: %w", err)
	}
	m := &Mock{cmd: cmd}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "Listening for HTTP at address: "); ok {
				addr <- strings.TrimSpace(a)
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case a := <-addr:
		m.URL = "http://" + a
	case <-time.After(30 * time.Second):
		m.Close()
		return nil, errors.New("stripe-mock did not say where it listens within 30 s")
	}
	if err := waitAnswers(ctx, m.URL); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

func waitAnswers(ctx context.Context, base string) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/balance", nil)
		req.SetBasicAuth("sk_test_123", "")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("stripe-mock at %s does not answer: %v", base, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// StripeMock starts stripe-mock for one test and stops it when the test
// ends. Without stripe-mock it installs it under CI=true and otherwise skips
// the test, saying how to install it.
func StripeMock(t testing.TB) *Mock {
	t.Helper()
	m, err := StartStripeMock(context.Background(), os.Getenv("CI") == "true")
	if errors.Is(err, ErrNoStripeMock) {
		t.Skip(err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}
