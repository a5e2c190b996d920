package web

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func ptr[T any](v T) *T { return &v }

// libraryItem creates an item through the admin route and returns its id.
func (m *testSite) libraryItem(admin testUser, body map[string]any) string {
	m.t.Helper()
	r := m.call(admin, "POST", "/api/admin/library", body)
	if r.status != 201 {
		m.t.Fatalf("create item: %d %s", r.status, r.body)
	}
	return r.json["item"].(map[string]any)["id"].(string)
}

// TestLibraryRoutes: the list and an item as a free member (locked, no
// link), a subscriber (open, progress saved) and an admin (stats), and the
// admin's input refused with a 400 naming the field.
func TestLibraryRoutes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin, free, sub := m.user(membersAdminEmail), m.user("free@example.com"), m.user("sub@example.com")
		m.subscribe(sub, "active")
		past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
		id := m.libraryItem(admin, map[string]any{"kind": "link", "title": "Kickoff replay", "url": "https://vimeo.com/123456789",
			"tags": []string{"kickoff"}, "duration_s": 100, "published_at": past, "chapters": []map[string]any{{"start_s": 50, "title": "Q&A"}, {"start_s": 0, "title": "Intro"}}})
		high := m.libraryItem(admin, map[string]any{"kind": "lesson", "title": "Masterclass", "body": "# Deep", "min_level": 5, "published_at": past})

		r := m.call(free, "GET", "/api/library", nil)
		if r.status != 200 || len(r.json["items"].([]any)) != 2 {
			t.Fatalf("free list: %d %s", r.status, r.body)
		}
		r = m.call(free, "GET", "/api/library/"+id, nil)
		it := r.json["item"].(map[string]any)
		if r.status != 200 || it["locked"] != true || it["lock_reason"] != "membership" || it["embed_url"] != "" || it["url"] != "" {
			t.Errorf("free item: %s", r.body)
		}
		r = m.call(sub, "GET", "/api/library/"+id, nil)
		it = r.json["item"].(map[string]any)
		if it["locked"] != false || it["embed_url"] != "https://player.vimeo.com/video/123456789?dnt=1" {
			t.Errorf("subscriber item: %s", r.body)
		}
		if ch := it["chapters"].([]any); len(ch) != 2 || ch[0].(map[string]any)["title"] != "Intro" {
			t.Errorf("chapters not in order: %v", ch)
		}
		r = m.call(sub, "GET", "/api/library/"+high, nil)
		it = r.json["item"].(map[string]any)
		if it["locked"] != true || it["lock_reason"] != "level" || it["required_level"] != "Master" || it["body"] != "" {
			t.Errorf("level-locked item: %s", r.body)
		}
		if r := m.call(sub, "PUT", "/api/library/"+high+"/progress", map[string]any{"position_s": 1}); r.status != 403 || !strings.Contains(r.body, "Master") {
			t.Errorf("progress on a level-locked item: %d %s", r.status, r.body)
		}
		r = m.call(sub, "PUT", "/api/library/"+id+"/progress", map[string]any{"position_s": 95})
		if r.status != 200 || r.json["progress"].(map[string]any)["completed"] != true {
			t.Errorf("progress: %d %s", r.status, r.body)
		}
		r = m.call(admin, "GET", "/api/admin/library/"+id+"/stats", nil)
		if r.status != 200 || r.json["started"] != 1.0 || r.json["finished"] != 1.0 {
			t.Errorf("stats: %d %s", r.status, r.body)
		}
		for body, field := range map[string]string{
			`{"kind": "podcast", "title": "T"}`:                     "kind",
			`{"kind": "lesson", "title": ""}`:                       "title",
			`{"kind": "lesson", "title": "T", "tags": "x"}`:         "tags",
			`{"kind": "lesson", "title": "T", "min_level": "high"}`: "min_level",
			`{"kind": "link", "title": "T", "url": "ftp://x"}`:      "url",
		} {
			r := m.call(admin, "POST", "/api/admin/library", body)
			e, _ := r.json["error"].(map[string]any)
			if r.status != 400 || e["field"] != field {
				t.Errorf("%s: %d %s; want 400 naming %s", body, r.status, r.body, field)
			}
		}
		if r := m.call(admin, "PATCH", "/api/admin/library/"+id, map[string]any{"published_at": nil}); r.status != 200 {
			t.Fatalf("unpublish: %d %s", r.status, r.body)
		}
		if r := m.call(sub, "GET", "/api/library/"+id, nil); r.status != 404 {
			t.Errorf("unpublished item for a member: %d", r.status)
		}
		if r := m.call(admin, "DELETE", "/api/admin/library/"+id, nil); r.status != 204 {
			t.Errorf("delete: %d", r.status)
		}
		if r := m.call(admin, "GET", "/api/library/"+id, nil); r.status != 404 {
			t.Errorf("deleted item: %d", r.status)
		}
	})
}

