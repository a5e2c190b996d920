package forum

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func ref[T any](v T) *T { return &v }

// TestMembersWriteFreeMembersReadAnnouncementsOnly: subscribers post,
// reply and react; a free member is refused all of it, lists only the
// announcements and cannot open a question; only admins announce, and an
// announcement stays pinned for seven days.
func TestMembersWriteFreeMembersReadAnnouncementsOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		ada, bob, fred, boss := f.member("Ada Lovelace"), f.member("Bob Builder"), f.free("Free Fred"), f.admin("Olga")

		q := f.post(ada, CategoryQuestion, "How do agents remember?", "I need **memory** across sessions.")
		if q.Author.Level != "Explorer" || !q.Mine || q.Pinned || q.Body != "I need **memory** across sessions." {
			t.Fatalf("posted thread: %+v", q)
		}
		if _, err := f.svc.Create(ctx, fred, ThreadInput{Category: CategoryGeneral, Title: "Hi", Body: "Hello"}); !errs.Is(err, errs.Forbidden) {
			t.Fatalf("a free member posts: %v", err)
		}
		if _, err := f.svc.Create(ctx, bob, ThreadInput{Category: CategoryAnnouncement, Title: "Hi", Body: "Hello"}); err != ErrAnnouncementOnly {
			t.Fatalf("a member announces: %v", err)
		}
		if _, err := f.svc.AddReply(ctx, fred, q.ID, ReplyInput{Body: "me too"}); err != ErrForMembers {
			t.Fatalf("a free member replies: %v", err)
		}
		if _, err := f.svc.ReactThread(ctx, fred, q.ID, true); err != ErrForMembers {
			t.Fatalf("a free member reacts: %v", err)
		}
		if _, err := f.svc.Get(ctx, fred, q.ID); err != ErrForMembers {
			t.Fatalf("a free member opens a question: %v", err)
		}
		if _, err := f.svc.ReactThread(ctx, ada, q.ID, true); err != ErrOwnPost {
			t.Fatalf("reacting to one's own thread: %v", err)
		}
		for range 2 {
			d, err := f.svc.ReactThread(ctx, bob, q.ID, true)
			if err != nil || d.Reactions != 1 || !d.Reacted {
				t.Fatalf("react: %v %+v", err, d)
			}
		}

		f.clock.Advance(time.Minute)
		news := f.post(boss, CategoryAnnouncement, "Live call moved", "Thursday at 18:00.")
		if !news.Pinned {
			t.Fatal("a new announcement is not pinned")
		}
		list, err := f.svc.List(ctx, fred, ListQuery{})
		if err != nil || len(list.Threads) != 1 || list.Threads[0].ID != news.ID || list.CanPost {
			t.Fatalf("list as a free member: %v %+v", err, list)
		}
		if d, err := f.svc.Get(ctx, fred, news.ID); err != nil || d.CanReply {
			t.Fatalf("a free member reads an announcement: %v %+v", err, d)
		}
		f.clock.Advance(time.Minute)
		f.reply(bob, q.ID, "Try a vector store.")
		list, _ = f.svc.List(ctx, ada, ListQuery{})
		if len(list.Threads) != 2 || list.Threads[0].ID != news.ID || list.Threads[1].ID != q.ID || list.Threads[1].ReplyCount != 1 {
			t.Fatalf("the pinned announcement leads, then the latest activity: %+v", list.Threads)
		}
		f.clock.Advance(AnnouncementPin)
		list, _ = f.svc.List(ctx, ada, ListQuery{})
		if list.Threads[0].ID != q.ID || list.Threads[1].Pinned {
			t.Fatalf("an announcement still pinned after seven days: %+v", list.Threads)
		}
	})
}

