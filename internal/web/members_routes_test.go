package web

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"strings"
	"sync"
	"testing"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

var meetingSecrets = []string{"987 654 321", "pa55", "zoom.us", "meet.example", "zoom_meeting_id", "zoom_password", "zoom_join_url", "meeting_link"}

func TestMeetingDetailsOnlyForSubscribersAndAdmins(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin := m.user(membersAdminEmail)
		free := m.user("free@example.com")
		lapsed := m.user("lapsed@example.com") // unpaid: Stripe gave up retrying, so no access
		paid := m.user("paid@example.com")
		m.subscribe(lapsed, "unpaid")
		m.subscribe(paid, "active")

		r := m.call(admin, "POST", "/api/admin/sessions", sessionBody())
		if r.status != 201 {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
		id := r.json["session"].(map[string]any)["id"].(string)

		for _, c := range []struct {
			name   string
			u      testUser
			unlock bool
		}{{"free", free, false}, {"unpaid", lapsed, false}, {"subscriber", paid, true}, {"admin", admin, true}} {
			list := m.call(c.u, "GET", "/api/sessions", nil)
			one := m.call(c.u, "GET", "/api/sessions/"+id, nil)
			ics := m.call(c.u, "GET", "/api/sessions/"+id+"/calendar.ics", nil)
			for _, r := range []reply{list, one, ics} {
				if r.status != 200 {
					t.Fatalf("%s: %d %s", c.name, r.status, r.body)
				}
				unfolded := strings.ReplaceAll(r.body, "\r\n ", "")
				for _, secret := range []string{"987 654 321", "pa55", "zoom.us"} {
					if strings.Contains(unfolded, secret) != c.unlock {
						t.Errorf("%s: contains %q = %v, want %v in %s", c.name, secret, !c.unlock, c.unlock, unfolded)
					}
				}
			}
			s := list.json["sessions"].([]any)[0].(map[string]any)
			if s["locked"] != !c.unlock || list.json["can_join"] != c.unlock {
				t.Errorf("%s: locked %v can_join %v", c.name, s["locked"], list.json["can_join"])
			}
			_, has := s["zoom_join_url"]
			if has != c.unlock {
				t.Errorf("%s: zoom_join_url present = %v", c.name, has)
			}
			if s["starts_at"] != "2099-01-15T22:00:00Z" || s["ends_at"] != "2099-01-16T00:00:00Z" || s["upcoming"] != true {
				t.Errorf("%s: times %v %v %v", c.name, s["starts_at"], s["ends_at"], s["upcoming"])
			}
		}

		// The feed decides at fetch time: subscribing later unlocks it, cancelling locks it again.
		r = m.call(free, "POST", "/api/calendar/feed", nil)
		url, _ := r.json["url"].(string)
		if r.status != 201 || !strings.HasPrefix(url, "https://ruv.example/calendar/") || !strings.HasSuffix(url, ".ics") {
			t.Fatalf("feed: %d %s", r.status, r.body)
		}
		path := strings.TrimPrefix(url, "https://ruv.example")
		feed := m.call(testUser{}, "GET", path, nil)
		if feed.status != 200 || !strings.HasPrefix(feed.header.Get("Content-Type"), "text/calendar") || !strings.Contains(feed.body, "SUMMARY:Agent memory") {
			t.Fatalf("feed fetch: %d %s", feed.status, feed.body)
		}
		for _, secret := range meetingSecrets[:4] {
			if strings.Contains(feed.body, secret) {
				t.Errorf("free member's feed contains %q", secret)
			}
		}
		m.subscribe(free, "active")
		if feed = m.call(testUser{}, "GET", path, nil); !strings.Contains(feed.body, "URL:https://zoom.us/j/987654321") {
			t.Errorf("feed of a new subscriber lacks the join URL: %s", feed.body)
		}
		m.exec(`UPDATE subscriptions SET status = 'canceled' WHERE user_id = $1`, free.id)
		if feed = m.call(testUser{}, "GET", path, nil); strings.Contains(feed.body, "zoom.us") {
			t.Error("feed still carries meeting details after the subscription ended")
		}
		// An admin's feed has the details without a subscription.
		r = m.call(admin, "POST", "/api/calendar/feed", nil)
		adminPath := strings.TrimPrefix(r.json["url"].(string), "https://ruv.example")
		if feed = m.call(testUser{}, "GET", adminPath, nil); !strings.Contains(feed.body, "zoom.us") {
			t.Error("admin feed lacks meeting details")
		}
		// Cancelled sessions leave the feed; revoked URLs stop working.
		m.call(admin, "PUT", "/api/admin/sessions/"+id+"/status", map[string]string{"status": "cancelled"})
		if feed = m.call(testUser{}, "GET", path, nil); strings.Contains(feed.body, "BEGIN:VEVENT") {
			t.Error("cancelled session still in the feed")
		}
		if r = m.call(free, "GET", "/api/calendar/feed", nil); r.json["exists"] != true {
			t.Errorf("feed status: %s", r.body)
		}
		m.call(free, "DELETE", "/api/calendar/feed", nil)
		if feed = m.call(testUser{}, "GET", path, nil); feed.status != 404 {
			t.Errorf("revoked feed: %d", feed.status)
		}
	})
}

func TestSessionICSOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin := m.user(membersAdminEmail)
		r := m.call(admin, "POST", "/api/admin/sessions", sessionBody())
		id := r.json["session"].(map[string]any)["id"].(string)
		ics := m.call(admin, "GET", "/api/sessions/"+id+"/calendar.ics", nil)
		if ics.header.Get("Content-Type") != "text/calendar; charset=utf-8" ||
			ics.header.Get("Content-Disposition") != `attachment; filename="agent-memory.ics"` {
			t.Fatalf("headers %v", ics.header)
		}
		for _, want := range []string{"BEGIN:VCALENDAR\r\n", "UID:" + id + "@ruv.example\r\n", "DTSTART:20990115T220000Z\r\n",
			"DTEND:20990116T000000Z\r\n", "SUMMARY:Agent memory\r\n", "END:VCALENDAR\r\n"} {
			if !strings.Contains(ics.body, want) {
				t.Errorf("ics lacks %q:\n%s", want, ics.body)
			}
		}
		if r := m.call(admin, "GET", "/api/sessions/"+store.NewID()+"/calendar.ics", nil); r.status != 404 || r.errCode() != "not_found" {
			t.Errorf("unknown session: %d %s", r.status, r.body)
		}
	})
}

func TestSessionAdminValidationOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin := m.user(membersAdminEmail)
		for _, c := range []struct {
			field string
			value any
			msg   string
		}{
			{"duration", "ages", "Duration must read like '2 hours', '1.5 hours' or '45 minutes' (at most 24 hours)."},
			{"timezone", "Mars/Base", "Time zone must be an IANA name such as America/New_York."},
			{"max_attendees", "ten", "Max attendees must be a whole number from 1 to 10000."},
			{"max_attendees", 2.5, "Max attendees must be a whole number from 1 to 10000."},
			{"session_time", "25:00", "Time must be written HH:MM (24-hour)."},
			{"title", "", "Please enter a title"},
		} {
			b := sessionBody()
			b[c.field] = c.value
			r := m.call(admin, "POST", "/api/admin/sessions", b)
			if r.status != 400 || r.errCode() != "invalid" || r.errMessage() != c.msg {
				t.Errorf("%s=%v: %d %s", c.field, c.value, r.status, r.body)
			}
		}
		if r := m.call(admin, "POST", "/api/admin/sessions", "{not json"); r.status != 400 || r.errCode() != "bad_json" {
			t.Errorf("bad json: %d %s", r.status, r.body)
		}
		var n int
		_ = db.Read.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM live_sessions`).Scan(&n)
		if n != 0 {
			t.Fatalf("refused sessions were stored: %d", n)
		}
		if r := m.call(admin, "PUT", "/api/admin/sessions/"+store.NewID(), sessionBody()); r.status != 404 {
			t.Errorf("update unknown: %d", r.status)
		}
	})
}

func TestProfileOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		u := m.user("ada@example.com")
		r := m.call(u, "PUT", "/api/profile", map[string]any{"full_name": "  Ada  ", "job_title": "Analyst", "email": "evil@example.com"})
		p, _ := r.json["profile"].(map[string]any)
		if r.status != 200 || p["full_name"] != "Ada" || p["job_title"] != "Analyst" || p["email"] != "ada@example.com" {
			t.Fatalf("put: %d %s", r.status, r.body)
		}
		for _, c := range []struct {
			body map[string]any
			msg  string
		}{
			{map[string]any{"bio": strings.Repeat("b", 2001)}, "Bio must be at most 2000 characters."},
			{map[string]any{"phone": strings.Repeat("1", 41)}, "Phone must be at most 40 characters."},
			{map[string]any{"location": strings.Repeat("l", 121)}, "Location must be at most 120 characters."},
			{map[string]any{"company": 7}, "Company must be text."},
		} {
			r := m.call(u, "PUT", "/api/profile", c.body)
			if r.status != 400 || r.errCode() != "invalid" || r.errMessage() != c.msg {
				t.Errorf("%v: %d %s", c.body, r.status, r.body)
			}
		}
		if r := m.call(u, "GET", "/api/profile", nil); r.json["profile"].(map[string]any)["email"] != "ada@example.com" {
			t.Errorf("get: %s", r.body)
		}
	})
}

func TestAvatarOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		u := m.user("pic@example.com")
		r := m.call(u, "POST", "/api/profile/avatar", avatarUpload(t, "avatar", "fake.png", []byte("just some text, not a picture")))
		if r.status != 400 || r.errCode() != "invalid_image" {
			t.Errorf("text as .png: %d %s", r.status, r.body)
		}
		huge := append(testPNG(t, 4, 4), bytes.Repeat([]byte{0}, 6<<20)...)
		r = m.call(u, "POST", "/api/profile/avatar", avatarUpload(t, "avatar", "big.png", huge))
		if r.status != 413 || r.errCode() != "too_large" || r.errMessage() != "The avatar must be at most 5 MB." {
			t.Errorf("oversize: %d %s", r.status, r.body)
		}
		r = m.call(u, "POST", "/api/profile/avatar", avatarUpload(t, "other", "a.png", testPNG(t, 8, 8)))
		if r.status != 400 || r.errMessage() != "Choose an image file to upload." {
			t.Errorf("no avatar field: %d %s", r.status, r.body)
		}

		var jb bytes.Buffer
		src := image.NewRGBA(image.Rect(0, 0, 500, 300))
		for y := range 300 {
			for x := range 500 {
				src.Set(x, y, color.RGBA{uint8(x), uint8(y), 60, 255})
			}
		}
		_ = jpeg.Encode(&jb, src, nil)
		for _, c := range []struct {
			name  string
			data  []byte
			ctype string
		}{{"photo.jpg", jb.Bytes(), "image/jpeg"}, {"pic.png", testPNG(t, 120, 90), "image/jpeg"}} {
			r = m.call(u, "POST", "/api/profile/avatar", avatarUpload(t, "avatar", c.name, c.data))
			if r.status != 200 {
				t.Fatalf("%s: %d %s", c.name, r.status, r.body)
			}
			url := r.json["profile"].(map[string]any)["avatar_url"].(string)
			img := m.call(testUser{}, "GET", url, nil)
			if img.status != 200 || img.header.Get("Content-Type") != c.ctype || img.header.Get("X-Content-Type-Options") != "nosniff" ||
				img.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Fatalf("%s served: %d %v", c.name, img.status, img.header)
			}
			if img.body == string(c.data) {
				t.Errorf("%s served as uploaded", c.name)
			}
			cfg, format, err := image.DecodeConfig(strings.NewReader(img.body))
			if err != nil || format != "jpeg" || cfg.Width != 256 || cfg.Height != 256 {
				t.Errorf("%s stored as %s %dx%d %v", c.name, format, cfg.Width, cfg.Height, err)
			}
		}
		r = m.call(u, "DELETE", "/api/profile/avatar", nil)
		if r.status != 200 || r.json["profile"].(map[string]any)["avatar_url"] != nil {
			t.Errorf("delete: %d %s", r.status, r.body)
		}
		for _, p := range []string{"/avatars/../tribe.db", "/avatars/0123456789abcdef0123456789abcdef.jpg", "/avatars/x.svg"} {
			r := m.call(testUser{}, "GET", p, nil)
			if loc := r.header.Get("Location"); r.status == http.StatusTemporaryRedirect && loc != "" {
				r = m.call(testUser{}, "GET", loc, nil) // the mux cleans the path first
			}
			if r.status != http.StatusNotFound {
				t.Errorf("%s: %d", p, r.status)
			}
		}
	})
}

func TestCohortsOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		a := m.user("a@example.com")
		for _, c := range []struct {
			body map[string]string
			msg  string
		}{
			{map[string]string{"name": "  "}, "Please enter a cohort name"},
			{map[string]string{"name": "X", "github_url": "not a url"}, "Invalid GitHub URL format"},
			{map[string]string{"name": "X", "homepage_url": "example.com"}, "Invalid homepage URL format"},
		} {
			r := m.call(a, "POST", "/api/cohorts", c.body)
			if r.status != 400 || r.errMessage() != c.msg {
				t.Errorf("%v: %d %s", c.body, r.status, r.body)
			}
		}
		r := m.call(a, "POST", "/api/cohorts", map[string]string{"name": "Builders", "icon": "zap", "github_url": "", "homepage_url": "https://b.example"})
		c, _ := r.json["cohort"].(map[string]any)
		if r.status != 201 || c["github_url"] != nil || c["icon"] != "zap" || c["member_count"] != 1.0 || c["is_creator"] != true {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
		id := c["id"].(string)
		for i := range 4 {
			if r := m.call(m.user(fmt.Sprintf("j%d@example.com", i)), "POST", "/api/cohorts/"+id+"/join", nil); r.status != 200 {
				t.Fatalf("join %d: %d %s", i, r.status, r.body)
			}
		}
		late := m.user("late@example.com")
		r = m.call(late, "POST", "/api/cohorts/"+id+"/join", nil)
		if r.status != 409 || r.errCode() != "cohort_full" || r.errMessage() != "This cohort is full." {
			t.Errorf("full: %d %s", r.status, r.body)
		}
		r = m.call(late, "GET", "/api/cohorts", nil)
		list := r.json["cohorts"].([]any)
		got := list[0].(map[string]any)
		if r.json["my_cohort_id"] != nil || got["is_full"] != true || got["is_member"] != false || len(got["members"].([]any)) != 5 {
			t.Errorf("list for late: %s", r.body)
		}
		member := got["members"].([]any)[0].(map[string]any)
		if _, leaked := member["email"]; leaked || member["full_name"] != "a" {
			t.Errorf("member card: %v", member)
		}
		if r := m.call(a, "DELETE", "/api/cohorts/"+id, nil); r.status != 204 {
			t.Fatalf("delete: %d %s", r.status, r.body)
		}
		var n int
		_ = db.Read.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM cohort_members`).Scan(&n)
		if n != 0 {
			t.Fatalf("%d memberships outlived their cohort", n)
		}
	})
}

