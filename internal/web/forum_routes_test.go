package web

import (
	"context"
	"strings"
	"sync"
	"testing"

	"tribe/internal/events"
	"tribe/internal/forum"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// noticeLog is a forum.Notifier that keeps what it was handed (the
// notification centre is wired by the program).
type noticeLog struct {
	mu      sync.Mutex
	notices []forum.Notice
}

func (l *noticeLog) Notify(_ context.Context, n []forum.Notice) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.notices = append(l.notices, n...)
	return nil
}

func (l *noticeLog) take() []forum.Notice {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.notices
	l.notices = nil
	return out
}

func threadOf(r reply) map[string]any {
	t, _ := r.json["thread"].(map[string]any)
	return t
}

func threadsOf(r reply) []any {
	l, _ := r.json["threads"].([]any)
	return l
}

// TestCommunityOverHTTP: a subscriber asks (live to open tabs), another
// is mentioned and answers, the asker accepts; each is told; bad input is
// refused naming its field and writes nothing; a free member reads only
// announcements; nobody but the author edits, and nobody but the author
// or an admin deletes.
func TestCommunityOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		log := &noticeLog{}
		m.s.Services.Forum.SetNotifier(log)
		ada, bob, free, boss, stranger := m.user("ada@example.com"), m.user("bob@example.com"), m.user("free@example.com"), m.user(membersAdminEmail), testUser{}
		m.subscribe(ada, "active")
		m.subscribe(bob, "active")
		m.exec(`UPDATE profiles SET in_directory = TRUE`)

		bobTab := openStream(t, m.srv.URL, bob.token)
		bobTab.ready(t)

		if r := m.call(stranger, "GET", "/api/community/threads", nil); r.status != 401 {
			t.Fatalf("a stranger lists threads: %d", r.status)
		}
		for _, bad := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"category": "rant", "title": "T", "body": "B"}, "category"},
			{map[string]any{"category": "question", "title": strings.Repeat("t", 201), "body": "B"}, "title"},
			{map[string]any{"category": "question", "title": "T", "body": strings.Repeat("b", 20001)}, "body"},
			{map[string]any{"category": "question", "title": "T", "body": ""}, "body"},
		} {
			if r := m.call(ada, "POST", "/api/community/threads", bad.body); r.status != 400 || r.errField() != bad.field {
				t.Errorf("POST %v: %d %s, want 400 on %s", bad.field, r.status, r.body, bad.field)
			}
		}
		if r := m.call(free, "POST", "/api/community/threads", map[string]any{"category": "general", "title": "T", "body": "B"}); r.status != 403 {
			t.Fatalf("a free member posts: %d %s", r.status, r.body)
		}
		if r := m.call(ada, "POST", "/api/community/threads", map[string]any{"category": "announcement", "title": "T", "body": "B"}); r.status != 403 {
			t.Fatalf("a member announces: %d %s", r.status, r.body)
		}
		if n := m.count(`SELECT COUNT(*) FROM forum_threads`); n != 0 {
			t.Fatalf("%d threads written by refused posts", n)
		}

		r := m.call(ada, "POST", "/api/community/threads", map[string]any{"category": "question", "title": "Agent memory?",
			"body": "What do you use, @bob? <script>alert(1)</script>"})
		if r.status != 201 {
			t.Fatalf("ask: %d %s", r.status, r.body)
		}
		q := threadOf(r)
		id := q["id"].(string)
		author, _ := q["author"].(map[string]any)
		if q["body"] != "What do you use, @bob? <script>alert(1)</script>" || q["mine"] != true || author["full_name"] != "ada" || q["can_accept"] != true {
			t.Fatalf("asked: %v", q)
		}
		bobTab.expect(t, events.TopicCommunity)
		if got := log.take(); len(got) != 1 || got[0].MemberID != bob.id || got[0].Kind != forum.KindMention {
			t.Fatalf("told of the question: %+v", got)
		}

		if r := m.call(free, "GET", "/api/community/threads/"+id, nil); r.status != 403 {
			t.Fatalf("a free member opens a question: %d %s", r.status, r.body)
		}
		if r := m.call(free, "POST", "/api/community/threads/"+id+"/replies", map[string]any{"body": "me"}); r.status != 403 {
			t.Fatalf("a free member replies: %d %s", r.status, r.body)
		}
		if r := m.call(bob, "POST", "/api/community/threads/"+id+"/replies", map[string]any{"body": strings.Repeat("r", 10001)}); r.status != 400 || r.errField() != "body" {
			t.Fatalf("an oversized reply: %d %s", r.status, r.body)
		}
		r = m.call(bob, "POST", "/api/community/threads/"+id+"/replies", map[string]any{"body": "A vector store."})
		if r.status != 201 {
			t.Fatalf("answer: %d %s", r.status, r.body)
		}
		answer, _ := r.json["reply"].(map[string]any)
		replyID := answer["id"].(string)
		if got := log.take(); len(got) != 1 || got[0].MemberID != ada.id || got[0].Kind != forum.KindReply ||
			got[0].Link != "/members/community/"+id+"#reply-"+replyID {
			t.Fatalf("told of the answer: %+v", got)
		}

		if r := m.call(bob, "PUT", "/api/community/threads/"+id+"/accepted", map[string]any{"reply_id": replyID}); r.status != 403 {
			t.Fatalf("another member accepts: %d %s", r.status, r.body)
		}
		if r := m.call(ada, "PUT", "/api/community/threads/"+id+"/accepted", map[string]any{"reply_id": "nope"}); r.status != 400 || r.errField() != "reply_id" {
			t.Fatalf("accepting no reply: %d %s", r.status, r.body)
		}
		r = m.call(ada, "PUT", "/api/community/threads/"+id+"/accepted", map[string]any{"reply_id": replyID})
		if r.status != 200 || threadOf(r)["accepted_reply_id"] != replyID {
			t.Fatalf("accept: %d %s", r.status, r.body)
		}
		if got := log.take(); len(got) != 1 || got[0].MemberID != bob.id || got[0].Kind != forum.KindAccepted {
			t.Fatalf("told of the accepted answer: %+v", got)
		}
		// The answer is put forward as Bob's contribution, for an admin to accept in the awards flow.
		if n := m.count(`SELECT COUNT(*) FROM awards WHERE user_id = $1 AND kind = 'contribution' AND status = 'suggested'`, bob.id); n != 1 {
			t.Fatalf("%d contribution suggestions for the accepted answer", n)
		}
		for range 2 {
			if r := m.call(ada, "PUT", "/api/community/replies/"+replyID+"/reaction", nil); r.status != 200 {
				t.Fatalf("react: %d %s", r.status, r.body)
			}
		}
		if got := log.take(); len(got) != 1 || got[0].Kind != forum.KindReaction || got[0].GroupKey != "reaction:"+id {
			t.Fatalf("told of the reaction: %+v", got)
		}

		// Other members edit and delete nothing of another's.
		if r := m.call(bob, "PATCH", "/api/community/threads/"+id, map[string]any{"title": "Bob's"}); r.status != 403 {
			t.Fatalf("another member edits a thread: %d", r.status)
		}
		if r := m.call(ada, "PATCH", "/api/community/replies/"+replyID, map[string]any{"body": "Ada's"}); r.status != 403 {
			t.Fatalf("another member edits a reply: %d", r.status)
		}
		if r := m.call(bob, "DELETE", "/api/community/threads/"+id, nil); r.status != 403 {
			t.Fatalf("another member deletes a thread: %d", r.status)
		}
		if r := m.call(ada, "DELETE", "/api/community/replies/"+replyID, nil); r.status != 403 {
			t.Fatalf("another member deletes a reply: %d", r.status)
		}
		r = m.call(ada, "PATCH", "/api/community/threads/"+id, map[string]any{"body": "Edited."})
		if r.status != 200 || threadOf(r)["edited_at"] == nil {
			t.Fatalf("the author edits: %d %s", r.status, r.body)
		}

		// The owner announces: everyone is told, free members included,
		// and free members list the announcement alone.
		r = m.call(boss, "POST", "/api/community/threads", map[string]any{"category": "announcement", "title": "New cohort", "body": "Starts Monday."})
		if r.status != 201 || threadOf(r)["pinned"] != true {
			t.Fatalf("announce: %d %s", r.status, r.body)
		}
		told := map[string]string{}
		for _, n := range log.take() {
			told[n.MemberID] = n.Kind
		}
		if len(told) != 3 || told[ada.id] != forum.KindAnnouncement || told[bob.id] != forum.KindAnnouncement || told[free.id] != forum.KindAnnouncement {
			t.Fatalf("told of the announcement: %v", told)
		}
		r = m.call(free, "GET", "/api/community/threads", nil)
		if l := threadsOf(r); r.status != 200 || len(l) != 1 || l[0].(map[string]any)["category"] != "announcement" || r.json["can_post"] != false {
			t.Fatalf("the list as a free member: %d %s", r.status, r.body)
		}
		if r := m.call(ada, "GET", "/api/community/threads?q=vector", nil); len(threadsOf(r)) != 1 {
			t.Fatalf("search finds the reply: %s", r.body)
		}
		if r := m.call(ada, "GET", "/api/community/threads?unanswered=1&category=question", nil); r.status != 200 || len(threadsOf(r)) != 0 {
			t.Fatalf("unanswered: %s", r.body)
		}
		if r := m.call(ada, "GET", "/api/community/threads?cursor=garbage", nil); r.status != 400 || r.errField() != "cursor" {
			t.Fatalf("a forged cursor: %d %s", r.status, r.body)
		}
		if r := m.call(boss, "DELETE", "/api/community/replies/"+replyID, nil); r.status != 204 {
			t.Fatalf("an admin deletes a reply: %d", r.status)
		}
		if r := m.call(ada, "DELETE", "/api/community/threads/"+id, nil); r.status != 204 {
			t.Fatalf("the author deletes: %d", r.status)
		}
	})
}