// TestBadInputIsRefusedWithItsFieldAndNothingWritten.
func TestBadInputIsRefusedWithItsFieldAndNothingWritten(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		ada := f.member("Ada Lovelace")
		for _, c := range []struct {
			in    ThreadInput
			field string
		}{
			{ThreadInput{Category: "rant", Title: "T", Body: "B"}, "category"},
			{ThreadInput{Category: "general", Title: "  ", Body: "B"}, "title"},
			{ThreadInput{Category: "general", Title: strings.Repeat("t", MaxTitle+1), Body: "B"}, "title"},
			{ThreadInput{Category: "general", Title: "line\nbreak", Body: "B"}, "title"},
			{ThreadInput{Category: "general", Title: "T", Body: strings.Repeat("b", MaxBody+1)}, "body"},
			{ThreadInput{Category: "general", Title: "T", Body: "bad \x00 byte"}, "body"},
		} {
			_, err := f.svc.Create(ctx, ada, c.in)
			wantField(t, err, c.field)
		}
		if n := f.count(`SELECT COUNT(*) FROM forum_threads`); n != 0 {
			t.Fatalf("%d threads written by refused posts", n)
		}
		ok := f.post(ada, CategoryGeneral, strings.Repeat("t", MaxTitle), strings.Repeat("b", MaxBody))
		_, err := f.svc.AddReply(ctx, ada, ok.ID, ReplyInput{Body: strings.Repeat("r", MaxReply+1)})
		wantField(t, err, "body")
		_, err = f.svc.List(ctx, ada, ListQuery{Cursor: "not-a-cursor"})
		wantField(t, err, "cursor")
		_, err = f.svc.List(ctx, ada, ListQuery{Category: "nope"})
		wantField(t, err, "category")
		_, err = f.svc.Update(ctx, ada, ok.ID, ThreadPatch{})
		wantCode(t, err, errs.Invalid)
		if n := f.count(`SELECT COUNT(*) FROM forum_replies`); n != 0 {
			t.Fatalf("%d replies written by refused posts", n)
		}
	})
}

