package web

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/auth"
	"tribe/internal/booking"
	"tribe/internal/community"
	"tribe/internal/content"
	"tribe/internal/inquiries"
	"tribe/internal/kb"
	"tribe/internal/levels"
	"tribe/internal/library"
	"tribe/internal/mcp"
	"tribe/internal/oauth"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// The roles every route is called as, in this order.
var roleNames = [...]string{"anonymous", "unconfirmed", "member", "subscriber", "creator", "other", "admin"}

// want is one expected status per role, in roleNames order.
type want [len(roleNames)]int

func all(code int) want {
	var w want
	for i := range w {
		w[i] = code
	}
	return w
}

// signedIn: 401 for anonymous callers, code for everyone else.
func signedIn(code int) want { w := all(code); w[0] = 401; return w }

// adminOnly: 401 anonymous, 403 for every non-admin, code for the admin.
func adminOnly(code int) want { w := all(403); w[0], w[6] = 401, code; return w }

// scenario is one call of the authorization table: a registered pattern, the
// path to call (made fresh per role when it needs its own object), a body
// (per role, so that per-address limits and unique addresses hold) and the
// status each role must get.
type scenario struct {
	pattern string
	path    func() string
	body    func(role int) any
	want    want
	stream  bool // a server-sent-event stream: check the status and hang up
}