// uploadFile sends data as admin in chunks through the upload routes and
// returns the upload's id.
func (m *testSite) uploadFile(admin testUser, data []byte, chunk int) string {
	m.t.Helper()
	r := m.call(admin, "POST", "/api/admin/uploads", map[string]any{"filename": "call.mp4", "size": len(data), "content_type": "video/mp4"})
	if r.status != 201 || r.json["offset"] != 0.0 {
		m.t.Fatalf("create upload: %d %s", r.status, r.body)
	}
	id := r.json["upload_id"].(string)
	for first := 0; first < len(data); first += chunk {
		last := min(first+chunk, len(data))
		r := m.call(admin, "PATCH", "/api/admin/uploads/"+id, raw{data[first:last],
			map[string]string{"Content-Range": fmt.Sprintf("bytes %d-%d/%d", first, last-1, len(data))}})
		if r.status != 200 || r.header.Get("Upload-Offset") != fmt.Sprint(last) {
			m.t.Fatalf("chunk at %d: %d %s", first, r.status, r.body)
		}
	}
	return id
}

// TestLibraryUploadAndMediaRoutes: on each engine and each store, a file
// uploaded in chunks through the routes (a chunk from the wrong offset
// refused with 409 and the offset, HEAD telling the offset) is attached
// and served to those who may open the item: on the data directory with
// ranges at the start, middle and end, its sniffed type, inline and
// nosniff; on S3 by a presigned redirect of at most 15 minutes whose
// address answers ranges too. Free members, members below the item's
// level, items without a file, unpublished items and guessed addresses
// never get the bytes.
func TestLibraryUploadAndMediaRoutes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		eachFileStore(t, func(t *testing.T, env map[string]string) {
			who := strings.ReplaceAll(t.Name(), "/", ".")
			env["TRIBE_ADMIN_EMAILS"] = "owner." + who + "@admin.example"
			m := newTestSite(t, db, env)
			admin := m.user(env["TRIBE_ADMIN_EMAILS"])
			free, sub := m.user("free."+who+"@example.com"), m.user("sub."+who+"@example.com")
			m.subscribe(sub, "active")
			past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
			data := make([]byte, 300_001)
			_, _ = rand.Read(data)
			copy(data, "\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom")
			open := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "Replay", "duration_s": 60, "published_at": past})
			high := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "Master replay", "min_level": 5, "published_at": past})
			draft := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "Draft"})
			bare := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "No file", "published_at": past})

			// A chunk from the wrong offset, then HEAD, then the rest.
			r := m.call(admin, "POST", "/api/admin/uploads", map[string]any{"filename": "x.mp4", "size": 10})
			id := r.json["upload_id"].(string)
			r = m.call(admin, "PATCH", "/api/admin/uploads/"+id, raw{[]byte("01234"), map[string]string{"Content-Range": "bytes 5-9/10"}})
			if r.status != 409 || r.header.Get("Upload-Offset") != "0" {
				t.Errorf("chunk from the wrong offset: %d %s", r.status, r.body)
			}
			r = m.call(admin, "PATCH", "/api/admin/uploads/"+id, raw{[]byte("01234"), map[string]string{"Content-Range": "bytes 0-5/10"}})
			if r.status != 400 {
				t.Errorf("length and range disagree: %d %s", r.status, r.body)
			}
			m.call(admin, "PATCH", "/api/admin/uploads/"+id, raw{[]byte("01234"), map[string]string{"Content-Range": "bytes 0-4/10"}})
			if r := m.call(admin, "HEAD", "/api/admin/uploads/"+id, nil); r.status != 200 || r.header.Get("Upload-Offset") != "5" {
				t.Errorf("HEAD: %d offset %q", r.status, r.header.Get("Upload-Offset"))
			}

			for _, item := range []string{open, high, draft} {
				up := m.uploadFile(admin, data, 64<<10)
				if r := m.call(admin, "PUT", "/api/admin/library/"+item+"/media", map[string]any{"upload_id": up}); r.status != 200 ||
					r.json["item"].(map[string]any)["media_type"] != "video/mp4" {
					t.Fatalf("attach: %d %s", r.status, r.body)
				}
			}
			s3 := env["TRIBE_STORAGE_URL"] != ""
			// get fetches an item's media as u with a range, following a
			// presigned redirect; it returns the final answer.
			get := func(u testUser, item, rng string) reply {
				h := map[string]string{}
				if rng != "" {
					h["Range"] = rng
				}
				r := m.call(u, "GET", "/api/library/"+item+"/media", raw{nil, h})
				if r.status == http.StatusFound {
					if !s3 {
						t.Fatalf("redirect on local storage")
					}
					loc, _ := url.Parse(r.header.Get("Location"))
					if exp, _ := strconv.Atoi(loc.Query().Get("X-Amz-Expires")); exp <= 0 || exp > 900 {
						t.Errorf("presigned for %d s", exp)
					}
					return m.call(testUser{}, "GET", loc.String(), raw{nil, h})
				}
				return r
			}
			for _, c := range []struct {
				rng        string
				from, to   int
				wantStatus int
			}{
				{"", 0, len(data), 200},
				{"bytes=0-99", 0, 100, 206},
				{"bytes=150000-150099", 150000, 150100, 206},
				{"bytes=-100", len(data) - 100, len(data), 206},
				{"bytes=300000-", 300000, len(data), 206},
			} {
				for _, u := range []testUser{sub, admin} {
					r := get(u, open, c.rng)
					if r.status != c.wantStatus || r.body != string(data[c.from:c.to]) {
						t.Errorf("range %q: %d, %d bytes", c.rng, r.status, len(r.body))
					}
					if r.header.Get("Content-Type") != "video/mp4" {
						t.Errorf("type %q", r.header.Get("Content-Type"))
					}
					if !s3 && (r.header.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(r.header.Get("Content-Disposition"), "inline")) {
						t.Errorf("headers %v", r.header)
					}
				}
			}
			// Who never gets the bytes.
			for _, c := range []struct {
				u    testUser
				item string
				want int
			}{
				{testUser{}, open, 401}, {free, open, 403}, {sub, high, 403}, {sub, draft, 404}, {sub, bare, 404},
				{sub, "no-such-item", 404}, {free, high, 403},
			} {
				if r := m.call(c.u, "GET", "/api/library/"+c.item+"/media", nil); r.status != c.want || strings.Contains(r.body, string(data[:64])) {
					t.Errorf("%s as %q: %d, want %d", c.item, c.u.id, r.status, c.want)
				}
			}
			if r := get(admin, high, "bytes=0-9"); r.status != 206 {
				t.Errorf("admin on a level-locked item: %d", r.status)
			}
			// The stored object's address is no route of the site.
			var key string
			if err := db.Read.QueryRow(`SELECT media_key FROM library_items WHERE id = $1`, open).Scan(&key); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"/" + key, "/api/" + key, "/api/library/" + open + "/media/../../" + key, "/files/" + key, "/avatars/../" + key} {
				if r := m.call(sub, "GET", p, nil); strings.Contains(r.body, string(data[:64])) {
					t.Errorf("%s served the file", p)
				}
			}
		})
	})
}

