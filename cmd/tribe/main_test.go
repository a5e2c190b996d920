package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestHelpVersionAndBadCommands(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"help"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "DATABASE_URL") {
		t.Fatalf("help: %d %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"version"}, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "tribe ") {
		t.Fatalf("version: %d %q", code, out.String())
	}
	errb.Reset()
	if code := run([]string{"frobnicate"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "tribe help") {
		t.Fatalf("unknown command: %d %q", code, errb.String())
	}
}

func TestBadConfigurationExitsWithOneLine(t *testing.T) {
	cases := map[string][]string{
		"DATABASE_URL":   {"DATABASE_URL=mysql://root@localhost/x"},
		"TRIBE_ADDR":     {"TRIBE_ADDR=localhost"},
		"TRIBE_DATA_DIR": {"TRIBE_DATA_DIR=" + filepath.Join(writeFile(t), "sub")},
	}
	bin := buildBinary(t)
	for want, env := range cases {
		cmd := exec.Command(bin, "serve")
		cmd.Env = append(os.Environ(), env...)
		cmd.Dir = t.TempDir()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if err == nil {
			t.Errorf("%v: started anyway", env)
			continue
		}
		msg := strings.TrimSpace(stderr.String())
		if !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
			t.Errorf("%v: want one line naming %s, got %q", env, want, msg)
		}
	}
}

func writeFile(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

var builtBinary string

// buildBinary returns the program these tests run: TRIBE_TEST_BIN when set (make test builds
// bin/tribe-test once for every suite), else a build of this package without the profile-guided
// optimisation, which would recompile every package for the profile.
func buildBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("TRIBE_TEST_BIN"); bin != "" {
		return bin
	}
	if builtBinary != "" {
		return builtBinary
	}
	dir, err := os.MkdirTemp("", "tribe-bin-")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "tribe")
	out, err := exec.Command("go", "build", "-pgo=off", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	builtBinary = bin
	return bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtBinary != "" {
		_ = os.RemoveAll(filepath.Dir(builtBinary))
	}
	os.Exit(code)
}

var servingLine = regexp.MustCompile(`msg=serving addr=(\S+)`)

// startServer runs `tribe serve` and returns its base URL and a function that
// sends SIGTERM and returns the full log and the exit error.
func startServer(t *testing.T, bin string, env []string) (string, func() (string, error)) {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), append([]string{"TRIBE_ADDR=127.0.0.1:0"}, env...)...)
	cmd.Dir = t.TempDir()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	addr := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("server did not start:\n%s", log.String())
	}
	stopped := false
	stop := func() (string, error) {
		if stopped {
			return log.String(), nil
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-done
		err := cmd.Wait()
		return log.String(), err
	}
	t.Cleanup(func() {
		if !stopped {
			_ = cmd.Process.Kill()
			_, _ = stop()
		}
	})
	return base, stop
}