// TestNoticesReachTheRightMembersOnly: mentions, replies to my thread and
// to threads I replied in, accepted answers, reactions and announcements
// are told to the right members: never the author, never a member who
// muted the thread, never a free member but for announcements, and a
// mention of someone outside the tribe does nothing.
func TestNoticesReachTheRightMembersOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		ada, bob, carol, dave := f.member("Ada Lovelace"), f.member("Bob Builder"), f.member("Carol"), f.member("Dave")
		f.free("Free Fred")
		boss := f.admin("Olga")
		f.user("Ada") // a shorter name inside "Ada Lovelace" is not mentioned by it

		q := f.post(ada, CategoryQuestion, "Memory for agents?", "Ideas, @Bob Builder? And @free fred, @Nobody, @Ada Lovelace, @Bobby.")
		got := f.rec.take()
		if want := []string{"Bob Builder:mention"}; !slices.Equal(f.told(got), want) {
			t.Fatalf("told of the question: %v, want %v", f.told(got), want)
		}
		if n := got[0]; n.Link != "/members/community/"+q.ID || n.Title != "Ada Lovelace mentioned you in “Memory for agents?”" || n.GroupKey != "" {
			t.Fatalf("the mention: %+v", n)
		}

		f.clock.Advance(time.Second)
		r1 := f.reply(bob, q.ID, "A vector store, see @Carol's notes.")
		if want := []string{"Carol:mention", "Ada Lovelace:reply"}; !slices.Equal(f.told(f.rec.take()), want) {
			t.Fatalf("told of Bob's reply: want %v", want)
		}
		f.clock.Advance(time.Second)
		f.reply(dave, q.ID, "Following.")
		if got := f.told(f.rec.take()); !slices.Equal(got, []string{"Ada Lovelace:reply", "Bob Builder:reply"}) {
			t.Fatalf("told of Dave's reply: %v", got)
		}
		if err := f.svc.Mute(ctx, dave, q.ID, true); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.Mute(ctx, ada, q.ID, true); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.Mute(ctx, ada, q.ID, false); err != nil {
			t.Fatal(err)
		}
		r3 := f.reply(carol, q.ID, "Ping @Dave and @Bob Builder.")
		got = f.rec.take()
		if want := []string{"Bob Builder:mention", "Ada Lovelace:reply"}; !slices.Equal(f.told(got), want) {
			t.Fatalf("told of Carol's reply (Dave muted it): %v, want %v", f.told(got), want)
		}
		if got[1].Link != "/members/community/"+q.ID+"#reply-"+r3.ID {
			t.Fatalf("a reply's link: %s", got[1].Link)
		}
		// An edit tells only whom it newly mentions.
		if _, err := f.svc.UpdateReply(ctx, carol, r3.ID, ReplyInput{Body: "Ping @Dave, @Bob Builder and @Ada Lovelace."}); err != nil {
			t.Fatal(err)
		}
		if got := f.told(f.rec.take()); !slices.Equal(got, []string{"Ada Lovelace:mention"}) {
			t.Fatalf("told of an edited reply: %v", got)
		}
		if _, err := f.svc.Update(ctx, ada, q.ID, ThreadPatch{Body: ref("Ideas, @Bob Builder and @Carol?")}); err != nil {
			t.Fatal(err)
		}
		if got := f.told(f.rec.take()); !slices.Equal(got, []string{"Carol:mention"}) {
			t.Fatalf("told of an edited thread: %v", got)
		}

		if _, err := f.svc.Accept(ctx, bob, q.ID, AcceptInput{ReplyID: &r1.ID}); err != ErrNotAsker {
			t.Fatalf("another member accepts: %v", err)
		}
		d, err := f.svc.Accept(ctx, ada, q.ID, AcceptInput{ReplyID: &r1.ID})
		if err != nil || d.AcceptedReplyID == nil || *d.AcceptedReplyID != r1.ID || !d.Replies[0].Accepted {
			t.Fatalf("accept: %v %+v", err, d)
		}
		if got := f.told(f.rec.take()); !slices.Equal(got, []string{"Bob Builder:accepted"}) {
			t.Fatalf("told of the accepted answer: %v", got)
		}
		if want := "Bob Builder: Accepted answer to “Memory for agents?” (/members/community/" + q.ID + "#reply-" + r1.ID + ")"; len(f.suggested) != 1 || f.suggested[0] != want {
			t.Fatalf("contributions put forward: %q, want %q", f.suggested, want)
		}
		if _, err := f.svc.Accept(ctx, ada, q.ID, AcceptInput{ReplyID: &r1.ID}); err != nil {
			t.Fatal(err)
		}
		if got := f.rec.take(); len(got) != 0 {
			t.Fatalf("accepting the same answer again told %v", f.told(got))
		}
		if _, err := f.svc.Accept(ctx, ada, q.ID, AcceptInput{ReplyID: ref("nope")}); err == nil {
			t.Fatal("accepting a reply of no thread")
		}

		if _, err := f.svc.ReactReply(ctx, carol, r1.ID, true); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.ReactThread(ctx, carol, q.ID, true); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.ReactThread(ctx, carol, q.ID, true); err != nil {
			t.Fatal(err)
		}
		got = f.rec.take()
		if want := []string{"Bob Builder:reaction", "Ada Lovelace:reaction"}; !slices.Equal(f.told(got), want) {
			t.Fatalf("told of reactions: %v, want %v", f.told(got), want)
		}
		if got[0].GroupKey != "reaction:"+q.ID || got[1].GroupKey != "reaction:"+q.ID {
			t.Fatalf("reactions are not grouped per thread: %+v", got)
		}

		f.post(boss, CategoryAnnouncement, "New cohort", "Starts Monday.")
		got = f.rec.take()
		told := f.told(got)
		slices.Sort(told)
		want := []string{"Ada Lovelace:announcement", "Ada:announcement", "Bob Builder:announcement", "Carol:announcement", "Dave:announcement", "Free Fred:announcement"}
		if !slices.Equal(told, want) {
			t.Fatalf("told of the announcement: %v, want %v", told, want)
		}
	})
}