// TestLibraryTranscriptSearchAndCite: a transcript sent as WebVTT comes
// back as cues; a malformed one is a 400 naming the line; its cue is found
// by the console's search and cited by the offline AI chat as "Replay:
// <title> at 12:34" with the link that plays from second 754, for tribe
// members only; deleting the item takes it out of the search.
func TestLibraryTranscriptSearchAndCite(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin, free, sub := m.user(membersAdminEmail), m.user("free@example.com"), m.user("sub@example.com")
		m.subscribe(sub, "active")
		past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
		id := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "Agent memory", "published_at": past})
		r := m.call(admin, "PUT", "/api/admin/library/"+id+"/transcript",
			raw{[]byte("WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\n00:02.000 -> 00:03.000\nBroken arrow\n"), map[string]string{"Content-Type": "text/vtt"}})
		if r.status != 400 || !strings.Contains(r.body, "line 6") || !strings.Contains(r.body, `"field":"transcript"`) {
			t.Errorf("malformed: %d %s", r.status, r.body)
		}
		vtt := "WEBVTT\n\nNOTE exported by Zoom\n\n1\n00:12:34.000 --> 00:12:40.000 align:left\n<v rUv>Quokka memory keeps the summaries that matter.\n"
		r = m.call(admin, "PUT", "/api/admin/library/"+id+"/transcript", raw{[]byte(vtt), map[string]string{"Content-Type": "text/vtt"}})
		if r.status != 200 || !strings.Contains(r.body, `"start":754`) || !strings.Contains(r.body, `"text":"Quokka memory keeps the summaries that matter."`) {
			t.Fatalf("transcript: %d %s", r.status, r.body)
		}
		if r := m.call(sub, "GET", "/api/library/"+id, nil); r.json["item"].(map[string]any)["has_transcript"] != true ||
			len(r.json["item"].(map[string]any)["transcript"].([]any)) != 1 {
			t.Errorf("item: %s", r.body)
		}
		if r := m.call(free, "GET", "/api/library/"+id, nil); len(r.json["item"].(map[string]any)["transcript"].([]any)) != 0 {
			t.Errorf("free member reads the transcript: %s", r.body)
		}
		link := "/members/library/" + id + "?t=754"
		search := func(u testUser) string {
			r := m.call(u, "POST", "/api/search", map[string]any{"query": "quokka memory summaries"})
			if r.status != 200 {
				t.Fatalf("search: %d %s", r.status, r.body)
			}
			return r.body
		}
		if got := search(sub); !strings.Contains(got, "Replay: Agent memory at 12:34") || !strings.Contains(got, link) {
			t.Errorf("member's search: %s", got)
		}
		for _, u := range []testUser{free, {}} {
			if got := search(u); strings.Contains(got, "Quokka") {
				t.Errorf("search by %q finds the paid transcript: %s", u.id, got)
			}
		}
		_, s := m.chat(sub, ask("What does quokka memory keep?"))
		if c := s.content(); !strings.Contains(c, "Replay: Agent memory at 12:34") || !strings.Contains(c, "https://ruv.example"+link) {
			t.Errorf("chat does not cite the replay:\n%s", c)
		}
		// The member's own assistant finds it too (search_tribe), with the link.
		cs, err := m.assistant(m.oauthTokens(sub, m.oauthRegister(), "tribe:read")["access_token"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if text, isErr := callTool(t, cs, "search_tribe", map[string]any{"query": "quokka memory summaries"}); isErr ||
			!strings.Contains(text, "Replay: Agent memory at 12:34") || !strings.Contains(text, link) {
			t.Errorf("the assistant's search_tribe: %s", text)
		}
		if r := m.call(admin, "DELETE", "/api/admin/library/"+id, nil); r.status != 204 {
			t.Fatalf("delete: %d", r.status)
		}
		if got := search(sub); strings.Contains(got, "Quokka") {
			t.Errorf("deleted item still found: %s", got)
		}
	})
}