// TestAuthorization calls every route the site registers as every role and
// checks the status, the PocketBase ApiScenario way. A route added without
// a row here fails the test.
func TestAuthorization(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		env := membersEnv()
		env["TRIBE_ADDR"] = "127.0.0.1:8080" // the development mailbox is served on a loopback address only
		m := newTestSite(t, db, env)
		ctx := context.Background()
		users := [len(roleNames)]testUser{
			{},
			m.user("unconfirmed@example.com", unconfirmed),
			m.user("member@example.com"),
			m.user("subscriber@example.com"),
			m.user("creator@example.com"),
			m.user("other@example.com"),
			m.user(membersAdminEmail),
		}
		m.subscribe(users[3], "active")
		creator, other := users[4], users[5]
		cohort, err := community.CreateCohort(ctx, db, creator.id, community.CohortInput{Name: "Home"})
		if err != nil {
			t.Fatal(err)
		}
		var in community.SessionInput
		in.Title, in.Date, in.Time, in.Duration, in.Timezone = "S", "2099-01-01", "10:00", "1 hour", "UTC"
		sess, err := community.CreateSession(ctx, db, "", in)
		if err != nil {
			t.Fatal(err)
		}
		avatarOwner := m.user("face@example.com")
		unsubscribeToken, err := m.s.Services.Notify.UnsubscribeToken(ctx, avatarOwner.id, "weekly_digest")
		if err != nil {
			t.Fatal(err)
		}
		unsubscribeToken = url.QueryEscape(unsubscribeToken)
		prof, err := community.SetAvatar(ctx, db, m.s.Services.Files, avatarOwner.id, strings.NewReader(string(testPNG(t, 32, 32))))
		if err != nil {
			t.Fatal(err)
		}
		feedToken, _, err := community.CreateFeed(ctx, db, avatarOwner.id)
		if err != nil {
			t.Fatal(err)
		}
		// Each call starts from the same memberships: the creator and the
		// other member in the creator's cohort.
		reset := func() {
			m.exec(`DELETE FROM cohort_members`)
			m.exec(`INSERT INTO cohort_members (id, cohort_id, user_id) VALUES ($1, $2, $3)`, store.NewID(), cohort.ID, creator.id)
			m.exec(`INSERT INTO cohort_members (id, cohort_id, user_id) VALUES ($1, $2, $3)`, store.NewID(), cohort.ID, other.id)
		}
		freshCohort := func() string {
			id := store.NewID()
			m.exec(`INSERT INTO cohorts (id, name, created_by) VALUES ($1, 'Spare', $2)`, id, creator.id)
			return "/api/cohorts/" + id
		}
		freshSession := func() string {
			s, err := community.CreateSession(ctx, db, "", in)
			if err != nil {
				t.Fatal(err)
			}
			return "/api/admin/sessions/" + s.ID
		}
		same := func(v any) func(int) any { return func(int) any { return v } }
		perRole := func(f func(role string) any) func(int) any { return func(i int) any { return f(roleNames[i]) } }
		fixed := func(path string) func() string { return func() string { return path } }
		at := func(pattern string) scenario {
			_, path, _ := strings.Cut(pattern, " ")
			return scenario{pattern: pattern, path: fixed(path)}
		}
		with := func(s scenario, body func(int) any, w want) scenario { s.body, s.want = body, w; return s }
		browserKey, err := ecdh.P256().GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		pushKey := base64.RawURLEncoding.EncodeToString(browserKey.PublicKey().Bytes())
		is := func(s scenario, w want) scenario { s.want = w; return s }
		doc, err := m.s.Services.KB.Create(ctx, kb.Input{Title: "Handbook", Content: "How the tribe works."})
		if err != nil {
			t.Fatal(err)
		}
		freshDocument := func() string {
			d, err := m.s.Services.KB.Create(ctx, kb.Input{Title: "Spare", Content: "To be deleted."})
			if err != nil {
				t.Fatal(err)
			}
			return "/api/admin/documents/" + d.ID
		}
		// A new account for each complimentary call, and one made
		// complimentary already for each uncomp.
		freshMember := func() string {
			u := m.user("comp-" + store.NewID() + "@example.com")
			return "/api/admin/members/" + u.id + "/complimentary"
		}
		compedMember := func() string {
			u := m.user("uncomp-" + store.NewID() + "@example.com")
			if err := m.s.Services.Billing.Comp(ctx, u.id, nil); err != nil {
				t.Fatal(err)
			}
			return "/api/admin/members/" + u.id + "/complimentary"
		}
		// Bookings: each call books the next free 15-minute time with its
		// own address (payments are off: a request), so limits and the
		// overlap rule never decide a status here.
		bk := m.s.Services.Booking
		nextSlot := func() string {
			from := time.Now().UTC().Format(time.DateOnly)
			to := time.Now().UTC().AddDate(0, 0, 40).Format(time.DateOnly)
			av, err := bk.Slots(ctx, "session-15", from, to, "UTC")
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range av.Days {
				if len(d.Slots) > 0 {
					return d.Slots[0]
				}
			}
			t.Fatal("no free booking slot in 40 days")
			return ""
		}
		freshBooking := func() (*booking.Created, string) {
			c, err := bk.Book(ctx, booking.Request{Type: "session-15", Start: nextSlot(), Name: "Ada Booker",
				Email: "booker-" + store.NewID()[:8] + "@example.com", TimeZone: "Europe/Paris"})
			if err != nil {
				t.Fatal(err)
			}
			return c, "/api/bookings/" + c.Booking.ID
		}
		booked := func(suffix string) func() string {
			return func() string { c, p := freshBooking(); return p + suffix + "?token=" + c.Token }
		}
		confirmedBooking := func(suffix string) func() string {
			return func() string {
				c, p := freshBooking()
				if _, err := bk.ConfirmRequest(ctx, c.Booking.ID); err != nil {
					t.Fatal(err)
				}
				return p + suffix + "?token=" + c.Token
			}
		}
		adminBooking := func(suffix string) func() string {
			return func() string { c, _ := freshBooking(); return "/api/admin/bookings/" + c.Booking.ID + suffix }
		}
		bookingBody := func(role string) any {
			// Every role starts with no open bookings from this address.
			m.exec(`DELETE FROM bookings`)
			return map[string]string{"type": "session-15", "start": nextSlot(), "name": "Booker " + role,
				"email": "book-" + role + "@example.com", "time_zone": "Europe/Paris"}
		}
		settings, err := bk.LoadSettings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// Group trainings: each call schedules its own date far beyond the
		// one-to-one window, so no booking or other date is in its way.
		eventAt := time.Now().UTC().Truncate(time.Hour).AddDate(0, 0, 100)
		freshEvent := func() *booking.Event {
			eventAt = eventAt.Add(4 * time.Hour)
			e, err := bk.ScheduleEvent(ctx, booking.EventInput{Type: "group", Start: eventAt.Format(time.RFC3339), Seats: 20})
			if err != nil {
				t.Fatal(err)
			}
			return e
		}
		// Moves go a year on, clear of the fresh dates.
		moveAt := eventAt.AddDate(1, 0, 0)
		eventPath := func(suffix string) func() string {
			return func() string { return "/api/admin/booking/events/" + freshEvent().ID + suffix }
		}
		eventWithSeat := func(suffix string) func() string {
			return func() string {
				e := freshEvent()
				c, err := bk.Book(ctx, booking.Request{Type: "group", EventID: e.ID, Name: "Seat Holder",
					Email: "seat-" + store.NewID()[:8] + "@example.com", TimeZone: "Europe/Paris"})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := bk.ConfirmRequest(ctx, c.Booking.ID); err != nil {
					t.Fatal(err)
				}
				return "/api/admin/booking/events/" + e.ID + suffix
			}
		}
		seatBody := func(role string) any {
			m.exec(`DELETE FROM bookings`)
			return map[string]string{"type": "group", "event_id": freshEvent().ID, "name": "Seat " + role,
				"email": "seat-" + role + "@example.com", "time_zone": "Europe/Paris"}
		}
		inquiryBody := func(role string) any {
			return map[string]any{"name": "Grace " + role, "email": "grace-" + role + "@fleet.example", "company": "Fleet",
				"team_size": 12, "message": "Training for the whole desk.", "preferred_start": ""}
		}
		freshInquiry := func() string {
			q, err := m.s.Services.Inquiries.Submit(ctx, inquiries.Input{Name: "Grace", Email: "grace@fleet.example",
				Company: "Fleet", TeamSize: 12, Message: "Training."}, "")
			if err != nil {
				t.Fatal(err)
			}
			return q.ID
		}
		freshFeed := func() string {
			tok, _, err := bk.CreateFeed(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return "/calendar/bookings/" + tok + ".ics"
		}

		cohortPath := "/api/cohorts/" + cohort.ID
		sessionPath := "/api/sessions/" + sess.ID

		// The show-up loop: a future session with a meeting link (join
		// redirects without recording), one that is over (attendance can be
		// corrected), and awards made fresh for each accept and delete.
		subscriber := users[3]
		withLink := in
		withLink.JoinURL = "https://zoom.us/j/42"
		joinable, err := community.CreateSession(ctx, db, "", withLink)
		if err != nil {
			t.Fatal(err)
		}
		over := in
		over.Date = "2020-01-01"
		past, err := community.CreateSession(ctx, db, "", over)
		if err != nil {
			t.Fatal(err)
		}
		suggestion := func() string {
			// A member of their own for each, so nobody reaches the cap on
			// suggestions waiting.
			u := m.user("suggest-" + store.NewID() + "@example.com")
			a, err := m.s.Services.Levels.Suggest(ctx, access.Viewer{UserID: u.id, Member: true},
				levels.SuggestionInput{Kind: levels.KindContribution, Note: "Wrote the guide"})
			if err != nil {
				t.Fatal(err)
			}
			return "/api/admin/awards/" + a.ID
		}
		givenAward := func() string {
			a, err := m.s.Services.Levels.Give(ctx, "", levels.AwardInput{UserID: subscriber.id, Kind: levels.KindWorkshop, Note: "Led one"})
			if err != nil {
				t.Fatal(err)
			}
			return "/api/admin/awards/" + a.ID
		}
		acceptPath := func() string { return suggestion() + "/accept" }

		// The projects board: the subscriber's own project (edited by its
		// author, hidden by the admin), one by another subscriber (reacted
		// to and commented on), and one made fresh for each delete.
		author := m.user("author@example.com")
		m.subscribe(author, "active")
		newProject := func(owner testUser) string {
			p, err := community.CreateProject(ctx, db, access.Viewer{UserID: owner.id, Member: true},
				community.ProjectInput{Title: "Kit", Link: "https://example.com/kit", Description: "A kit."}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			return "/api/projects/" + p.ID
		}
		ownProject, othersProject := newProject(subscriber), newProject(author)
		freshProject := func() string { return newProject(subscriber) }
		// A comment of the subscriber's, made fresh for each delete: its
		// author and the admin may remove it.
		freshComment := func() string {
			c, err := community.AddComment(ctx, db, access.Viewer{UserID: subscriber.id, Member: true},
				strings.TrimPrefix(othersProject, "/api/projects/"), community.CommentInput{Body: "Nice"}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			return othersProject + "/comments/" + c.ID
		}
		forMembers := func(code int) want { return want{401, 403, 403, code, 403, 403, code} }
		// The library: a published recording everyone signed in sees
		// (free members locked), and one made fresh for each delete.
		newLibItem := func() string {
			pub := time.Now().Add(-time.Hour)
			d, err := m.s.Services.Library.Create(ctx, access.Viewer{UserID: users[6].id, Admin: true}, library.ItemInput{
				Kind: ptr("recording"), Title: ptr("Replay"), DurationS: ptr(600), PublishedAt: &pub})
			if err != nil {
				t.Fatal(err)
			}
			return d.ID
		}
		libItem := newLibItem()
		newUpload := func() string {
			st, err := m.s.Services.Library.CreateUpload(ctx, access.Viewer{UserID: users[6].id, Admin: true}, library.UploadInput{Filename: "a.pdf", Size: 9})
			if err != nil {
				t.Fatal(err)
			}
			return st.UploadID
		}
		finishedUpload := func() string {
			id := newUpload()
			if _, err := m.s.Services.Library.AppendChunk(ctx, access.Viewer{UserID: users[6].id, Admin: true}, id,
				library.Range{First: 0, Last: 8, Total: 9}, strings.NewReader("%PDF-1.7\n")); err != nil {
				t.Fatal(err)
			}
			return id
		}
		if _, err := m.s.Services.Library.AttachMedia(ctx, access.Viewer{UserID: users[6].id, Admin: true}, libItem, library.MediaInput{UploadID: finishedUpload()}); err != nil {
			t.Fatal(err)
		}
		freshLibItem := func() string { return "/api/admin/library/" + newLibItem() }

		// The community: a question of the subscriber's with a reply by
		// another subscriber (accepted by the asker), a thread of that other
		// subscriber's (read, replied to, reacted on, muted, reported), and
		// fresh threads, replies and reports for each delete and resolve.
		// Written straight to the tables, so the writing allowance of the
		// members is the routes' own.
		newThread := func(owner testUser, category string) string {
			id := store.NewID()
			m.exec(`INSERT INTO forum_threads (id, user_id, category, title, body, created_at, last_activity_at)
				VALUES ($1, $2, $3, 'T', 'B', $4, $4)`, id, owner.id, category, store.Now())
			return id
		}
		newReply := func(owner testUser, thread string) string {
			id := store.NewID()
			m.exec(`INSERT INTO forum_replies (id, thread_id, user_id, body, created_at) VALUES ($1, $2, $3, 'R', $4)`,
				id, thread, owner.id, store.Now())
			return id
		}
		ownQuestion, othersThread := newThread(subscriber, "question"), newThread(author, "general")
		answerID := newReply(author, ownQuestion)
		ownReply, othersReply := newReply(subscriber, othersThread), newReply(author, othersThread)
		freshThread := func() string { return "/api/community/threads/" + newThread(subscriber, "general") }
		freshReply := func() string { return "/api/community/replies/" + newReply(subscriber, othersThread) }
		freshReport := func() string {
			id := store.NewID()
			m.exec(`INSERT INTO forum_reports (id, thread_id, user_id, reason, created_at) VALUES ($1, $2, $3, 'Spam', $4)`,
				id, newThread(author, "general"), subscriber.id, store.Now())
			return "/api/admin/community/reports/" + id + "/resolve"
		}
		authorOnly := want{401, 403, 403, 200, 403, 403, 403}

		cases := []scenario{
			is(at("GET /healthz"), all(200)),
			is(at("GET /readyz"), all(200)),
			{pattern: "GET " + content.ContentPrefix + "{name}", path: fixed(content.ContentPrefix + content.PublicFiles()[0]), want: all(200)},
			is(at("GET "+content.ResourcesPath), all(200)),
			is(at("GET "+content.SearchIndexPath), all(200)),
			is(at("GET /mcp.json"), all(200)),
			is(at("GET /.well-known/mcp.json"), all(200)),
			is(at("GET /sitemap.xml"), all(200)),
			is(at("GET /robots.txt"), all(200)),
			is(at("GET "+kitPath), all(200)),

			// The MCP endpoint is anonymous: a session changes nothing.
			with(at("POST "+mcp.Path), same(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}), all(200)),
			is(at("OPTIONS "+mcp.Path), all(204)),
			is(at("GET "+mcp.Path), all(200)), // the page
			is(at("GET "+mcp.CardPath), all(200)),

			// The authorization server: anonymous by protocol; consent needs the session.
			is(at("GET "+oauth.ResourceMetadataPath), all(200)),
			is(at("GET "+oauth.ResourceMetadataPath+"/mcp"), all(200)),
			is(at("GET "+oauth.MetadataPath), all(200)),
			is(at("OPTIONS "+oauth.ResourceMetadataPath), all(204)),
			is(at("OPTIONS "+oauth.ResourceMetadataPath+"/mcp"), all(204)),
			is(at("OPTIONS "+oauth.MetadataPath), all(204)),
			is(at("OPTIONS "+oauth.RegisterPath), all(204)),
			is(at("OPTIONS "+oauth.TokenPath), all(204)),
			is(at("OPTIONS "+oauth.RevokePath), all(204)),
			with(at("POST "+oauth.RegisterPath), perRole(func(r string) any {
				return map[string]any{"client_name": "Assistant " + r, "redirect_uris": []string{"https://assistant.example/" + r}}
			}), all(201)),
			is(at("GET "+oauth.AuthorizePath), all(400)), // no client: the error page
			is(at("GET "+oauth.ConsentPath), all(400)),
			with(at("POST "+oauth.ConsentPath), same(map[string]string{}), want{401, 403, 403, 403, 403, 403, 403}), // no CSRF token
			with(at("POST "+oauth.TokenPath), same(map[string]string{}), all(400)),
			with(at("POST "+oauth.RevokePath), same(map[string]string{}), all(400)),
			is(at("GET /api/members/me/assistants"), signedIn(200)),
			{pattern: "DELETE /api/members/me/assistants/{client_id}", path: fixed("/api/members/me/assistants/tribe-none"), want: signedIn(404)},
			is(at("GET /api/admin/assistants"), adminOnly(200)),

			is(at("GET /api/auth/session"), all(200)),
			with(at("POST /api/auth/signup"), perRole(func(r string) any {
				return map[string]string{"full_name": "New " + r, "email": "new-" + r + "@example.com", "password": "long enough"}
			}), all(201)),
			with(at("POST /api/auth/signin"), same(map[string]string{"email": "", "password": "x"}), all(400)),
			with(at("POST /api/auth/password/forgot"), perRole(func(r string) any { return map[string]string{"email": "forgot-" + r + "@example.com"} }), all(202)),
			with(at("POST /api/auth/password/reset"), same(map[string]string{"token": "not-a-token", "password": "long enough"}), all(400)),
			is(at("POST /api/auth/confirm/resend"), signedIn(202)),
			{pattern: "GET /auth/confirm", path: fixed("/auth/confirm?token=not-a-token"), want: all(303)},

			with(at("POST /api/waitlist"), perRole(func(r string) any {
				return map[string]string{"full_name": "Wait " + r, "email": "wait-" + r + "@example.com"}
			}), all(201)),
			is(at("GET /api/admin/waitlist"), adminOnly(200)),
			is(at("GET /api/admin/waitlist.csv"), adminOnly(200)),

			is(at("GET /api/dev/mail"), all(200)),
			is(at("GET /dev/mail"), all(200)),
			{pattern: "GET /dev/mail/{id}", path: fixed("/dev/mail/" + store.NewID()), want: all(404)},
			is(at("GET /metrics"), all(200)), // from this machine; ops_test.go checks the rest
			{pattern: "GET /api/events", path: fixed("/api/events"), want: signedIn(200), stream: true},

			is(at("GET /api/tribe/status"), all(200)),
			is(at("GET /api/members/overview"), signedIn(200)),
			is(at("GET /api/profile"), signedIn(200)),
			with(at("PUT /api/profile"), same(map[string]string{"bio": "hi"}), signedIn(200)),
			with(at("POST /api/profile/avatar"), func(int) any { return avatarUpload(t, "avatar", "me.png", testPNG(t, 40, 30)) }, signedIn(200)),
			is(at("DELETE /api/profile/avatar"), signedIn(200)),
			{pattern: "GET /avatars/{name}", path: fixed(*prof.AvatarURL), want: all(200)},

			is(at("GET /api/cohorts"), signedIn(200)),
			with(at("POST /api/cohorts"), same(map[string]string{"name": "New"}), want{401, 201, 201, 201, 409, 409, 201}),
			{pattern: "PUT /api/cohorts/{id}", path: fixed(cohortPath), body: same(map[string]string{"name": "Renamed"}), want: want{401, 403, 403, 403, 200, 403, 403}},
			{pattern: "DELETE /api/cohorts/{id}", path: freshCohort, want: want{401, 403, 403, 403, 204, 403, 403}},
			{pattern: "POST /api/cohorts/{id}/join", path: fixed(cohortPath + "/join"), want: want{401, 200, 200, 200, 409, 409, 200}},
			{pattern: "POST /api/cohorts/{id}/leave", path: fixed(cohortPath + "/leave"), want: want{401, 409, 409, 409, 204, 204, 409}},

			is(at("GET /api/sessions"), signedIn(200)),
			{pattern: "GET /api/sessions/{id}", path: fixed(sessionPath), want: signedIn(200)},
			{pattern: "GET /api/sessions/{id}/calendar.ics", path: fixed(sessionPath + "/calendar.ics"), want: signedIn(200)},
			// RSVPs and joining: subscribers and admins; free members are told why not.
			{pattern: "PUT /api/sessions/{id}/rsvp", path: fixed(sessionPath + "/rsvp"), body: same(map[string]any{"going": true}), want: want{401, 403, 403, 200, 403, 403, 200}},
			{pattern: "GET /api/sessions/{id}/join", path: fixed("/api/sessions/" + joinable.ID + "/join"), want: want{401, 403, 403, 303, 403, 403, 303}},
			{pattern: "GET /api/admin/sessions/{id}/attendance", path: fixed("/api/admin/sessions/" + past.ID + "/attendance"), want: adminOnly(200)},
			{pattern: "GET /api/admin/sessions/{id}/attendance", path: fixed("/api/admin/sessions/" + past.ID + "/attendance?format=csv"), want: adminOnly(200)},
			{pattern: "PUT /api/admin/sessions/{id}/attendance", path: fixed("/api/admin/sessions/" + past.ID + "/attendance"), body: same(map[string]any{"user_id": subscriber.id, "present": true}), want: adminOnly(200)},
			{pattern: "PUT /api/admin/sessions/{id}/attendance", path: fixed("/api/admin/sessions/" + sess.ID + "/attendance"), body: same(map[string]any{"user_id": subscriber.id, "present": true}), want: adminOnly(409)},
			is(at("GET /api/members/me/notifications"), signedIn(200)),
			with(at("PUT /api/members/me/notifications"), same(map[string]any{"weekly_digest": false, "time_zone": "Europe/Paris"}), signedIn(200)),
			// One-click unsubscribe: the signed token is the only credential.
			{pattern: "GET /api/unsubscribe", path: fixed("/api/unsubscribe?token=" + unsubscribeToken), want: all(200)},
			{pattern: "GET /api/unsubscribe", path: fixed("/api/unsubscribe?token=forged.token"), want: all(400)},
			{pattern: "POST /api/unsubscribe", path: fixed("/api/unsubscribe?token=" + unsubscribeToken), body: same(map[string]string{}), want: all(200)},
			{pattern: "POST /api/unsubscribe", path: fixed("/api/unsubscribe?token=forged.token"), body: same(map[string]string{}), want: all(400)},
			is(at("GET /api/admin/at-risk"), adminOnly(200)),
			// The notification centre and Web Push: every signed-in member, each their own.
			is(at("GET /api/notifications"), signedIn(200)),
			with(at("POST /api/notifications/read"), same(map[string]any{"all": true}), signedIn(200)),
			is(at("GET /api/push/key"), signedIn(200)),
			with(at("POST /api/push/subscriptions"), perRole(func(role string) any {
				return map[string]any{"endpoint": "https://push.example.com/send/" + role, "keys": map[string]string{"p256dh": pushKey, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}
			}), signedIn(201)),
			with(at("DELETE /api/push/subscriptions"), same(map[string]any{"endpoint": "https://push.example.com/send/x"}), signedIn(204)),
			is(at("GET /api/members/me/progress"), signedIn(200)),
			with(at("PUT /api/members/me/progress/seen"), same(map[string]string{"level": "Apprentice"}), signedIn(204)),
			is(at("GET /api/members/me/awards"), signedIn(200)),
			with(at("POST /api/members/me/awards"), same(map[string]string{"kind": "mentoring", "note": "Paired with a new member"}), want{401, 403, 403, 201, 403, 403, 201}),
			is(at("GET /api/admin/awards"), adminOnly(200)),
			is(at("GET /api/admin/insights"), adminOnly(200)),
			{pattern: "GET /api/admin/insights", path: fixed("/api/admin/insights?from=2026-01-01&to=2026-03-31"), want: adminOnly(200)},
			{pattern: "GET /api/admin/insights", path: fixed("/api/admin/insights?from=2026-13-01&to=2026-03-31"), want: adminOnly(400)},
			with(at("POST /api/admin/awards"), same(map[string]string{"user_id": subscriber.id, "kind": "contribution", "note": "Fixed the docs"}), adminOnly(201)),
			{pattern: "POST /api/admin/awards/{id}/accept", path: acceptPath, want: adminOnly(200)},
			{pattern: "DELETE /api/admin/awards/{id}", path: givenAward, want: adminOnly(204)},

			// Projects: every member reads; subscribers and admins share,
			// react and comment; the author edits; the admin hides; the
			// author and admins delete.
			is(at("GET /api/projects"), signedIn(200)),
			{pattern: "GET /api/projects", path: fixed("/api/projects?author=me"), want: signedIn(200)},
			with(at("POST /api/projects"), same(map[string]any{"title": "Mine", "link": "https://example.com/", "description": "Built it."}), forMembers(201)),
			{pattern: "PATCH /api/projects/{id}", path: fixed(ownProject), body: same(map[string]any{"title": "Renamed"}), want: want{401, 403, 403, 200, 403, 403, 403}},
			{pattern: "DELETE /api/projects/{id}", path: freshProject, want: forMembers(204)},
			{pattern: "PUT /api/projects/{id}/reaction", path: fixed(othersProject + "/reaction"), want: forMembers(200)},
			{pattern: "DELETE /api/projects/{id}/reaction", path: fixed(othersProject + "/reaction"), want: forMembers(200)},
			{pattern: "GET /api/projects/{id}/comments", path: fixed(othersProject + "/comments"), want: signedIn(200)},
			{pattern: "POST /api/projects/{id}/comments", path: fixed(othersProject + "/comments"), body: same(map[string]any{"body": "Nice"}), want: forMembers(201)},
			{pattern: "DELETE /api/projects/{id}/comments/{comment}", path: freshComment, want: forMembers(204)},
			{pattern: "PATCH /api/projects/{id}", path: fixed(ownProject), body: same(map[string]any{"hidden": true, "hidden_reason": "Off topic"}), want: adminOnly(200)},
			is(at("GET /api/community/threads"), signedIn(200)),
			with(at("POST /api/community/threads"), same(map[string]any{"category": "general", "title": "Hello", "body": "Hi all."}), forMembers(201)),
			{pattern: "GET /api/community/threads/{id}", path: fixed("/api/community/threads/" + othersThread), want: forMembers(200)},
			{pattern: "PATCH /api/community/threads/{id}", path: fixed("/api/community/threads/" + ownQuestion), body: same(map[string]any{"title": "Renamed"}), want: authorOnly},
			{pattern: "DELETE /api/community/threads/{id}", path: freshThread, want: forMembers(204)},
			{pattern: "POST /api/community/threads/{id}/replies", path: fixed("/api/community/threads/" + othersThread + "/replies"), body: same(map[string]any{"body": "Nice"}), want: forMembers(201)},
			{pattern: "PATCH /api/community/replies/{id}", path: fixed("/api/community/replies/" + ownReply), body: same(map[string]any{"body": "Edited"}), want: authorOnly},
			{pattern: "DELETE /api/community/replies/{id}", path: freshReply, want: forMembers(204)},
			{pattern: "PUT /api/community/threads/{id}/reaction", path: fixed("/api/community/threads/" + othersThread + "/reaction"), want: forMembers(200)},
			{pattern: "DELETE /api/community/threads/{id}/reaction", path: fixed("/api/community/threads/" + othersThread + "/reaction"), want: forMembers(200)},
			{pattern: "PUT /api/community/replies/{id}/reaction", path: fixed("/api/community/replies/" + othersReply + "/reaction"), want: forMembers(200)},
			{pattern: "DELETE /api/community/replies/{id}/reaction", path: fixed("/api/community/replies/" + othersReply + "/reaction"), want: forMembers(200)},
			{pattern: "PUT /api/community/threads/{id}/accepted", path: fixed("/api/community/threads/" + ownQuestion + "/accepted"), body: same(map[string]any{"reply_id": answerID}), want: want{401, 403, 403, 200, 403, 403, 200}},
			{pattern: "PUT /api/community/threads/{id}/mute", path: fixed("/api/community/threads/" + othersThread + "/mute"), body: same(map[string]any{"muted": true}), want: forMembers(200)},
			with(at("POST /api/community/reports"), same(map[string]any{"thread_id": othersThread, "reason": "Spam"}), forMembers(204)),
			is(at("GET /api/admin/community/reports"), adminOnly(200)),
			{pattern: "POST /api/admin/community/reports/{id}/resolve", path: freshReport, want: adminOnly(204)},
			{pattern: "PUT /api/admin/community/threads/{id}", path: fixed("/api/admin/community/threads/" + othersThread), body: same(map[string]any{"pinned": true}), want: adminOnly(200)},
			{pattern: "PUT /api/admin/community/replies/{id}", path: fixed("/api/admin/community/replies/" + othersReply), body: same(map[string]any{"hidden": false}), want: adminOnly(200)},
			is(at("GET /api/library"), signedIn(200)),
			{pattern: "GET /api/library/{id}", path: fixed("/api/library/" + libItem), want: signedIn(200)},
			{pattern: "PUT /api/library/{id}/progress", path: fixed("/api/library/" + libItem + "/progress"), body: same(map[string]any{"position_s": 30}), want: forMembers(200)},
			with(at("POST /api/admin/library"), same(map[string]any{"kind": "lesson", "title": "Notes", "body": "# Notes"}), adminOnly(201)),
			{pattern: "PATCH /api/admin/library/{id}", path: fixed("/api/admin/library/" + libItem), body: same(map[string]any{"title": "Replay"}), want: adminOnly(200)},
			{pattern: "DELETE /api/admin/library/{id}", path: freshLibItem, want: adminOnly(204)},
			{pattern: "GET /api/admin/library/{id}/stats", path: fixed("/api/admin/library/" + libItem + "/stats"), want: adminOnly(200)},
			{pattern: "GET /api/library/{id}/media", path: fixed("/api/library/" + libItem + "/media"), want: forMembers(200)},
			{pattern: "PUT /api/admin/library/{id}/media", path: fixed("/api/admin/library/" + libItem + "/media"), body: perRole(func(string) any { return map[string]any{"upload_id": finishedUpload()} }), want: adminOnly(200)},
			{pattern: "PUT /api/admin/library/{id}/transcript", path: fixed("/api/admin/library/" + libItem + "/transcript"), body: same("WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n"), want: adminOnly(200)},
			with(at("POST /api/admin/uploads"), same(map[string]any{"filename": "a.pdf", "size": 10}), adminOnly(201)),
			{pattern: "GET /api/admin/uploads/{id}", path: fixed("/api/admin/uploads/" + finishedUpload()), want: adminOnly(200)},
			{pattern: "PATCH /api/admin/uploads/{id}", path: func() string { return "/api/admin/uploads/" + newUpload() }, body: same(library.Range{}), want: adminOnly(400)},
			is(at("GET /api/members/directory"), forMembers(200)),

			with(at("POST /api/admin/sessions"), same(sessionBody()), adminOnly(201)),
			{pattern: "PUT /api/admin/sessions/{id}", path: fixed("/api/admin/sessions/" + sess.ID), body: same(sessionBody()), want: adminOnly(200)},
			{pattern: "PUT /api/admin/sessions/{id}/status", path: fixed("/api/admin/sessions/" + sess.ID + "/status"), body: same(map[string]string{"status": "scheduled"}), want: adminOnly(200)},
			{pattern: "DELETE /api/admin/sessions/{id}", path: freshSession, want: adminOnly(204)},

			is(at("GET /api/calendar/feed"), signedIn(200)),
			is(at("POST /api/calendar/feed"), signedIn(201)),
			is(at("DELETE /api/calendar/feed"), signedIn(204)),
			{pattern: "GET /calendar/{file}", path: fixed("/calendar/" + feedToken + ".ics"), want: all(200)},
			{pattern: "GET /calendar/{file}", path: fixed("/calendar/not-a-real-token-at-all.ics"), want: all(404)},

			with(at("POST /api/search"), same(map[string]any{"query": "tribe", "limit": 3}), all(200)),
			is(at("GET /api/admin/documents"), adminOnly(200)),
			with(at("POST /api/admin/documents"), same(map[string]string{"title": "Notes", "content": "Some notes."}), adminOnly(201)),
			{pattern: "PUT /api/admin/documents/{id}", path: fixed("/api/admin/documents/" + doc.ID), body: same(map[string]string{"title": "Handbook", "content": "Edited."}), want: adminOnly(200)},
			{pattern: "DELETE /api/admin/documents/{id}", path: freshDocument, want: adminOnly(204)},
			is(at("POST /api/admin/kb/seed"), adminOnly(200)),
			is(at("GET /api/admin/knowledge-gaps"), adminOnly(200)),

			is(at("GET /api/admin/export/members.csv"), adminOnly(200)),
			is(at("GET /api/admin/export/ledger.csv"), adminOnly(200)),
			is(at("GET /api/admin/export/bookings.csv"), adminOnly(200)),
			is(at("GET /api/admin/export/attendance.csv"), adminOnly(200)),
			is(at("GET /api/admin/export/waitlist.csv"), adminOnly(200)),
			{pattern: "POST /api/admin/import/members", path: fixed("/api/admin/import/members?dry_run=1"),
				body: same(upload{body: []byte("full_name,email\r\nNew Person,new.person@example.com\r\n"), contentType: "text/csv"}), want: adminOnly(200)},

			with(at("POST /api/ai/chat"), same(map[string]any{"messages": []map[string]string{{"role": "user", "content": "What does the tribe cost?"}}}), all(200)),
			// Payment is off in this site (membersEnv): checkout and the portal
			// say so (503) to every member; billing_routes_test.go runs them
			// with Stripe. The webhook is anyone's: its signature is the
			// credential, and without a secret it cannot be checked.
			with(at("POST /api/billing/checkout"), same(map[string]string{"redirect_to": "members"}), signedIn(503)),
			is(at("POST /api/billing/portal"), signedIn(503)),
			is(at("POST /api/billing/refresh"), signedIn(200)),
			with(at("POST /api/billing/webhook"), same(map[string]string{"id": "evt_1", "type": "invoice.paid"}), all(503)),
			is(at("GET /api/admin/members"), adminOnly(200)),
			{pattern: "PUT /api/admin/members/{id}/complimentary", path: freshMember, body: same(map[string]any{"until": "2099-12-31"}), want: adminOnly(200)},
			{pattern: "DELETE /api/admin/members/{id}/complimentary", path: compedMember, want: adminOnly(204)},

			// Booking: anyone books and reads the types and slots; the manage
			// token is the credential of a booking's own routes (a wrong one
			// is 404 for everyone); the owner's routes are admins'.
			is(at("GET /api/booking/types"), all(200)),
			is(at("GET /api/booking/packages"), all(200)),
			// Payments are off here: a package cannot be bought.
			{pattern: "POST /api/booking/packages/{id}/checkout", path: fixed("/api/booking/packages/deep-dive-4/checkout"),
				body: same(map[string]string{"name": "Ada", "email": "ada@example.com"}), want: all(503)},
			{pattern: "GET /bookings/packages/{id}/paid", path: fixed("/bookings/packages/" + store.NewID() + "/paid?r=not-a-return-id"), want: all(303)},
			{pattern: "GET /api/credits", path: fixed("/api/credits?email=ada%40example.com&token=not-a-token"), want: all(404)},
			is(at("GET /api/members/me/credits"), signedIn(200)),
			{pattern: "GET /api/booking/slots", path: fixed("/api/booking/slots?type=session-30&from=" + time.Now().Format(time.DateOnly) + "&to=" + time.Now().AddDate(0, 0, 13).Format(time.DateOnly) + "&tz=Europe/Paris"), want: all(200)},
			{pattern: "GET /api/booking/slots", path: fixed("/api/booking/slots?type=nope&from=2026-01-01&to=2026-01-02&tz=UTC"), want: all(400)},
			with(at("POST /api/bookings"), perRole(bookingBody), all(201)),
			{pattern: "GET /api/bookings/{id}", path: booked(""), want: all(200)},
			{pattern: "GET /api/bookings/{id}", path: fixed("/api/bookings/" + store.NewID() + "?token=not-a-token"), want: all(404)},
			{pattern: "GET /api/bookings/{id}/events", path: booked("/events"), want: all(200), stream: true},
			{pattern: "GET /api/bookings/{id}/calendar.ics", path: confirmedBooking("/calendar.ics"), want: all(200)},
			{pattern: "POST /api/bookings/{id}/cancel", path: booked("/cancel"), want: all(200)},
			{pattern: "POST /api/bookings/{id}/cancel", path: func() string { _, p := freshBooking(); return p + "/cancel?token=wrong" }, want: all(404)},
			{pattern: "POST /api/bookings/{id}/reschedule", path: booked("/reschedule"), body: func(int) any { return map[string]string{"start": nextSlot()} }, want: all(200)},
			{pattern: "GET /bookings/{id}/checkout-cancelled", path: func() string {
				c, _ := freshBooking()
				return "/bookings/" + c.Booking.ID + "/checkout-cancelled?token=" + c.Token
			}, want: all(303)},
			{pattern: "GET /bookings/{id}/paid", path: func() string {
				c, _ := freshBooking()
				return "/bookings/" + c.Booking.ID + "/paid?r=not-a-return-id"
			}, want: all(303)},
			{pattern: "GET /calendar/bookings/{file}", path: freshFeed, want: all(200)},
			{pattern: "GET /calendar/bookings/{file}", path: fixed("/calendar/bookings/not-a-real-token-at-all.ics"), want: all(404)},
			is(at("GET /api/admin/bookings"), adminOnly(200)),
			{pattern: "GET /api/admin/bookings/{id}", path: adminBooking(""), want: adminOnly(200)},
			{pattern: "POST /api/admin/bookings/{id}/{action}", path: adminBooking("/decline"), want: adminOnly(200)},
			{pattern: "POST /api/admin/bookings/{id}/{action}", path: adminBooking("/cancel"), want: adminOnly(200)},
			is(at("GET /api/admin/booking/settings"), adminOnly(200)),
			is(at("GET /api/admin/booking/packages"), adminOnly(200)),
			with(at("PUT /api/admin/booking/settings"), same(settings), adminOnly(200)),
			is(at("GET /api/admin/booking/feed"), adminOnly(200)),
			is(at("POST /api/admin/booking/feed"), adminOnly(201)),
			is(at("DELETE /api/admin/booking/feed"), adminOnly(204)),
			{pattern: "GET /api/booking/events", path: fixed("/api/booking/events?type=group"), want: all(200)},
			{pattern: "GET /api/booking/events", path: fixed("/api/booking/events?type=session-30"), want: all(400)},
			with(at("POST /api/bookings"), perRole(seatBody), all(201)),
			is(at("GET /api/admin/booking/events"), adminOnly(200)),
			with(at("POST /api/admin/booking/events"), func(int) any {
				eventAt = eventAt.Add(4 * time.Hour)
				return map[string]any{"type": "group", "start": eventAt.Format(time.RFC3339), "seats": 30}
			}, adminOnly(201)),
			{pattern: "PATCH /api/admin/booking/events/{id}", path: eventPath(""), body: func(int) any { return map[string]int{"seats": 40} }, want: adminOnly(200)},
			{pattern: "POST /api/admin/booking/events/{id}/move", path: eventWithSeat("/move"), body: func(int) any {
				moveAt = moveAt.Add(4 * time.Hour)
				return map[string]string{"start": moveAt.Format(time.RFC3339)}
			}, want: adminOnly(200)},
			{pattern: "POST /api/admin/booking/events/{id}/cancel", path: eventPath("/cancel"), want: adminOnly(200)},
			{pattern: "GET /api/admin/booking/events/{id}/attendees", path: eventWithSeat("/attendees"), want: adminOnly(200)},
			{pattern: "POST /api/admin/booking/events/{id}/message", path: eventWithSeat("/message"),
				body: func(int) any { return map[string]string{"subject": "Bring a laptop", "body": "See you there."} }, want: adminOnly(200)},
			// A date with seats left has no wait list; a wrong offer link is
			// not found for everyone; the owner reads a date's line.
			{pattern: "POST /api/booking/events/{id}/waitlist", path: func() string {
				return strings.Replace(eventPath("/waitlist")(), "/api/admin/", "/api/", 1)
			},
				// All roles ask from one address: five sign-ups a client, then 429.
				body: same(map[string]string{"name": "Ada", "email": "ada@example.com"}), want: func() want { w := all(409); w[5], w[6] = 429, 429; return w }()},
			{pattern: "GET /api/admin/booking/events/{id}/waitlist", path: eventPath("/waitlist"), want: adminOnly(200)},
			{pattern: "GET /api/booking/offers/{token}", path: fixed("/api/booking/offers/not-a-real-offer-token"), want: all(404)},
			{pattern: "POST /api/booking/offers/{token}/checkout", path: fixed("/api/booking/offers/not-a-real-offer-token/checkout"), want: all(404)},
			with(at("POST /api/inquiries"), perRole(inquiryBody), all(201)),
			is(at("GET /api/admin/inquiries"), adminOnly(200)),
			with(at("PATCH /api/admin/inquiries"), func(int) any {
				return map[string]string{"id": freshInquiry(), "status": "replied", "note": "Wrote back."}
			}, adminOnly(200)),
			is(at("GET /api/admin/booking/calendars"), adminOnly(200)),
			with(at("PUT /api/admin/booking/calendars"), same(map[string]any{"urls": []string{}}), adminOnly(200)),

			// Last: signing out ends the caller's session.
			is(at("POST /api/auth/signout"), all(204)),
		}

		covered := map[string]bool{}
		for _, c := range cases {
			covered[c.pattern] = true
		}
		for _, p := range m.s.routes {
			if !covered[p] {
				t.Errorf("route %q has no row in the authorization table", p)
			}
		}
		for p := range covered {
			if !slices.Contains(m.s.routes, p) {
				t.Errorf("the table has a row for %q, which is not registered", p)
			}
		}

		for _, c := range cases {
			for i, u := range users {
				reset()
				path := c.path()
				var body any
				if c.body != nil {
					body = c.body(i)
				}
				var status int
				var r reply
				if c.stream {
					status = m.streamStatus(u, path)
				} else {
					r = m.call(u, strings.SplitN(c.pattern, " ", 2)[0], path, body)
					status = r.status
				}
				if status != c.want[i] {
					t.Errorf("%s %s as %s: %d, want %d (%.200s)", c.pattern, path, roleNames[i], status, c.want[i], r.body)
				}
				if status >= 400 && strings.HasPrefix(path, "/api/") && !c.stream && r.errCode() == "" {
					t.Errorf("%s %s as %s: error without a JSON code: %s", c.pattern, path, roleNames[i], r.body)
				}
			}
		}
	})
}

// streamStatus opens a stream as u, returns its status and hangs up.
func (m *testSite) streamStatus(u testUser, path string) int {
	m.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", m.srv.URL+path, nil)
	if u.token != "" {
		req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: u.token})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		m.t.Fatal(fmt.Errorf("open %s: %w", path, err))
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}
