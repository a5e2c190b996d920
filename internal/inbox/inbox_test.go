package inbox_test

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/events"
	"tribe/internal/inbox"
	"tribe/internal/levels"
	"tribe/internal/notify"
	"tribe/internal/push"
	"tribe/internal/push/pushtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// site is one database with the services of one instance over it.
type site struct {
	t      testing.TB
	db     *store.DB
	hub    *events.Hub
	notify *notify.Service
	push   *push.Service
	inbox  *inbox.Service
}

func newSite(t testing.TB, db *store.DB) *site {
	hub := events.New(db, quiet)
	t.Cleanup(hub.Close)
	nt := notify.New(db, levels.New(db), "https://ruv.example")
	ps := push.New(db, push.Options{AllowPrivate: true, Logger: quiet})
	return &site{t: t, db: db, hub: hub, notify: nt, push: ps,
		inbox: inbox.New(db, inbox.Options{Hub: hub, Push: ps, Mailer: nt, BaseURL: "https://ruv.example", Logger: quiet})}
}

func (s *site) member(name string) string {
	s.t.Helper()
	id := store.NewID()
	email := name + "@example.com"
	ctx := context.Background()
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, email, email_normalized, password_hash, email_confirmed_at, created_at)
			VALUES ($1, $2, $2, 'x', $3, $3)`, id, email, store.Now()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, $3)`, id, email, name+" Lovelace")
		return err
	})
	if err != nil {
		s.t.Fatal(err)
	}
	return id
}

func (s *site) notifyAll(ns ...inbox.Notice) {
	s.t.Helper()
	if err := s.inbox.Notify(context.Background(), ns); err != nil {
		s.t.Fatal(err)
	}
}

func (s *site) list(userID string, unread bool) inbox.List {
	s.t.Helper()
	l, err := s.inbox.List(context.Background(), userID, unread, "")
	if err != nil {
		s.t.Fatal(err)
	}
	return l
}

func (s *site) count(q string, args ...any) int {
	s.t.Helper()
	var n int
	if err := s.db.Write.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		s.t.Fatal(err)
	}
	return n
}