// TestModerationHidesFromAllButAdminsAndTheAuthor: a hidden thread or
// reply is gone for other members (list, thread, search), its author reads
// the admin's reason; reports reach the admins and hiding resolves them.
func TestModerationHidesFromAllButAdminsAndTheAuthor(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		ada, bob, boss := f.member("Ada Lovelace"), f.member("Bob Builder"), f.admin("Olga")
		th := f.post(ada, CategoryGeneral, "Selling courses", "Buy my course.")
		other := f.post(bob, CategoryGeneral, "Embeddings", "Which model?")
		r := f.reply(bob, other.ID, "Spammy zeppelin link.")

		if err := f.svc.Report(ctx, bob, ReportInput{ThreadID: th.ID, Reason: "Spam"}); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.Report(ctx, bob, ReportInput{ThreadID: th.ID, Reason: "Spam again"}); err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(time.Second)
		if err := f.svc.Report(ctx, ada, ReportInput{ReplyID: r.ID, Reason: "Spam link"}); err != nil {
			t.Fatal(err)
		}
		wantField(t, f.svc.Report(ctx, ada, ReportInput{ThreadID: th.ID, ReplyID: r.ID, Reason: "x"}), "thread_id")
		wantField(t, f.svc.Report(ctx, ada, ReportInput{ThreadID: other.ID}), "reason")
		if _, err := f.svc.Reports(ctx, bob); err != ErrForAdmins {
			t.Fatalf("a member reads reports: %v", err)
		}
		reps, err := f.svc.Reports(ctx, boss)
		if err != nil || len(reps.Reports) != 2 || reps.Reports[0].ReporterName != "Bob Builder" || reps.Reports[1].ReplyID == nil {
			t.Fatalf("reports: %v %+v", err, reps)
		}

		if _, err := f.svc.ModerateThread(ctx, bob, th.ID, Moderation{Hidden: ref(true), Reason: ref("Spam")}); err != ErrForAdmins {
			t.Fatalf("a member hides: %v", err)
		}
		_, err = f.svc.ModerateThread(ctx, boss, th.ID, Moderation{Hidden: ref(true)})
		wantField(t, err, "reason")
		if _, err := f.svc.ModerateThread(ctx, boss, th.ID, Moderation{Hidden: ref(true), Reason: ref("Selling is not allowed")}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.ModerateReply(ctx, boss, r.ID, Moderation{Hidden: ref(true), Reason: ref("Link spam")}); err != nil {
			t.Fatal(err)
		}
		if reps, _ := f.svc.Reports(ctx, boss); len(reps.Reports) != 0 {
			t.Fatalf("hiding left reports open: %+v", reps)
		}

		if _, err := f.svc.Get(ctx, bob, th.ID); !errs.Is(err, errs.NotFound) {
			t.Fatalf("another member opens a hidden thread: %v", err)
		}
		if list, _ := f.svc.List(ctx, bob, ListQuery{}); len(list.Threads) != 1 || list.Threads[0].ID != other.ID || list.Threads[0].ReplyCount != 0 {
			t.Fatalf("another member's list: %+v", list.Threads)
		}
		mine, err := f.svc.Get(ctx, ada, th.ID)
		if err != nil || !mine.Hidden || mine.HiddenReason == nil || *mine.HiddenReason != "Selling is not allowed" || mine.CanReply {
			t.Fatalf("the author reads the hidden thread: %v %+v", err, mine)
		}
		if _, err := f.svc.AddReply(ctx, bob, th.ID, ReplyInput{Body: "x"}); !errs.Is(err, errs.NotFound) {
			t.Fatalf("replying to a hidden thread: %v", err)
		}
		seen, _ := f.svc.Get(ctx, ada, other.ID)
		if len(seen.Replies) != 0 {
			t.Fatalf("another member sees a hidden reply: %+v", seen.Replies)
		}
		own, _ := f.svc.Get(ctx, bob, other.ID)
		if len(own.Replies) != 1 || own.Replies[0].HiddenReason == nil || *own.Replies[0].HiddenReason != "Link spam" {
			t.Fatalf("the reply's author: %+v", own.Replies)
		}
		if list, _ := f.svc.List(ctx, ada, ListQuery{Q: "zeppelin"}); len(list.Threads) != 0 {
			t.Fatalf("search finds a hidden reply for another member: %+v", list.Threads)
		}
		if list, _ := f.svc.List(ctx, boss, ListQuery{Q: "zeppelin"}); len(list.Threads) != 1 {
			t.Fatalf("search of an admin misses a hidden reply: %+v", list.Threads)
		}
		admin, _ := f.svc.List(ctx, boss, ListQuery{})
		hidden := slices.IndexFunc(admin.Threads, func(t Thread) bool { return t.ID == th.ID })
		if len(admin.Threads) != 2 || hidden < 0 || admin.Threads[hidden].HiddenReason == nil {
			t.Fatalf("the admin's list: %+v", admin.Threads)
		}
		if _, err := f.svc.ModerateThread(ctx, boss, other.ID, Moderation{Pinned: ref(true)}); err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(30 * 24 * time.Hour)
		if d, _ := f.svc.Get(ctx, bob, other.ID); !d.Pinned {
			t.Fatal("an admin's pin ended by itself")
		}
	})
}