func status(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

func TestServeMigratesStopsCleanlyAndKeepsDataOnRestart(t *testing.T) {
	bin := buildBinary(t)
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			dbURL, dataDir := e.New(t)
			env := []string{"TRIBE_DATA_DIR=" + dataDir, "DATABASE_URL=" + dbURL}

			base, stop := startServer(t, bin, env)
			if s := status(t, base+"/readyz"); s != 200 {
				t.Fatalf("readyz %d", s)
			}
			if s := status(t, base+"/healthz"); s != 200 {
				t.Fatalf("healthz %d", s)
			}
			log, err := stop()
			if err != nil {
				t.Fatalf("SIGTERM exit: %v\n%s", err, log)
			}
			if !strings.Contains(log, "applied=0001_init") || !strings.Contains(log, "msg=stopped") {
				t.Fatalf("first start should migrate and stop cleanly:\n%s", log)
			}

			// Write through the store while the server is down, then restart.
			ctx := context.Background()
			db, err := store.Open(ctx, dbURL, dataDir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO waitlist (id, full_name, email, email_normalized) VALUES ($1, 'Ada', 'ada@example.com', 'ada@example.com')`,
				store.NewID()); err != nil {
				t.Fatal(err)
			}
			_ = db.Close()

			base, stop = startServer(t, bin, env)
			if s := status(t, base+"/readyz"); s != 200 {
				t.Fatalf("readyz after restart %d", s)
			}
			log, err = stop()
			if err != nil || !strings.Contains(log, `applied=""`) {
				t.Fatalf("restart should find nothing to migrate (%v):\n%s", err, log)
			}
			db, err = store.Open(ctx, dbURL, dataDir)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = db.Close() }()
			var n int
			if err := db.Read.QueryRowContext(ctx, `SELECT COUNT(*) FROM waitlist WHERE email = 'ada@example.com'`).Scan(&n); err != nil || n != 1 {
				t.Fatalf("data after restart: %d rows, %v", n, err)
			}
		})
	}
}

func TestTwoMigrateProcessesAtOnce(t *testing.T) {
	bin := buildBinary(t)
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			dbURL, dataDir := e.New(t)
			cmds := make([]*exec.Cmd, 2)
			outs := make([]*bytes.Buffer, 2)
			for i := range cmds {
				cmds[i] = exec.Command(bin, "migrate")
				cmds[i].Env = append(os.Environ(), "TRIBE_DATA_DIR="+dataDir, "DATABASE_URL="+dbURL)
				cmds[i].Dir = t.TempDir()
				outs[i] = &bytes.Buffer{}
				cmds[i].Stderr = outs[i]
			}
			for _, c := range cmds {
				if err := c.Start(); err != nil {
					t.Fatal(err)
				}
			}
			applied := 0
			for i, c := range cmds {
				if err := c.Wait(); err != nil {
					t.Fatalf("migrate %d: %v\n%s", i, err, outs[i])
				}
				if strings.Contains(outs[i].String(), "applied=0001_init") {
					applied++
				}
			}
			if applied != 1 {
				t.Fatalf("%d processes applied the initial migration, want exactly 1:\n%s\n%s", applied, outs[0], outs[1])
			}
		})
	}
}

func TestSeedKBAndSearchAtFirstStart(t *testing.T) {
	bin := buildBinary(t)
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			dbURL, dataDir := e.New(t)
			env := []string{"TRIBE_DATA_DIR=" + dataDir, "DATABASE_URL=" + dbURL, "TRIBE_CAPACITY=44"}

			// A fresh site is searchable: serve seeds at its first start.
			base, stop := startServer(t, bin, env)
			resp, err := http.Post(base+"/api/search", "application/json", strings.NewReader(`{"query": "tribe capacity members"}`))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(body), "capped at 44 members") || !strings.Contains(string(body), `"ranking":"full_text"`) {
				t.Fatalf("search after first start: %d %s", resp.StatusCode, body)
			}
			log, err := stop()
			if err != nil || !strings.Contains(log, "knowledge base seeded from the content") {
				t.Fatalf("first start (%v):\n%s", err, log)
			}
			// Unchanged content is not seeded again.
			_, stop = startServer(t, bin, env)
			if log, err := stop(); err != nil || !strings.Contains(log, "knowledge base up to date with the content") {
				t.Fatalf("second start (%v):\n%s", err, log)
			}

			// seed-kb twice prints the same counts.
			var outs [2]string
			for i := range outs {
				cmd := exec.Command(bin, "seed-kb")
				cmd.Env = append(os.Environ(), env...)
				cmd.Dir = t.TempDir()
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("seed-kb: %v", err)
				}
				outs[i] = string(out)
			}
			if outs[0] != outs[1] || !regexp.MustCompile(`^Seeded \d+ documents to knowledge base \(about \d+, services \d+, projects \d+, stack \d+, contact \d+, community 5\)\n$`).MatchString(outs[0]) {
				t.Fatalf("seed-kb printed %q then %q", outs[0], outs[1])
			}
		})
	}
}