// expectTopic waits for a live notice on sub.
func expectTopic(t *testing.T, sub *events.Subscription, topic string) {
	t.Helper()
	select {
	case <-sub.Wake():
		if got := sub.Take(); len(got) != 1 || got[0] != topic {
			t.Fatalf("live notices %v, want %s", got, topic)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no %s notice", topic)
	}
}

func nothing(t *testing.T, sub *events.Subscription) {
	t.Helper()
	select {
	case <-sub.Wake():
		t.Fatalf("unexpected live notice %v", sub.Take())
	case <-time.After(200 * time.Millisecond):
	}
}

// A notice lands in its member's centre alone, tells their open tabs
// only, and reactions to one thread fold into one entry while unread.
func TestNotifyListAndRead(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newSite(t, db)
		ada, bob := s.member("ada"), s.member("bob")
		adaTab, err := s.hub.Subscribe(ctx, ada)
		if err != nil {
			t.Fatal(err)
		}
		bobTab, err := s.hub.Subscribe(ctx, bob)
		if err != nil {
			t.Fatal(err)
		}
		s.notifyAll(inbox.Notice{MemberID: ada, Kind: inbox.KindMention, Title: "Bob mentioned you", Body: "in “Agents”", Link: "/members/community/t1#reply-r1"})
		expectTopic(t, adaTab, events.TopicNotifications)
		nothing(t, bobTab)

		for _, who := range []string{"Bob", "Cy", "Di"} {
			s.notifyAll(inbox.Notice{MemberID: ada, Kind: inbox.KindReaction, Title: who + " reacted 🔥 to your thread", Link: "/members/community/t1", GroupKey: "reaction:t1"})
		}
		s.notifyAll(inbox.Notice{MemberID: ada, Kind: inbox.KindReaction, Title: "Bob reacted 🔥 to your other thread", Link: "/members/community/t2", GroupKey: "reaction:t2"})
		l := s.list(ada, false)
		if len(l.Notifications) != 3 || l.Unread != 3 {
			t.Fatalf("Ada's list: %d entries, %d unread; want 3 and 3: %+v", len(l.Notifications), l.Unread, l.Notifications)
		}
		byLink := map[string]inbox.Notification{}
		for _, n := range l.Notifications {
			byLink[n.Link] = n
		}
		if n := byLink["/members/community/t1"]; n.Title != "Di reacted 🔥 to your thread" || n.Count != 3 || n.Kind != "reaction" {
			t.Fatalf("folded reactions: %+v", n)
		}
		if l := s.list(bob, false); len(l.Notifications) != 0 || l.Unread != 0 {
			t.Fatalf("Bob sees %d of Ada's notifications", len(l.Notifications))
		}

		// Bob cannot mark Ada's read; Ada can.
		mention := byLink["/members/community/t1#reply-r1"].ID
		if res, err := s.inbox.MarkRead(ctx, bob, inbox.ReadInput{IDs: []string{mention}}); err != nil || res.Marked != 0 {
			t.Fatalf("Bob marked Ada's notification: %+v %v", res, err)
		}
		if res, err := s.inbox.MarkRead(ctx, ada, inbox.ReadInput{IDs: []string{mention, mention, "nope"}}); err != nil || res.Marked != 1 || res.Unread != 2 {
			t.Fatalf("Ada marks one: %+v %v", res, err)
		}
		if l := s.list(ada, true); len(l.Notifications) != 2 {
			t.Fatalf("unread list has %d, want 2", len(l.Notifications))
		}
		if res, err := s.inbox.MarkRead(ctx, ada, inbox.ReadInput{All: true}); err != nil || res.Marked != 2 || res.Unread != 0 {
			t.Fatalf("mark all: %+v %v", res, err)
		}
		// Once read, the next reaction starts a new entry.
		s.notifyAll(inbox.Notice{MemberID: ada, Kind: inbox.KindReaction, Title: "Ed reacted 🔥 to your thread", GroupKey: "reaction:t1"})
		if l := s.list(ada, true); len(l.Notifications) != 1 || l.Unread != 1 || l.Notifications[0].Count != 1 || s.list(ada, false).Unread != 1 || len(s.list(ada, false).Notifications) != 4 {
			t.Fatalf("after reading, a new reaction: %+v", l)
		}

		for _, in := range []inbox.ReadInput{{}, {All: true, IDs: []string{"x"}}, {IDs: make([]string, 201)}} {
			if _, err := s.inbox.MarkRead(ctx, ada, in); !errs.Is(err, errs.Invalid) {
				t.Fatalf("mark read %+v: %v, want 400", in, err)
			}
		}
		// Hostile notices: links off the site are dropped, unknown kinds
		// and members left out, long text cut.
		s.notifyAll(
			inbox.Notice{MemberID: bob, Kind: inbox.KindMention, Title: strings.Repeat("x", 500), Link: "https://evil.example/"},
			inbox.Notice{MemberID: bob, Kind: inbox.KindMention, Title: "t", Link: "//evil.example/"},
			inbox.Notice{MemberID: bob, Kind: "spam", Title: "t"},
			inbox.Notice{MemberID: "nobody", Kind: inbox.KindMention, Title: "t"},
		)
		l = s.list(bob, false)
		if len(l.Notifications) != 2 {
			t.Fatalf("Bob has %d notifications, want 2", len(l.Notifications))
		}
		for _, n := range l.Notifications {
			if n.Link != "" || len([]rune(n.Title)) > 200 {
				t.Fatalf("hostile notice kept: %+v", n)
			}
		}
	})
}

// Paging: 30 a page, newest first, the cursor picks up where it ended.
func TestListPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSite(t, db)
		ada := s.member("ada")
		var ns []inbox.Notice
		for i := range 45 {
			ns = append(ns, inbox.Notice{MemberID: ada, Kind: inbox.KindReply, Title: "reply " + string(rune('A'+i))})
		}
		s.notifyAll(ns...)
		first := s.list(ada, false)
		if len(first.Notifications) != 30 || first.NextCursor == "" || first.Unread != 45 {
			t.Fatalf("first page: %d, cursor %q", len(first.Notifications), first.NextCursor)
		}
		second, err := s.inbox.List(context.Background(), ada, false, first.NextCursor)
		if err != nil || len(second.Notifications) != 15 || second.NextCursor != "" {
			t.Fatalf("second page: %d %v", len(second.Notifications), err)
		}
		seen := map[string]bool{}
		for _, n := range append(first.Notifications, second.Notifications...) {
			if seen[n.ID] {
				t.Fatalf("%s on both pages", n.ID)
			}
			seen[n.ID] = true
		}
		if _, err := s.inbox.List(context.Background(), ada, false, "garbage!"); !errs.Is(err, errs.Invalid) {
			t.Fatalf("bad cursor: %v", err)
		}
	})
}