// TestLibraryReplayNotice: publishing the replay of a session tells the
// subscriber who RSVP'd and missed it in the notification centre, with
// the item's link; the one who attended hears nothing.
func TestLibraryReplayNotice(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin, missed, came := m.user(membersAdminEmail), m.user("missed@example.com"), m.user("came@example.com")
		m.subscribe(missed, "active")
		m.subscribe(came, "active")
		r := m.call(admin, "POST", "/api/admin/sessions", sessionBody())
		if r.status != 201 {
			t.Fatalf("session: %d %s", r.status, r.body)
		}
		sess := r.json["session"].(map[string]any)["id"].(string)
		for _, u := range []testUser{missed, came} {
			m.exec(`INSERT INTO session_rsvps (session_id, user_id, going) VALUES ($1, $2, $3)`, sess, u.id, true)
		}
		m.exec(`INSERT INTO session_attendance (session_id, user_id, joined_at) VALUES ($1, $2, $3)`, sess, came.id, store.Now())
		id := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "Agent memory", "session_id": sess,
			"published_at": time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)})
		if got := m.call(missed, "GET", "/api/notifications", nil); !strings.Contains(got.body, "The replay is up: Agent memory") ||
			!strings.Contains(got.body, "/members/library/"+id) {
			t.Errorf("missed: %s", got.body)
		}
		if got := m.call(came, "GET", "/api/notifications", nil); strings.Contains(got.body, "replay") {
			t.Errorf("attended: %s", got.body)
		}
	})
}
