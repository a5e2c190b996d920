package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tribe/internal/auth"
	"tribe/internal/config"
	"tribe/internal/store"
)

// membersSite is a running site plus direct database access for fixtures.
type membersSite struct {
	t   *testing.T
	srv *httptest.Server
	db  *store.DB
	cfg *config.Config
}

const membersAdminEmail = "owner@admin.example"

// membersChatURL is the group-chat invitation the members site is configured with.
const membersChatURL = "https://chat.example/invite/tribe"

func newMembersSite(t *testing.T, db *store.DB) *membersSite {
	t.Helper()
	env := map[string]string{"TRIBE_DATA_DIR": t.TempDir(), "TRIBE_ADMIN_EMAILS": membersAdminEmail, "TRIBE_BASE_URL": "https://ruv.example", "TRIBE_GROUP_CHAT_URL": membersChatURL}
	cfg, err := config.Load(func(k string) string { return env[k] }, "")
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(Options{Config: cfg, DB: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), App: testApp(t), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &membersSite{t: t, srv: srv, db: db, cfg: cfg}
}

// memberUser is a user created with SQL and signed in by an auth_sessions row.
type memberUser struct {
	id    string
	token string // the tribe_session cookie value; "" for anonymous
}

// user creates a confirmed account with a profile and a browser session.
func (m *membersSite) user(email string) memberUser {
	m.t.Helper()
	ctx := context.Background()
	id := store.NewID()
	var raw [32]byte
	_, _ = rand.Read(raw[:])
	token := hex.EncodeToString(raw[:])
	sum := sha256.Sum256([]byte(token))
	err := m.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO users (id, email, email_normalized, password_hash, email_confirmed_at) VALUES ($1, $2, $3, 'x', $4)`,
			id, email, strings.ToLower(email), store.Now()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, $3)`,
			id, email, strings.Split(email, "@")[0]); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO auth_sessions (id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)`,
			store.NewID(), id, hex.EncodeToString(sum[:]), store.At(time.Now().Add(24*time.Hour)))
		return err
	})
	if err != nil {
		m.t.Fatalf("create user %s: %v", email, err)
	}
	return memberUser{id: id, token: token}
}

// subscribe gives the user a subscription row with the given status.
func (m *membersSite) subscribe(u memberUser, status string) {
	m.t.Helper()
	if _, err := m.db.Write.ExecContext(context.Background(),
		`INSERT INTO subscriptions (user_id, status, current_period_end) VALUES ($1, $2, $3)`,
		u.id, status, store.At(time.Date(2027, 1, 15, 12, 0, 0, 0, time.UTC))); err != nil {
		m.t.Fatalf("subscribe: %v", err)
	}
}

func (m *membersSite) exec(query string, args ...any) {
	m.t.Helper()
	if _, err := m.db.Write.ExecContext(context.Background(), query, args...); err != nil {
		m.t.Fatalf("%s: %v", query, err)
	}
}

// call sends a request as u; body is JSON unless it is a *multipart.Writer payload.
func (m *membersSite) call(u memberUser, method, path string, body any) reply {
	m.t.Helper()
	var rd io.Reader
	contentType := ""
	switch v := body.(type) {
	case nil:
	case upload:
		rd, contentType = bytes.NewReader(v.body), v.contentType
	case string:
		rd, contentType = strings.NewReader(v), "application/json"
	default:
		j, _ := json.Marshal(v)
		rd, contentType = bytes.NewReader(j), "application/json"
	}
	req, _ := http.NewRequest(method, m.srv.URL+path, rd)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if u.token != "" {
		req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: u.token})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header, body: string(raw)}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(raw, &r.json)
	}
	return r
}

// upload is a multipart body.
type upload struct {
	body        []byte
	contentType string
}

func avatarUpload(t *testing.T, field, filename string, data []byte) upload {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	fw, err := w.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(data)
	_ = w.Close()
	return upload{body: b.Bytes(), contentType: w.FormDataContentType()}
}

func testPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x * 3), uint8(y * 5), 90, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func sessionBody() map[string]any {
	return map[string]any{
		"title": "Agent memory", "description": "Live build", "tags": []string{"agents"},
		"session_date": "2099-01-15", "session_time": "17:00", "duration": "2 hours", "timezone": "America/New_York",
		"max_attendees": 50, "zoom_meeting_id": "987 654 321", "zoom_password": "pa55", "zoom_join_url": "https://zoom.us/j/987654321",
		"meeting_link": "https://meet.example/abc",
	}
}