// Channels: defaults, choices, refusals naming the field; mail goes to the
// mail outbox with a one-click unsubscribe that sets the kind back to the
// centre only.
func TestChannelsAndMail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newSite(t, db)
		ada := s.member("ada")
		ch, err := s.inbox.Channels(ctx, ada)
		if err != nil || ch["mention"] != "push" || ch["reaction"] != "app" || len(ch) != len(inbox.Kinds) {
			t.Fatalf("defaults: %v %v", ch, err)
		}
		for _, tc := range []struct {
			in    inbox.Channels
			field string
		}{
			{inbox.Channels{"mention": "sms"}, "channels.mention"},
			{inbox.Channels{"gossip": "app"}, "channels.gossip"},
			{inbox.Channels{"level": "mail"}, "channels.level"},
		} {
			var e *errs.Error
			_, err := s.inbox.SetChannels(ctx, ada, tc.in)
			if e2, ok := err.(*errs.Error); ok {
				e = e2
			}
			if e == nil || e.Field != tc.field {
				t.Fatalf("%v: %v, want a 400 naming %s", tc.in, err, tc.field)
			}
		}
		if ch, err := s.inbox.SetChannels(ctx, ada, inbox.Channels{"announcement": "mail", "reaction": "push"}); err != nil ||
			ch["announcement"] != "mail" || ch["reaction"] != "push" || ch["mention"] != "push" {
			t.Fatalf("set: %v %v", ch, err)
		}

		s.notifyAll(inbox.Notice{MemberID: ada, Kind: inbox.KindAnnouncement, Title: "New cohort opens", Body: "Join us Monday.", Link: "/members/community/a1"})
		var to, subject, text, unsub string
		if err := db.Write.QueryRowContext(ctx, `SELECT to_addr, subject, text_body, list_unsubscribe FROM mail_outbox`).Scan(&to, &subject, &text, &unsub); err != nil {
			t.Fatal(err)
		}
		if to != "ada@example.com" || subject != "New cohort opens" || !strings.Contains(text, "Join us Monday.") ||
			!strings.Contains(text, "https://ruv.example/members/community/a1") || !strings.Contains(text, "announcements") || unsub == "" {
			t.Fatalf("mail: to %q subject %q unsubscribe %q\n%s", to, subject, unsub, text)
		}
		u, _ := url.Parse(unsub)
		done, err := s.notify.Unsubscribe(ctx, u.Query().Get("token"))
		if err != nil || done.Label != "announcements" {
			t.Fatalf("unsubscribe: %+v %v", done, err)
		}
		if ch, _ := s.inbox.Channels(ctx, ada); ch["announcement"] != "app" {
			t.Fatalf("after unsubscribe, announcements go by %q", ch["announcement"])
		}
		s.notifyAll(inbox.Notice{MemberID: ada, Kind: inbox.KindAnnouncement, Title: "Second"})
		if n := s.count(`SELECT COUNT(*) FROM mail_outbox`); n != 1 {
			t.Fatalf("%d mails after unsubscribing, want 1", n)
		}
	})
}

// A member who chose push gets it on their browsers, decrypted to the
// notification's text, unless a tab of theirs is open; the outbox empties.
func TestPushThroughTheOutbox(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newSite(t, db)
		ps := pushtest.New(t)
		ada, bob, cy := s.member("ada"), s.member("bob"), s.member("cy")
		for _, m := range []string{ada, bob, cy} {
			b := ps.NewBrowser()
			var in push.SubscriptionInput
			in.Endpoint, in.Keys.P256dh, in.Keys.Auth = b.Endpoint, b.P256dh(), b.AuthKey()
			if err := s.push.Subscribe(ctx, m, in); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.inbox.SetChannels(ctx, cy, inbox.Channels{"mention": "app"}); err != nil {
			t.Fatal(err)
		}
		bobTab, err := s.hub.Subscribe(ctx, bob)
		if err != nil {
			t.Fatal(err)
		}
		defer bobTab.Close()
		s.notifyAll(
			inbox.Notice{MemberID: ada, Kind: inbox.KindMention, Title: "Bob mentioned you", Body: "“Have a look”", Link: "/members/community/t1#reply-r1"},
			inbox.Notice{MemberID: bob, Kind: inbox.KindMention, Title: "Ada mentioned you"},
			inbox.Notice{MemberID: cy, Kind: inbox.KindMention, Title: "Ada mentioned you"},
		)
		if n, err := s.inbox.DrainPush(ctx); err != nil || n != 2 {
			t.Fatalf("drain: %d %v, want 2 (Ada's, and Bob's dropped for his open tab)", n, err)
		}
		got := ps.Received()
		if len(got) != 1 {
			t.Fatalf("%d pushes, want 1 (Ada only)", len(got))
		}
		if m := got[0].Message(); m.Title != "Bob mentioned you" || m.Body != "“Have a look”" || m.Link != "/members/community/t1#reply-r1" {
			t.Fatalf("Ada's browser read %s", got[0].Payload)
		}
		if n := s.count(`SELECT COUNT(*) FROM push_outbox`); n != 0 {
			t.Fatalf("%d pushes left in the outbox", n)
		}
	})
}

