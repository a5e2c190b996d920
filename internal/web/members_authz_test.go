package web

import (
	"context"
	"strings"
	"testing"

	"tribe/internal/community"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestMembersAuthorization calls every members-area and admin endpoint this
// area registers as each role and checks the status.
func TestMembersAuthorization(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newMembersSite(t, db)
		ctx := context.Background()
		roles := []struct {
			name string
			u    memberUser
		}{
			{"anonymous", memberUser{}},
			{"member", m.user("member@example.com")},
			{"subscriber", m.user("subscriber@example.com")},
			{"creator", m.user("creator@example.com")},
			{"admin", m.user(membersAdminEmail)},
		}
		m.subscribe(roles[2].u, "active")
		creator := roles[3].u
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
		prof, err := community.SetAvatar(ctx, db, community.AvatarDir(m.cfg.DataDir), avatarOwner.id, strings.NewReader(string(testPNG(t, 32, 32))))
		if err != nil {
			t.Fatal(err)
		}
		feedToken, _, err := community.CreateFeed(ctx, db, avatarOwner.id)
		if err != nil {
			t.Fatal(err)
		}
		// Each call starts from the same memberships: only the creator, in
		// their own cohort.
		reset := func() {
			m.exec(`DELETE FROM cohort_members`)
			m.exec(`INSERT INTO cohort_members (id, cohort_id, user_id) VALUES ($1, $2, $3)`, store.NewID(), cohort.ID, creator.id)
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
			return s.ID
		}
		type want [5]int
		all := func(code int) want { return want{code, code, code, code, code} }
		signedIn := func(code int) want { return want{401, code, code, code, code} }
		adminOnly := func(code int) want { return want{401, 403, 403, 403, code} }
		cases := []struct {
			method string
			path   func() string
			body   func() any
			want   want
		}{
			{"GET", fixed("/api/tribe/status"), nil, all(200)},
			{"GET", fixed("/api/members/overview"), nil, signedIn(200)},
			{"GET", fixed("/api/profile"), nil, signedIn(200)},
			{"PUT", fixed("/api/profile"), jsonBody(map[string]string{"bio": "hi"}), signedIn(200)},
			{"POST", fixed("/api/profile/avatar"), func() any { return avatarUpload(t, "avatar", "me.png", testPNG(t, 40, 30)) }, signedIn(200)},
			{"DELETE", fixed("/api/profile/avatar"), nil, signedIn(200)},
			{"GET", fixed(*prof.AvatarURL), nil, all(200)},
			{"GET", fixed("/api/cohorts"), nil, signedIn(200)},
			{"POST", fixed("/api/cohorts"), jsonBody(map[string]string{"name": "New"}), want{401, 201, 201, 409, 201}},
			{"PUT", fixed("/api/cohorts/" + cohort.ID), jsonBody(map[string]string{"name": "Renamed"}), want{401, 403, 403, 200, 403}},
			{"DELETE", freshCohort, nil, want{401, 403, 403, 204, 403}},
			{"POST", fixed("/api/cohorts/" + cohort.ID + "/join"), nil, want{401, 200, 200, 409, 200}},
			{"POST", fixed("/api/cohorts/" + cohort.ID + "/leave"), nil, want{401, 409, 409, 204, 409}},
			{"GET", fixed("/api/sessions"), nil, signedIn(200)},
			{"GET", fixed("/api/sessions/" + sess.ID), nil, signedIn(200)},
			{"GET", fixed("/api/sessions/" + sess.ID + "/calendar.ics"), nil, signedIn(200)},
			{"POST", fixed("/api/admin/sessions"), jsonBody(sessionBody()), adminOnly(201)},
			{"PUT", fixed("/api/admin/sessions/" + sess.ID), jsonBody(sessionBody()), adminOnly(200)},
			{"PUT", fixed("/api/admin/sessions/" + sess.ID + "/status"), jsonBody(map[string]string{"status": "scheduled"}), adminOnly(200)},
			{"DELETE", func() string { return "/api/admin/sessions/" + freshSession() }, nil, adminOnly(204)},
			{"GET", fixed("/api/calendar/feed"), nil, signedIn(200)},
			{"POST", fixed("/api/calendar/feed"), nil, signedIn(201)},
			{"DELETE", fixed("/api/calendar/feed"), nil, signedIn(204)},
			{"GET", fixed("/calendar/" + feedToken + ".ics"), nil, all(200)},
			{"GET", fixed("/calendar/not-a-real-token-at-all.ics"), nil, all(404)},
		}
		for _, c := range cases {
			for i, role := range roles {
				reset()
				path := c.path()
				var body any
				if c.body != nil {
					body = c.body()
				}
				r := m.call(role.u, c.method, path, body)
				if r.status != c.want[i] {
					t.Errorf("%s %s as %s: %d, want %d (%s)", c.method, path, role.name, r.status, c.want[i], r.body)
				}
				if r.status >= 400 && strings.HasPrefix(path, "/api/") && r.errCode() == "" {
					t.Errorf("%s %s as %s: error without a JSON code: %s", c.method, path, role.name, r.body)
				}
			}
		}
	})
}

func fixed(path string) func() string { return func() string { return path } }

func jsonBody(v any) func() any { return func() any { return v } }
