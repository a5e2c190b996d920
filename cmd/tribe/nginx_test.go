package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/mail/mailtest"
	"tribe/internal/storage/storagetest"
	"tribe/internal/store/storetest"
)

// errNoNginx says nginx is not installed.
var errNoNginx = errors.New("nginx is not installed; run scripts/ensure-nginx.sh (apt-get install nginx-light)")

// findNginx returns the nginx binary: on PATH, or in /usr/sbin, which an
// unprivileged user's PATH often lacks.
func findNginx() (string, error) {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p, nil
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx", nil
	}
	return "", errNoNginx
}

// nginxConf is a round-robin reverse proxy over the instances, set up as
// docs/operations.md tells operators to (forwarded client address, no
// buffering of streams), with every path it writes inside its prefix so
// it runs without touching /var or /run. X-Upstream names the instance that
// answered, so a test can see the requests alternate.
const nginxConf = `worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 512; }
http {
    access_log %[1]s/access.log;
    client_body_temp_path %[1]s/client_body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    upstream tribe {
%[2]s        keepalive 16;
    }
    server {
        listen 127.0.0.1:%[3]d;
        client_max_body_size 6m;
        location / {
            proxy_pass http://tribe;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_buffering off;
            proxy_read_timeout 1h;
            add_header X-Upstream $upstream_addr always;
        }
    }
}
`