// Fifty signed-in members press Join on one five-seat cohort at once.
func TestConcurrentJoinsOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		owner := m.user("owner@example.com")
		r := m.call(owner, "POST", "/api/cohorts", map[string]string{"name": "Race"})
		id := r.json["cohort"].(map[string]any)["id"].(string)
		m.call(owner, "POST", "/api/cohorts/"+id+"/leave", nil)
		users := make([]testUser, 50)
		for i := range users {
			users[i] = m.user(fmt.Sprintf("r%02d@example.com", i))
		}
		statuses := make([]int, len(users))
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, u := range users {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				statuses[i] = m.call(u, "POST", "/api/cohorts/"+id+"/join", nil).status
			}()
		}
		close(start)
		wg.Wait()
		counts := map[int]int{}
		for _, s := range statuses {
			counts[s]++
		}
		if counts[200] != 5 || counts[409] != 45 {
			t.Fatalf("statuses %v, want 5×200 and 45×409", counts)
		}
		var n int
		_ = db.Read.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM cohort_members WHERE cohort_id = $1`, id).Scan(&n)
		if n != 5 {
			t.Fatalf("%d members, want 5", n)
		}
	})
}

func TestTribeStatusAndOverview(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		paid := m.user("paid@example.com")
		m.subscribe(paid, "active")
		gone := m.user("gone@example.com")
		m.subscribe(gone, "canceled")
		free := m.user("free@example.com")
		admin := m.user(membersAdminEmail)
		r := m.call(testUser{}, "GET", "/api/tribe/status", nil)
		if r.status != 200 || r.json["capacity"] != 50.0 || r.json["active_members"] != 1.0 || r.json["spots_left"] != 49.0 || r.json["at_capacity"] != false {
			t.Fatalf("status: %s", r.body)
		}
		r = m.call(free, "GET", "/api/members/overview", nil)
		if r.status != 200 || r.json["subscription"] != nil || r.json["is_subscriber"] != false || r.json["is_admin"] != false {
			t.Fatalf("free overview: %s", r.body)
		}
		// The group-chat invitation goes to active subscribers and admins only.
		for _, c := range []struct {
			who  string
			user testUser
			want any
		}{{"free", free, nil}, {"canceled", gone, nil}, {"subscriber", paid, membersChatURL}, {"admin", admin, membersChatURL}} {
			r = m.call(c.user, "GET", "/api/members/overview", nil)
			if got, ok := r.json["group_chat_url"]; !ok || got != c.want {
				t.Errorf("%s: group_chat_url %v, want %v", c.who, got, c.want)
			}
		}
		r = m.call(paid, "GET", "/api/members/overview", nil)
		sub, _ := r.json["subscription"].(map[string]any)
		if sub["status"] != "active" || sub["cancel_at_period_end"] != false || sub["current_period_end"] != "2027-01-15T12:00:00Z" ||
			r.json["is_subscriber"] != true || r.json["tribe"].(map[string]any)["active_members"] != 1.0 {
			t.Fatalf("paid overview: %s", r.body)
		}
	})
}