// TestSearchFindsThreadsByTheirRepliesWithFilters.
func TestSearchFindsThreadsByTheirRepliesWithFilters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		ada, bob := f.member("Ada Lovelace"), f.member("Bob Builder")
		q := f.post(ada, CategoryQuestion, "Which database?", "For a small agent.")
		w := f.post(bob, CategoryWin, "Shipped my agent", "It remembers users with PostgreSQL.")
		open := f.post(bob, CategoryQuestion, "Hosting agents?", "Where do you host?")
		f.reply(bob, q.ID, "SQLite with FTS5 indexes works great.")

		for _, c := range []struct {
			in   ListQuery
			want []string
		}{
			{ListQuery{Q: "indexes"}, []string{q.ID}},      // a reply's words, stemmed
			{ListQuery{Q: "the database"}, []string{q.ID}}, // stop words dropped
			{ListQuery{Q: "agent"}, []string{w.ID, open.ID, q.ID}},
			{ListQuery{Q: "agent", Category: CategoryWin}, []string{w.ID}},
			{ListQuery{Unanswered: true}, []string{open.ID}},
			{ListQuery{Q: `"; DROP TABLE forum_threads; -- NEAR(*)`}, []string{}},
		} {
			list, err := f.svc.List(ctx, ada, c.in)
			if err != nil {
				t.Fatalf("%+v: %v", c.in, err)
			}
			ids := []string{}
			for _, th := range list.Threads {
				ids = append(ids, th.ID)
			}
			slices.Sort(ids)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(ids, want) {
				t.Errorf("%+v: found %v, want %v", c.in, ids, want)
			}
		}
		list, _ := f.svc.List(ctx, ada, ListQuery{Q: "database"})
		if len(list.Threads) != 1 || list.Threads[0].ID != q.ID {
			t.Fatalf("title match: %+v", list.Threads)
		}
	})
}