// Two instances on one database drain one outbox: each push goes out
// exactly once.
func TestTwoInstancesPushOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		a, b := newSite(t, db), newSite(t, db)
		ps := pushtest.New(t)
		const members, each = 5, 8
		var ns []inbox.Notice
		for i := range members {
			m := a.member("m" + string(rune('a'+i)))
			br := ps.NewBrowser()
			var in push.SubscriptionInput
			in.Endpoint, in.Keys.P256dh, in.Keys.Auth = br.Endpoint, br.P256dh(), br.AuthKey()
			if err := a.push.Subscribe(ctx, m, in); err != nil {
				t.Fatal(err)
			}
			for j := range each {
				ns = append(ns, inbox.Notice{MemberID: m, Kind: inbox.KindReply, Title: "reply " + string(rune('0'+j))})
			}
		}
		a.notifyAll(ns...)
		var wg sync.WaitGroup
		var errA, errB error
		var nA, nB int
		wg.Go(func() { nA, errA = a.inbox.DrainPush(ctx) })
		wg.Go(func() { nB, errB = b.inbox.DrainPush(ctx) })
		wg.Wait()
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		got := ps.Received()
		if len(got) != members*each || nA+nB != members*each {
			t.Fatalf("%d pushes received, instances handled %d + %d; want %d in all", len(got), nA, nB, members*each)
		}
		seen := map[string]bool{}
		for _, r := range got {
			k := r.Endpoint + string(r.Payload)
			if seen[k] {
				t.Fatalf("pushed twice: %s", r.Payload)
			}
			seen[k] = true
		}
		if n := a.count(`SELECT COUNT(*) FROM push_outbox`); n != 0 {
			t.Fatalf("%d left in the outbox", n)
		}
	})
}

// TestNoPushToATabOnAnotherInstance: with two instances on one database, a
// member whose tab is open on instance B gets no push from instance A,
// which drains the outbox; once the tab closes, the next notification is
// pushed.
func TestNoPushToATabOnAnotherInstance(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		a, b := newSite(t, db), newSite(t, db)
		ps := pushtest.New(t)
		ada, bob := a.member("ada"), a.member("bob")
		for _, m := range []string{ada, bob} {
			br := ps.NewBrowser()
			var in push.SubscriptionInput
			in.Endpoint, in.Keys.P256dh, in.Keys.Auth = br.Endpoint, br.P256dh(), br.AuthKey()
			if err := a.push.Subscribe(ctx, m, in); err != nil {
				t.Fatal(err)
			}
		}
		bobTab, err := b.hub.Subscribe(ctx, bob)
		if err != nil {
			t.Fatal(err)
		}
		a.notifyAll(
			inbox.Notice{MemberID: ada, Kind: inbox.KindMention, Title: "For Ada"},
			inbox.Notice{MemberID: bob, Kind: inbox.KindMention, Title: "For Bob, whose tab is on B"},
		)
		if n, err := a.inbox.DrainPush(ctx); err != nil || n != 2 {
			t.Fatalf("A drained %d (%v), want 2", n, err)
		}
		got := ps.Received()
		if len(got) != 1 || got[0].Message().Title != "For Ada" {
			t.Fatalf("pushes %d, want Ada's alone", len(got))
		}
		bobTab.Close()
		a.notifyAll(inbox.Notice{MemberID: bob, Kind: inbox.KindMention, Title: "For Bob, tab closed"})
		if n, err := a.inbox.DrainPush(ctx); err != nil || n != 1 {
			t.Fatalf("A drained %d (%v), want 1", n, err)
		}
		if got := ps.Received(); len(got) != 2 || got[1].Message().Title != "For Bob, tab closed" {
			t.Fatalf("pushes %d, want Bob's after his tab closed", len(got))
		}
	})
}
