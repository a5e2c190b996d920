package web

import (
	"context"
	"strings"
	"testing"

	"tribe/internal/events"
	"tribe/internal/inbox"
	"tribe/internal/push/pushtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// The notification centre over HTTP: a member sees and marks only their
// own notifications, their open tab hears of new ones, and another member's
// ids change nothing.
func TestNotificationsOverHTTPAreEachMembersOwn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		ctx := context.Background()
		ada, bob := m.user("ada@example.com"), m.user("bob@example.com")
		adaTab := openStream(t, m.srv.URL, ada.token)
		adaTab.ready(t)
		if err := m.s.Services.Inbox.Notify(ctx, []inbox.Notice{
			{MemberID: ada.id, Kind: inbox.KindMention, Title: "Bob mentioned you", Body: "in “Agents in production”", Link: "/members/community/t1#reply-r1"},
			{MemberID: ada.id, Kind: inbox.KindAnnouncement, Title: "New cohort", Link: "/members/community/a1"},
		}); err != nil {
			t.Fatal(err)
		}
		adaTab.expect(t, events.TopicNotifications)

		r := m.call(ada, "GET", "/api/notifications", nil)
		list, _ := r.json["notifications"].([]any)
		if r.status != 200 || len(list) != 2 || r.json["unread"] != 2.0 {
			t.Fatalf("Ada's notifications: %d %s", r.status, r.body)
		}
		first := list[0].(map[string]any)
		for _, k := range []string{"id", "kind", "title", "body", "link", "created_at", "read_at"} {
			if _, ok := first[k]; !ok {
				t.Fatalf("notification lacks %q: %v", k, first)
			}
		}
		var mentionID string
		for _, n := range list {
			if n := n.(map[string]any); n["kind"] == "mention" {
				mentionID = n["id"].(string)
			}
		}
		if r := m.call(bob, "GET", "/api/notifications", nil); r.json["unread"] != 0.0 || len(r.json["notifications"].([]any)) != 0 {
			t.Fatalf("Bob sees Ada's notifications: %s", r.body)
		}
		if r := m.call(bob, "POST", "/api/notifications/read", map[string]any{"ids": []string{mentionID}}); r.status != 200 || r.json["marked"] != 0.0 {
			t.Fatalf("Bob marks Ada's: %d %s", r.status, r.body)
		}
		if r := m.call(ada, "GET", "/api/notifications?unread=1", nil); r.json["unread"] != 2.0 {
			t.Fatalf("after Bob's try: %s", r.body)
		}
		for _, bad := range []any{map[string]any{}, map[string]any{"ids": "x"}, map[string]any{"all": true, "ids": []string{"a"}}, "[]"} {
			if r := m.call(ada, "POST", "/api/notifications/read", bad); r.status != 400 {
				t.Fatalf("read %v: %d %s", bad, r.status, r.body)
			}
		}
		if r := m.call(ada, "GET", "/api/notifications?unread=maybe", nil); r.status != 400 || r.errField() != "unread" {
			t.Fatalf("unread=maybe: %d %s", r.status, r.body)
		}
		if r := m.call(ada, "GET", "/api/notifications?cursor=not-a-cursor", nil); r.status != 400 || r.errField() != "cursor" {
			t.Fatalf("bad cursor: %d %s", r.status, r.body)
		}
		if r := m.call(ada, "POST", "/api/notifications/read", map[string]any{"ids": []string{mentionID}}); r.json["marked"] != 1.0 || r.json["unread"] != 1.0 {
			t.Fatalf("Ada marks one: %s", r.body)
		}
		adaTab.expect(t, events.TopicNotifications)
		if r := m.call(ada, "POST", "/api/notifications/read", map[string]any{"all": true}); r.json["marked"] != 1.0 || r.json["unread"] != 0.0 {
			t.Fatalf("Ada marks all: %s", r.body)
		}
	})
}