// TestSearchRanksARareWordAboveACommonOneRepeated: the knowledge base's
// ranking rule on both engines. With OR'd terms, a post repeating a word
// most posts hold must not beat the one post holding the rare word the
// search is about (ts_rank_cd alone ranks it first on PostgreSQL).
func TestSearchRanksARareWordAboveACommonOneRepeated(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		ada, bob := f.member("Ada Lovelace"), f.member("Bob Builder")
		for i := range 8 {
			f.post(bob, CategoryGeneral, fmt.Sprintf("Agents, week %d", i), "Agents agents agents: my agents this week.")
		}
		rare := f.post(ada, CategoryQuestion, "Tracing question", "How do you trace an agent with OpenTelemetry?")
		list, err := f.svc.List(ctx, ada, ListQuery{Q: "agents opentelemetry"})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Threads) != 9 || list.Threads[0].ID != rare.ID {
			first := ""
			if len(list.Threads) > 0 {
				first = list.Threads[0].Title
			}
			t.Fatalf("%d threads, first %q; want the OpenTelemetry question first of 9", len(list.Threads), first)
		}
	})
}

// TestAuthorsEditAndDeleteTheirOwnOnly.
func TestAuthorsEditAndDeleteTheirOwnOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		ada, bob, boss := f.member("Ada Lovelace"), f.member("Bob Builder"), f.admin("Olga")
		th := f.post(ada, CategoryQuestion, "Typo", "Bodyy")
		r := f.reply(bob, th.ID, "Answer")
		if _, err := f.svc.Update(ctx, bob, th.ID, ThreadPatch{Title: ref("Mine now")}); err != ErrNotAuthor {
			t.Fatalf("another member edits: %v", err)
		}
		if _, err := f.svc.Update(ctx, boss, th.ID, ThreadPatch{Title: ref("Admin's")}); err != ErrNotAuthor {
			t.Fatalf("an admin edits: %v", err)
		}
		if _, err := f.svc.Update(ctx, ada, th.ID, ThreadPatch{Category: ref(CategoryAnnouncement)}); err != ErrAnnouncementOnly {
			t.Fatalf("a member turns a thread into an announcement: %v", err)
		}
		f.clock.Advance(time.Minute)
		d, err := f.svc.Update(ctx, ada, th.ID, ThreadPatch{Body: ref("Body")})
		if err != nil || d.Body != "Body" || d.EditedAt == nil || !d.EditedAt.Equal(f.clock.Now().Truncate(time.Millisecond)) || d.Title != "Typo" {
			t.Fatalf("edit: %v %+v", err, d)
		}
		if _, err := f.svc.UpdateReply(ctx, ada, r.ID, ReplyInput{Body: "x"}); err != ErrNotAuthor {
			t.Fatalf("another member edits a reply: %v", err)
		}
		if got, err := f.svc.UpdateReply(ctx, bob, r.ID, ReplyInput{Body: "Better answer"}); err != nil || got.EditedAt == nil || got.Body != "Better answer" {
			t.Fatalf("edit a reply: %v %+v", err, got)
		}
		if err := f.svc.DeleteReply(ctx, ada, r.ID); err != ErrNotAuthorOrAdmin {
			t.Fatalf("the asker deletes another's reply: %v", err)
		}
		if _, err := f.svc.Accept(ctx, ada, th.ID, AcceptInput{ReplyID: &r.ID}); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.DeleteReply(ctx, bob, r.ID); err != nil {
			t.Fatal(err)
		}
		if d, _ := f.svc.Get(ctx, ada, th.ID); d.AcceptedReplyID != nil || len(d.Replies) != 0 {
			t.Fatalf("after the accepted reply's delete: %+v", d)
		}
		if err := f.svc.Delete(ctx, bob, th.ID); err != ErrNotAuthorOrAdmin {
			t.Fatalf("another member deletes: %v", err)
		}
		if err := f.svc.Delete(ctx, boss, th.ID); err != nil {
			t.Fatal(err)
		}
		if n := f.count(`SELECT COUNT(*) FROM forum_threads`); n != 0 {
			t.Fatal("the thread is still there")
		}
		if _, err := f.svc.Get(ctx, ada, th.ID); !errs.Is(err, errs.NotFound) {
			t.Fatalf("a deleted thread: %v", err)
		}
	})
}

