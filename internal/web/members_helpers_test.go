package web

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"tribe/internal/auth"
	"tribe/internal/store"
)

const membersAdminEmail = "owner@admin.example"

// membersChatURL is the group-chat invitation the members site is configured with.
const membersChatURL = "https://chat.example/invite/tribe"

// membersEnv configures a site with an admin, an https base URL and a group chat.
func membersEnv() map[string]string {
	return map[string]string{"TRIBE_ADMIN_EMAILS": membersAdminEmail, "TRIBE_BASE_URL": "https://ruv.example", "TRIBE_GROUP_CHAT_URL": membersChatURL}
}

// subscribe gives the user a subscription row with the given status.
func (m *testSite) subscribe(u testUser, status string) {
	m.t.Helper()
	if _, err := m.db.Write.ExecContext(context.Background(),
		`INSERT INTO subscriptions (user_id, status, current_period_end) VALUES ($1, $2, $3)`,
		u.id, status, store.At(time.Date(2027, 1, 15, 12, 0, 0, 0, time.UTC))); err != nil {
		m.t.Fatalf("subscribe: %v", err)
	}
}

func (m *testSite) exec(query string, args ...any) {
	m.t.Helper()
	if _, err := m.db.Write.ExecContext(context.Background(), query, args...); err != nil {
		m.t.Fatalf("%s: %v", query, err)
	}
}

// call sends a request as u, following no redirect. body is JSON, unless it
// is an upload (multipart), url.Values (a form; nil sends no body) or raw
// (bytes as they are, with headers of their own). path is the site's, or a
// whole address (sent without u's cookie).
func (m *testSite) call(u testUser, method, path string, body any) reply {
	m.t.Helper()
	var rd io.Reader
	contentType := ""
	var header map[string]string
	switch v := body.(type) {
	case nil:
	case upload:
		rd, contentType = bytes.NewReader(v.body), v.contentType
	case url.Values:
		if v != nil {
			rd, contentType = strings.NewReader(v.Encode()), "application/x-www-form-urlencoded"
		}
	case raw:
		rd, header = bytes.NewReader(v.body), v.header
	case string:
		rd, contentType = strings.NewReader(v), "application/json"
	default:
		j, _ := json.Marshal(v)
		rd, contentType = bytes.NewReader(j), "application/json"
	}
	target, own := path, strings.HasPrefix(path, "/")
	if own {
		target = m.srv.URL + path
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		m.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if u.token != "" && own {
		req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: u.token})
	}
	return m.do(req)
}

// raw is a request body sent as it is, with headers of its own.
type raw struct {
	body   []byte
	header map[string]string
}

// noRedirects answers a redirect as it is, so tests see its status.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

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