// Channels travel with the notification settings; a bad one is refused by
// name and nothing of the request is saved.
func TestNotificationChannelsOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		ada := m.user("ada@example.com")
		r := m.call(ada, "GET", "/api/members/me/notifications", nil)
		ch, _ := r.json["channels"].(map[string]any)
		if r.status != 200 || ch["mention"] != "push" || ch["reaction"] != "app" || r.json["weekly_digest"] != true {
			t.Fatalf("settings: %d %s", r.status, r.body)
		}
		for _, tc := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"weekly_digest": false, "channels": map[string]string{"level": "mail"}}, "channels.level"},
			{map[string]any{"weekly_digest": false, "channels": map[string]string{"mention": "pigeon"}}, "channels.mention"},
			{map[string]any{"weekly_digest": false, "channels": map[string]string{"<script>": "app"}}, "channels.<script>"},
		} {
			if r := m.call(ada, "PUT", "/api/members/me/notifications", tc.body); r.status != 400 || r.errField() != tc.field {
				t.Fatalf("%v: %d %s", tc.body, r.status, r.body)
			}
		}
		if r := m.call(ada, "GET", "/api/members/me/notifications", nil); r.json["weekly_digest"] != true {
			t.Fatalf("a refused request changed the settings: %s", r.body)
		}
		r = m.call(ada, "PUT", "/api/members/me/notifications", map[string]any{"weekly_digest": false, "channels": map[string]string{"reply": "mail", "reaction": "push"}})
		ch, _ = r.json["channels"].(map[string]any)
		if r.status != 200 || ch["reply"] != "mail" || ch["reaction"] != "push" || ch["mention"] != "push" || r.json["weekly_digest"] != false {
			t.Fatalf("save: %d %s", r.status, r.body)
		}
	})
}

// Push subscriptions over HTTP: hostile endpoints are refused by name, a
// member's browser gets their notification decrypted, and a member removes
// only their own browser.
func TestPushSubscriptionsOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		strict := newTestSite(t, db, membersEnv())
		eve := strict.user("eve@example.com")
		ps := pushtest.New(t)
		b := ps.NewBrowser()
		for _, endpoint := range []string{b.Endpoint, "https://127.0.0.1/x", "https://169.254.169.254/", "https://[::1]/", "https://localhost/x",
			"http://push.example.com/x", "ftp://push.example.com/", "https://push.example.com/" + strings.Repeat("a", 2000)} {
			r := strict.call(eve, "POST", "/api/push/subscriptions", map[string]any{"endpoint": endpoint, "keys": map[string]string{"p256dh": b.P256dh(), "auth": b.AuthKey()}})
			if r.status != 400 || r.errField() != "endpoint" {
				t.Fatalf("endpoint %q: %d %s", endpoint, r.status, r.body)
			}
		}
		if r := strict.call(eve, "POST", "/api/push/subscriptions", map[string]any{"endpoint": "https://push.example.com/x", "keys": map[string]string{"p256dh": "AAAA", "auth": b.AuthKey()}}); r.status != 400 || r.errField() != "keys.p256dh" {
			t.Fatalf("bad key: %d %s", r.status, r.body)
		}

		env := membersEnv()
		env["TRIBE_PUSH_ALLOW_PRIVATE"] = "true"
		m := newTestSite(t, db, env)
		ada, bob := m.user("ada@example.com"), m.user("bob@example.com")
		r := m.call(ada, "GET", "/api/push/key", nil)
		if key, _ := r.json["public_key"].(string); r.status != 200 || len(key) != 87 {
			t.Fatalf("key: %d %s", r.status, r.body)
		}
		if r := m.call(ada, "POST", "/api/push/subscriptions", map[string]any{"endpoint": b.Endpoint, "keys": map[string]string{"p256dh": b.P256dh(), "auth": b.AuthKey()}}); r.status != 201 {
			t.Fatalf("subscribe: %d %s", r.status, r.body)
		}
		if err := m.s.Services.Inbox.Notify(ctx, []inbox.Notice{{MemberID: ada.id, Kind: inbox.KindReply, Title: "Bob replied", Body: "Try the cache.", Link: "/members/community/t1#reply-r2"}}); err != nil {
			t.Fatal(err)
		}
		if n, err := m.s.Services.Inbox.DrainPush(ctx); err != nil || n != 1 {
			t.Fatalf("drain: %d %v", n, err)
		}
		got := ps.Received()
		if len(got) != 1 || got[0].Message().Title != "Bob replied" || got[0].Message().Link != "/members/community/t1#reply-r2" {
			t.Fatalf("pushes: %+v", got)
		}
		// Bob cannot turn Ada's browser off; Ada can.
		if r := m.call(bob, "DELETE", "/api/push/subscriptions", map[string]any{"endpoint": b.Endpoint}); r.status != 204 {
			t.Fatalf("Bob's delete: %d %s", r.status, r.body)
		}
		if n, _ := m.s.Services.Push.Count(ctx, ada.id); n != 1 {
			t.Fatal("Bob removed Ada's browser")
		}
		if r := m.call(ada, "DELETE", "/api/push/subscriptions", map[string]any{"endpoint": b.Endpoint}); r.status != 204 {
			t.Fatalf("Ada's delete: %d %s", r.status, r.body)
		}
		if n, _ := m.s.Services.Push.Count(ctx, ada.id); n != 0 {
			t.Fatal("Ada's browser kept")
		}
	})
}