// startNginx runs nginx in front of the instances (host:port each) and
// returns its base URL. Without nginx it skips the test, or fails it under
// CI=true, as the PostgreSQL and S3 tests do.
func startNginx(t *testing.T, instances ...string) string {
	t.Helper()
	bin, err := findNginx()
	if err != nil {
		if os.Getenv("CI") != "true" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	// nginx's workers drop to an unprivileged user when the master runs as
	// root, so the prefix must be readable by them (t.TempDir is not).
	dir, err := os.MkdirTemp("", "tribe-nginx-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var servers strings.Builder
	for _, addr := range instances {
		fmt.Fprintf(&servers, "        server %s;\n", addr)
	}
	port := freeTCPPort(t)
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, nginxConf, dir, servers.String(), port), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-e", filepath.Join(dir, "error.log"), "-c", conf, "-g", "daemon off;")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGQUIT) // a graceful stop: the workers finish and exit with the master
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(15 * time.Second)
	for {
		select {
		case err := <-exited:
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx exited: %v\n%s%s", err, out.String(), log)
		default:
		}
		if resp, err := http.Get(base + "/readyz"); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx at %s does not answer:\n%s%s", base, out.String(), log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freeTCPPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port
}

// clientFrom is an HTTP client whose connections leave from the loopback
// address ip (Linux answers on all of 127.0.0.0/8), so that nginx sees
// distinct clients and forwards each one's own address.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 30 * time.Second}
}

// proxyCall is one answer through the proxy.
type proxyCall struct {
	status   int
	upstream string // the instance nginx sent the request to
	header   http.Header
	body     []byte
}

func send(t *testing.T, c *http.Client, method, url string, header map[string]string, body io.Reader) proxyCall {
	t.Helper()
	r, err := do(c, method, url, header, body)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// do is send for goroutines, which may not end the test themselves.
func do(c *http.Client, method, url string, header map[string]string, body io.Reader) (proxyCall, error) {
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		return proxyCall{}, err
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return proxyCall{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return proxyCall{}, fmt.Errorf("%s %s: %w", method, url, err)
	}
	return proxyCall{status: resp.StatusCode, upstream: resp.Header.Get("X-Upstream"), header: resp.Header, body: b}, nil
}

// TestTwoInstancesBehindNginx: two binaries on one PostgreSQL database and
// one S3 bucket, behind a real nginx balancing round-robin, behave as one
// site: an avatar uploaded through one instance is served by the other, a
// per-client limit counts each client (by the address nginx forwards) once
// across both, one time booked at once through both is held once, and the
// live-update stream works through the proxy.
func TestTwoInstancesBehindNginx(t *testing.T) {
	bin := buildBinary(t)
	if _, err := findNginx(); err != nil && os.Getenv("CI") != "true" {
		t.Skip(err) // before starting the database and the instances
	}
	dbURL := storetest.NewPostgresSchema(t)
	s3 := storagetest.StartT(t)
	bucket, err := s3.NewBucket(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	smtp := mailtest.Start(t)
	stripe := billingtest.NewFake(t)
	env := func() []string {
		return []string{
			"DATABASE_URL=" + dbURL, "TRIBE_DATA_DIR=" + t.TempDir(),
			"SMTP_URL=" + smtp.URL(), "SMTP_FROM=tribe@example.com", "TRIBE_SWEEP_INTERVAL=1s",
			"TRIBE_ADMIN_EMAILS=owner@example.com",
			"STRIPE_SECRET_KEY=sk_test_proxy", "STRIPE_PRICE_ID=price_proxy", "STRIPE_API_BASE=" + stripe.URL, "STRIPE_WEBHOOK_SECRET=whsec_proxy",
			"TRIBE_STORAGE_URL=s3://" + bucket + "?endpoint=http://" + s3.Endpoint + "&region=" + storagetest.Region + "&path_style=1",
			"TRIBE_S3_ACCESS_KEY_ID=" + storagetest.AccessKeyID, "TRIBE_S3_SECRET_ACCESS_KEY=" + storagetest.SecretAccessKey,
			// nginx reaches the instances from 127.0.0.1; its X-Forwarded-For names the client.
			"TRIBE_TRUSTED_PROXIES=127.0.0.1",
		}
	}
	a, _ := startServer(t, bin, env())
	b, _ := startServer(t, bin, env())
	hostA, hostB := strings.TrimPrefix(a, "http://"), strings.TrimPrefix(b, "http://")
	proxy := startNginx(t, hostA, hostB)

	ada := clientFrom("127.0.0.2")
	jsonHeader := map[string]string{"Content-Type": "application/json"}
	r := send(t, ada, "POST", proxy+"/api/auth/signup", jsonHeader,
		strings.NewReader(`{"full_name":"Ada","email":"ada@example.com","password":"analytical engine"}`))
	if r.status != http.StatusCreated {
		t.Fatalf("sign up through the proxy: %d %s", r.status, r.body)
	}
	cookie := strings.Split(r.header.Get("Set-Cookie"), ";")[0]
	var signedUp struct {
		User struct{ ID string } `json:"user"`
	}
	if err := json.Unmarshal(r.body, &signedUp); err != nil || signedUp.User.ID == "" {
		t.Fatalf("sign-up answer %s: %v", r.body, err)
	}
	// The owner: an admin by TRIBE_ADMIN_EMAILS once the address is confirmed
	// (Ada confirms hers too: reminders are mailed to confirmed addresses).
	r = send(t, clientFrom("127.0.0.5"), "POST", proxy+"/api/auth/signup", jsonHeader,
		strings.NewReader(`{"full_name":"Owner","email":"owner@example.com","password":"the owner's own"}`))
	if r.status != http.StatusCreated {
		t.Fatalf("owner's sign up through the proxy: %d %s", r.status, r.body)
	}
	ownerCookie := strings.Split(r.header.Get("Set-Cookie"), ";")[0]
	db := storetest.Open(t, dbURL, t.TempDir())
	if _, err := db.Write.Exec(`UPDATE users SET email_confirmed_at = $1 WHERE email_normalized IN ('owner@example.com', 'ada@example.com')`, "2026-01-01T00:00:00.000Z"); err != nil {
		t.Fatal(err)
	}
	ownerHeader := map[string]string{"Cookie": ownerCookie, "Content-Type": "application/json"}

	t.Run("avatar uploaded through one instance is served by the other", func(t *testing.T) {
		form, contentType := avatarForm(t)
		up := send(t, ada, "POST", proxy+"/api/profile/avatar", map[string]string{"Cookie": cookie, "Content-Type": contentType}, bytes.NewReader(form))
		if up.status != http.StatusOK {
			t.Fatalf("upload through the proxy: %d %s", up.status, up.body)
		}
		i := bytes.Index(up.body, []byte(`"avatar_url":"`))
		if i < 0 {
			t.Fatalf("no avatar_url in %s", up.body)
		}
		url := string(up.body[i+len(`"avatar_url":"`):])
		url = url[:strings.IndexByte(url, '"')]
		// Round-robin sends consecutive requests to alternate instances:
		// read it until the instance that did not store it has served it.
		var first []byte
		served := map[string]bool{}
		for range 6 {
			img := send(t, ada, "GET", proxy+url, nil, nil)
			if img.status != http.StatusOK || img.header.Get("Content-Type") != "image/jpeg" ||
				img.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Fatalf("avatar through the proxy from %s: %d %v", img.upstream, img.status, img.header)
			}
			if first == nil {
				first = img.body
			} else if !bytes.Equal(first, img.body) {
				t.Fatalf("the instances serve different bytes for %s", url)
			}
			served[img.upstream] = true
		}
		if !served[hostA] || !served[hostB] || up.upstream == "" {
			t.Fatalf("stored by %q; served by %v, want both %s and %s", up.upstream, served, hostA, hostB)
		}
	})

	t.Run("a client's inquiry limit counts across both instances", func(t *testing.T) {
		inquiry := func(c *http.Client, base string, i int, header map[string]string) proxyCall {
			h := map[string]string{"Content-Type": "application/json"}
			for k, v := range header {
				h[k] = v
			}
			return send(t, c, "POST", base+"/api/inquiries", h, strings.NewReader(fmt.Sprintf(
				`{"name":"Grace","email":"grace%d@fleet.example","company":"Fleet","team_size":25,"message":"Training for the desk.","preferred_start":""}`, i)))
		}
		// until counts the inquiries accepted before the first 429.
		until := func(c *http.Client, base string) (int, map[string]bool) {
			upstreams := map[string]bool{}
			for i := range 30 {
				r := inquiry(c, base, i, nil)
				upstreams[r.upstream] = true
				switch r.status {
				case http.StatusCreated:
				case http.StatusTooManyRequests:
					if r.header.Get("Retry-After") == "" {
						t.Fatalf("429 without Retry-After: %v", r.header)
					}
					return i, upstreams
				default:
					t.Fatalf("inquiry %d: %d %s", i, r.status, r.body)
				}
			}
			t.Fatal("30 inquiries from one client accepted")
			return 0, nil
		}
		// One instance on its own (straight to A, the client 127.0.0.1)...
		alone, _ := until(http.DefaultClient, a)
		// ...and the client 127.0.0.2 through the proxy, alternating.
		proxied, upstreams := until(ada, proxy)
		if alone != 10 || proxied != alone || !upstreams[hostA] || !upstreams[hostB] {
			t.Fatalf("one instance took %d, both through the proxy %d (served by %v); want 10 each", alone, proxied, upstreams)
		}
		// Another client's address is its own key...
		if r := inquiry(clientFrom("127.0.0.3"), proxy, 100, nil); r.status != http.StatusCreated {
			t.Fatalf("another client through the proxy: %d %s", r.status, r.body)
		}
		// ...and a client cannot pose as one: nginx appends the real
		// address, which the instances read from the right.
		for range 2 { // both instances
			if r := inquiry(ada, proxy, 101, map[string]string{"X-Forwarded-For": "198.51.100.7"}); r.status != http.StatusTooManyRequests {
				t.Fatalf("a spoofed X-Forwarded-For through %s: %d %s", r.upstream, r.status, r.body)
			}
		}
	})

	t.Run("sign-in back-off counts failures across both instances", func(t *testing.T) {
		signin := func(c *http.Client) proxyCall {
			return send(t, c, "POST", proxy+"/api/auth/signin", jsonHeader, strings.NewReader(`{"email":"ada@example.com","password":"wrong guess"}`))
		}
		upstreams := map[string]bool{}
		for i := range 5 { // ratelimit's five free failures, as on one instance
			r := signin(ada)
			upstreams[r.upstream] = true
			if r.status != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d %s", i+1, r.status, r.body)
			}
		}
		if r := signin(ada); r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
			t.Fatalf("the sixth attempt, after five failures on %v: %d %s", upstreams, r.status, r.body)
		}
		if !upstreams[hostA] || !upstreams[hostB] {
			t.Fatalf("the failures were not spread over both instances: %v", upstreams)
		}
		// Another client is not held back by Ada's failures.
		if r := send(t, clientFrom("127.0.0.4"), "POST", proxy+"/api/auth/signin", jsonHeader,
			strings.NewReader(`{"email":"ada@example.com","password":"analytical engine"}`)); r.status != http.StatusOK {
			t.Fatalf("the right password from another client: %d %s", r.status, r.body)
		}
	})

	t.Run("one time booked at once through both instances is held once", func(t *testing.T) {
		today := time.Now().UTC()
		r := send(t, ada, "GET", fmt.Sprintf("%s/api/booking/slots?type=session-15&from=%s&to=%s&tz=UTC", proxy,
			today.Format(time.DateOnly), today.AddDate(0, 0, 30).Format(time.DateOnly)), nil, nil)
		var slots struct {
			Days []struct{ Slots []string } `json:"days"`
		}
		if err := json.Unmarshal(r.body, &slots); r.status != http.StatusOK || err != nil {
			t.Fatalf("slots: %d %s %v", r.status, r.body, err)
		}
		start := ""
		for _, d := range slots.Days {
			if len(d.Slots) > 0 {
				start = d.Slots[0]
				break
			}
		}
		if start == "" {
			t.Fatalf("no slot offered in 30 days: %s", r.body)
		}
		// Eight people, each from an address of their own, press at once.
		const people = 8
		results := make(chan proxyCall, people)
		errs := make(chan error, people)
		var wg sync.WaitGroup
		for i := range people {
			wg.Go(func() {
				r, err := do(clientFrom(fmt.Sprintf("127.0.1.%d", i+1)), "POST", proxy+"/api/bookings", jsonHeader, strings.NewReader(fmt.Sprintf(
					`{"type":"session-15","start":%q,"name":"Booker %d","email":"booker%d@example.com","time_zone":"UTC"}`, start, i, i)))
				results <- r
				errs <- err
			})
		}
		wg.Wait()
		close(results)
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		held, taken := 0, 0
		upstreams := map[string]bool{}
		for r := range results {
			upstreams[r.upstream] = true
			switch r.status {
			case http.StatusCreated:
				held++
			case http.StatusConflict:
				taken++
			default:
				t.Fatalf("booking through %s: %d %s", r.upstream, r.status, r.body)
			}
		}
		if held != 1 || taken != people-1 || !upstreams[hostA] || !upstreams[hostB] {
			t.Fatalf("%d held and %d refused of %d at once through %v; want exactly one held", held, taken, people, upstreams)
		}
	})

	// Unpaid holds may take half of a date's seats (booking's hold ceiling),
	// so of eight seats four are held and the rest stay for buyers who pay.
	t.Run("the seat holds of one date taken at once through both instances stop exactly at the ceiling", func(t *testing.T) {
		start := time.Now().UTC().Truncate(time.Hour).AddDate(0, 0, 12)
		r := send(t, clientFrom("127.0.0.5"), "POST", proxy+"/api/admin/booking/events", ownerHeader,
			strings.NewReader(fmt.Sprintf(`{"type":"group","start":%q,"seats":8}`, start.Format(time.RFC3339))))
		var scheduled struct {
			Event struct{ ID string } `json:"event"`
		}
		if err := json.Unmarshal(r.body, &scheduled); r.status != http.StatusCreated || err != nil {
			t.Fatalf("schedule a date through the proxy: %d %s %v", r.status, r.body, err)
		}
		// Ten buyers, each from an address of their own, press at once.
		const buyers, ceiling = 10, 4
		results := make(chan proxyCall, buyers)
		errs := make(chan error, buyers)
		var wg sync.WaitGroup
		for i := range buyers {
			wg.Go(func() {
				r, err := do(clientFrom(fmt.Sprintf("127.0.2.%d", i+1)), "POST", proxy+"/api/bookings", jsonHeader, strings.NewReader(fmt.Sprintf(
					`{"type":"group","event_id":%q,"name":"Buyer %d","email":"buyer%d@example.com","time_zone":"UTC"}`, scheduled.Event.ID, i, i)))
				results <- r
				errs <- err
			})
		}
		wg.Wait()
		close(results)
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		held, soldOut := 0, 0
		upstreams := map[string]bool{}
		for r := range results {
			upstreams[r.upstream] = true
			switch {
			case r.status == http.StatusCreated && bytes.Contains(r.body, []byte(`"checkout_url"`)):
				held++
			case r.status == http.StatusConflict && bytes.Contains(r.body, []byte(`"sold_out"`)):
				soldOut++
			default:
				t.Fatalf("seat through %s: %d %s", r.upstream, r.status, r.body)
			}
		}
		if held != ceiling || soldOut != buyers-ceiling || !upstreams[hostA] || !upstreams[hostB] {
			t.Fatalf("%d seats held and %d refused of %d buyers at once through %v; want %d held", held, soldOut, buyers, upstreams, ceiling)
		}
		// Both instances count the same seats left.
		for range 2 {
			list := send(t, ada, "GET", proxy+"/api/booking/events?type=group", nil, nil)
			if list.status != http.StatusOK || !bytes.Contains(list.body, []byte(`"seats_left":4`)) {
				t.Fatalf("dates through %s after the rush: %d %s", list.upstream, list.status, list.body)
			}
		}
	})

	t.Run("a session reminder is mailed once by two instances", func(t *testing.T) {
		owner := clientFrom("127.0.0.5")
		if r := send(t, owner, "PUT", proxy+"/api/admin/members/"+signedUp.User.ID+"/complimentary", ownerHeader,
			strings.NewReader(`{"until":"2099-12-31"}`)); r.status != http.StatusOK {
			t.Fatalf("complimentary membership for Ada: %d %s", r.status, r.body)
		}
		// A session planned at short notice gets its first reminder at the
		// next sweep: both instances sweep every second.
		starts := time.Now().UTC().Add(2 * time.Hour)
		r := send(t, owner, "POST", proxy+"/api/admin/sessions", ownerHeader, strings.NewReader(fmt.Sprintf(
			`{"title":"Proxied memory","description":"Live build","tags":["agents"],"session_date":%q,"session_time":%q,"duration":"1 hour","timezone":"UTC","max_attendees":50,"meeting_link":"https://meet.example/abc"}`,
			starts.Format(time.DateOnly), starts.Format("15:04"))))
		if r.status != http.StatusCreated {
			t.Fatalf("plan a session through the proxy: %d %s", r.status, r.body)
		}
		toAda := func() int {
			n := 0
			for _, m := range smtp.Messages() {
				if strings.Contains(m.To, "ada@example.com") && strings.Contains(m.Subject, "Proxied memory") {
					n++
				}
			}
			return n
		}
		deadline := time.Now().Add(30 * time.Second)
		for toAda() == 0 && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		time.Sleep(4 * time.Second) // four more sweeps on each instance: time for a duplicate to show
		if n := toAda(); n != 1 {
			t.Fatalf("Ada got %d reminders of the session, want 1", n)
		}
	})

	t.Run("live updates stream through the proxy", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", proxy+"/api/events", nil)
		req.Header.Set("Cookie", cookie)
		stream, err := clientFrom("127.0.0.2").Do(req)
		if err != nil || stream.StatusCode != http.StatusOK {
			t.Fatalf("stream through the proxy: %v %v", stream, err)
		}
		defer func() { _ = stream.Body.Close() }()
		streamOn := stream.Header.Get("X-Upstream")
		waitFor := eventNames(t, ctx, stream.Body, "through the proxy (stream on "+streamOn+")")
		// "ready" arrives at once only if nginx does not buffer the stream.
		waitFor("ready")
		// A cohort made through the other instance reaches the stream (one
		// made on the stream's own instance is seen, and another is made).
		for i := range 4 {
			r := send(t, ada, "POST", proxy+"/api/cohorts", map[string]string{"Cookie": cookie, "Content-Type": "application/json"},
				strings.NewReader(fmt.Sprintf(`{"name":"Builders %d"}`, i)))
			if r.status != http.StatusCreated {
				t.Fatalf("create cohort: %d %s", r.status, r.body)
			}
			waitFor("cohorts")
			if r.upstream != streamOn {
				return
			}
		}
		t.Fatalf("every cohort was made on %s, the stream's instance", streamOn)
	})
}

// avatarForm is a multipart body carrying a small PNG as the avatar field.
func avatarForm(t *testing.T) ([]byte, string) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 120, 90))
	for y := range 90 {
		for x := range 120 {
			img.Set(x, y, color.NRGBA{uint8(x * 2), uint8(y * 2), 90, 255})
		}
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, img); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, err := w.CreateFormFile("avatar", "me.png")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(pic.Bytes())
	_ = w.Close()
	return body.Bytes(), w.FormDataContentType()
}