// TestWritingIsLimitedPerMemberPerHour: the 11th thread within the hour
// and the 31st reply are refused with when to try again.
func TestWritingIsLimitedPerMemberPerHour(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		ada, bob := f.member("Ada Lovelace"), f.member("Bob Builder")
		var last *ThreadDetail
		for i := range ThreadsPerHour {
			last = f.post(ada, CategoryGeneral, fmt.Sprintf("Thread %d", i), "Body")
		}
		_, err := f.svc.Create(ctx, ada, ThreadInput{Category: CategoryGeneral, Title: "One more", Body: "Body"})
		var e *errs.Error
		if !errs.Is(err, errs.RateLimited) || !asErr(err, &e) || e.RetryAfter <= 0 || e.RetryAfter > 6*time.Minute {
			t.Fatalf("the 11th thread: %v", err)
		}
		f.post(bob, CategoryGeneral, "Bob's own", "Body") // another member's allowance is their own
		for i := range RepliesPerHour {
			f.reply(bob, last.ID, fmt.Sprintf("Reply %d", i))
		}
		if _, err := f.svc.AddReply(ctx, bob, last.ID, ReplyInput{Body: "more"}); !errs.Is(err, errs.RateLimited) {
			t.Fatalf("the 31st reply: %v", err)
		}
		f.clock.Advance(6 * time.Minute)
		f.post(ada, CategoryGeneral, "After a while", "Body")
		if n := f.count(`SELECT COUNT(*) FROM forum_replies`); n != RepliesPerHour {
			t.Fatalf("%d replies stored", n)
		}
	})
}

// TestListPagesByCursor: pages of PageSize threads, newest activity first,
// with no thread twice or left out.
func TestListPagesByCursor(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		members := []string{}
		var want []string
		for i := range 25 {
			if i%10 == 0 {
				members = append(members, f.member(fmt.Sprintf("Member %d", i)).UserID)
			}
			th := f.post(accessOf(members[len(members)-1]), CategoryGeneral, fmt.Sprintf("T%d", i), "B")
			want = append([]string{th.ID}, want...)
			if i%3 != 0 {
				f.clock.Advance(time.Second) // some share their time: the id orders them
			}
		}
		var got []string
		cursor := ""
		for pages := 0; ; pages++ {
			list, err := f.svc.List(ctx, accessOf(members[0]), ListQuery{Cursor: cursor})
			if err != nil || pages > 3 {
				t.Fatalf("page %d: %v", pages, err)
			}
			for _, th := range list.Threads {
				got = append(got, th.ID)
			}
			if list.NextCursor == nil {
				break
			}
			cursor = *list.NextCursor
		}
		if len(got) != 25 || len(want) != 25 {
			t.Fatalf("%d threads over the pages, want 25", len(got))
		}
		seen := map[string]bool{}
		for _, id := range got {
			if seen[id] {
				t.Fatalf("%s twice", id)
			}
			seen[id] = true
		}
	})
}