// TestCommunityModerationOverHTTP: a member reports, only admins read
// reports, hide with a reason (required) and resolve; a hidden post is
// gone for other members and its author reads why; a member cannot reach
// the admin routes.
func TestCommunityModerationOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		ada, bob, boss := m.user("ada@example.com"), m.user("bob@example.com"), m.user(membersAdminEmail)
		m.subscribe(ada, "active")
		m.subscribe(bob, "active")
		r := m.call(ada, "POST", "/api/community/threads", map[string]any{"category": "general", "title": "Buy my course", "body": "Cheap."})
		id := threadOf(r)["id"].(string)
		r = m.call(bob, "POST", "/api/community/threads/"+id+"/replies", map[string]any{"body": "Spam reply"})
		replyID := r.json["reply"].(map[string]any)["id"].(string)

		if r := m.call(bob, "POST", "/api/community/reports", map[string]any{"thread_id": id}); r.status != 400 || r.errField() != "reason" {
			t.Fatalf("a report without a reason: %d %s", r.status, r.body)
		}
		if r := m.call(bob, "POST", "/api/community/reports", map[string]any{"thread_id": id, "reason": "Selling"}); r.status != 204 {
			t.Fatalf("report: %d %s", r.status, r.body)
		}
		if r := m.call(bob, "GET", "/api/admin/community/reports", nil); r.status != 403 {
			t.Fatalf("a member reads reports: %d", r.status)
		}
		if r := m.call(bob, "PUT", "/api/admin/community/threads/"+id, map[string]any{"hidden": true, "reason": "x"}); r.status != 403 {
			t.Fatalf("a member hides: %d", r.status)
		}
		r = m.call(boss, "GET", "/api/admin/community/reports", nil)
		reports, _ := r.json["reports"].([]any)
		if r.status != 200 || len(reports) != 1 {
			t.Fatalf("reports: %d %s", r.status, r.body)
		}
		if r := m.call(boss, "PUT", "/api/admin/community/threads/"+id, map[string]any{"hidden": true}); r.status != 400 || r.errField() != "reason" {
			t.Fatalf("hiding without a reason: %d %s", r.status, r.body)
		}
		if r := m.call(boss, "PUT", "/api/admin/community/threads/"+id, map[string]any{"hidden": true, "reason": "No selling here"}); r.status != 200 {
			t.Fatalf("hide: %d %s", r.status, r.body)
		}
		if r := m.call(bob, "GET", "/api/community/threads/"+id, nil); r.status != 404 {
			t.Fatalf("another member opens a hidden thread: %d", r.status)
		}
		if r := m.call(bob, "GET", "/api/community/threads", nil); len(threadsOf(r)) != 0 {
			t.Fatalf("another member lists a hidden thread: %s", r.body)
		}
		if r := m.call(bob, "PUT", "/api/community/threads/"+id+"/reaction", nil); r.status != 404 {
			t.Fatalf("reacting to a hidden thread: %d", r.status)
		}
		r = m.call(ada, "GET", "/api/community/threads/"+id, nil)
		if r.status != 200 || threadOf(r)["hidden_reason"] != "No selling here" {
			t.Fatalf("the author reads why: %d %s", r.status, r.body)
		}
		if r := m.call(boss, "GET", "/api/admin/community/reports", nil); len(r.json["reports"].([]any)) != 0 {
			t.Fatalf("hiding left the report open: %s", r.body)
		}
		if r := m.call(boss, "PUT", "/api/admin/community/threads/"+id, map[string]any{"hidden": false, "pinned": true}); r.status != 200 || threadOf(r)["pinned"] != true {
			t.Fatalf("show and pin: %d %s", r.status, r.body)
		}
		if r := m.call(boss, "PUT", "/api/admin/community/replies/"+replyID, map[string]any{"hidden": true, "reason": "Spam"}); r.status != 200 {
			t.Fatalf("hide a reply: %d %s", r.status, r.body)
		}
		r = m.call(ada, "GET", "/api/community/threads/"+id, nil)
		if replies := threadOf(r)["replies"].([]any); len(replies) != 0 {
			t.Fatalf("another member sees a hidden reply: %s", r.body)
		}
		r = m.call(bob, "GET", "/api/community/threads/"+id, nil)
		if replies := threadOf(r)["replies"].([]any); len(replies) != 1 || replies[0].(map[string]any)["hidden_reason"] != "Spam" {
			t.Fatalf("the reply's author reads why: %s", r.body)
		}
		if r := m.call(bob, "POST", "/api/community/reports", map[string]any{"reply_id": replyID, "reason": "oops"}); r.status != 204 {
			t.Fatalf("report: %d", r.status)
		}
		rid := m.count(`SELECT COUNT(*) FROM forum_reports WHERE resolved_at IS NULL`)
		if rid != 1 {
			t.Fatalf("%d open reports", rid)
		}
		list := m.call(boss, "GET", "/api/admin/community/reports", nil).json["reports"].([]any)
		reportID := list[0].(map[string]any)["id"].(string)
		if r := m.call(bob, "POST", "/api/admin/community/reports/"+reportID+"/resolve", nil); r.status != 403 {
			t.Fatalf("a member resolves: %d", r.status)
		}
		if r := m.call(boss, "POST", "/api/admin/community/reports/"+reportID+"/resolve", nil); r.status != 204 {
			t.Fatalf("resolve: %d", r.status)
		}
		if r := m.call(boss, "POST", "/api/admin/community/reports/"+reportID+"/resolve", nil); r.status != 404 {
			t.Fatalf("resolve twice: %d", r.status)
		}
	})
}

// TestCommunityWritingLimitAnswers429WithRetryAfter.
func TestCommunityWritingLimitAnswers429WithRetryAfter(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		ada := m.user("ada@example.com")
		m.subscribe(ada, "active")
		for i := range forum.ThreadsPerHour {
			if r := m.call(ada, "POST", "/api/community/threads", map[string]any{"category": "general", "title": "T", "body": strings.Repeat("b", i+1)}); r.status != 201 {
				t.Fatalf("thread %d: %d %s", i, r.status, r.body)
			}
		}
		r := m.call(ada, "POST", "/api/community/threads", map[string]any{"category": "general", "title": "T", "body": "B"})
		if r.status != 429 || r.header.Get("Retry-After") == "" {
			t.Fatalf("the 11th thread: %d %v %s", r.status, r.header, r.body)
		}
	})
}