// TestHighlightsForTheDigest: the busiest shown threads since a time and
// the questions nobody answered, neither hidden ones nor announcements.
func TestHighlightsForTheDigest(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		ada, bob, boss := f.member("Ada Lovelace"), f.member("Bob Builder"), f.admin("Olga")
		old := f.post(ada, CategoryGeneral, "Old news", "Before.")
		f.reply(bob, old.ID, "Old reply")
		f.clock.Advance(8 * 24 * time.Hour)
		since := f.clock.Now()
		f.clock.Advance(time.Minute)
		busy := f.post(ada, CategoryWin, "Shipped", "It works.")
		quiet := f.post(bob, CategoryGeneral, "Quiet one", "Nobody answers.")
		open := f.post(bob, CategoryQuestion, "Open question", "Anyone?")
		hidden := f.post(bob, CategoryQuestion, "Spam question", "Buy.")
		f.post(boss, CategoryAnnouncement, "News", "Monday.")
		f.reply(bob, busy.ID, "Congrats")
		f.reply(boss, busy.ID, "Well done")
		f.reply(ada, quiet.ID, "Hi")
		if _, err := f.svc.ModerateThread(ctx, boss, hidden.ID, Moderation{Hidden: ref(true), Reason: ref("Spam")}); err != nil {
			t.Fatal(err)
		}
		top, unanswered, err := Highlights(ctx, db, since, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(top) != 2 || top[0].ID != busy.ID || top[0].Replies != 2 || top[1].ID != quiet.ID || top[0].Link != "/members/community/"+busy.ID {
			t.Fatalf("top threads: %+v", top)
		}
		if len(unanswered) != 1 || unanswered[0].ID != open.ID {
			t.Fatalf("unanswered questions: %+v", unanswered)
		}
	})
}

// TestMentionsLookUpOnlyTheNamesAfterAt: a post's mentions read only the
// members whose names start with a word right after an "@", never the
// whole directory; a member named without "@" is neither read nor told,
// and an "@" before a name nobody has does nothing.
func TestMentionsLookUpOnlyTheNamesAfterAt(t *testing.T) {
	if got, want := mentionKeys("Hi @Ada Lovelace, @carol's notes, @ada again, mail bob@Example.com, @ and @@Zed"),
		[]string{"Ada", "carol", "Example", "Zed"}; !slices.Equal(got, want) {
		t.Fatalf("keys %q, want %q", got, want)
	}
	many := strings.Repeat("@x1 ", 3*maxMentions)
	if got := mentionKeys(many); len(got) != 1 {
		t.Fatalf("keys of a body full of the same mention: %q", got)
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ada, bob := f.member("Ada Lovelace"), f.member("Bob Builder")
		f.member("Carol")
		f.member("Adam Smith")
		for i := range 30 {
			f.member(fmt.Sprintf("Member %02d", i))
		}
		var asked [][]string
		var read []string
		lookup := f.svc.lookup
		f.svc.lookup = func(ctx context.Context, keys []string) ([]named, error) {
			asked = append(asked, keys)
			got, err := lookup(ctx, keys)
			for _, m := range got {
				read = append(read, m.name)
			}
			return got, err
		}

		f.post(ada, CategoryQuestion, "Who knows?", "Bob Builder and Carol, ask @Adam Smith. @Nobody Here?")
		if want := [][]string{{"Adam", "Nobody"}}; !slices.EqualFunc(asked, want, slices.Equal) {
			t.Fatalf("looked up %q, want %q", asked, want)
		}
		if !slices.Equal(read, []string{"Adam Smith"}) {
			t.Fatalf("members read: %q, want only Adam Smith", read)
		}
		if got := f.told(f.rec.take()); !slices.Equal(got, []string{"Adam Smith:mention"}) {
			t.Fatalf("told: %v", got)
		}

		// "@Ada" starts two names; the longer one written wins, and a post
		// without "@" looks nothing up.
		asked, read = nil, nil
		q := f.post(bob, CategoryGeneral, "Thanks", "Thanks @ada lovelace!")
		if got := f.told(f.rec.take()); !slices.Equal(got, []string{"Ada Lovelace:mention"}) {
			t.Fatalf("told: %v", got)
		}
		slices.Sort(read)
		if !slices.Equal(read, []string{"Ada Lovelace", "Adam Smith"}) {
			t.Fatalf("members read for @ada: %q", read)
		}
		asked = nil
		f.reply(ada, q.ID, "You are welcome, Bob Builder.")
		if len(asked) != 0 {
			t.Fatalf("a reply without @ looked up %q", asked)
		}
		if got := f.told(f.rec.take()); !slices.Equal(got, []string{"Bob Builder:reply"}) {
			t.Fatalf("told of the reply: %v", got)
		}
	})
}
