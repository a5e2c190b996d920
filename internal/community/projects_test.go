package community

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/clock/clocktest"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func admin(id string) access.Viewer { return access.Viewer{UserID: id, Admin: true} }

func freeMember(id string) access.Viewer { return access.Viewer{UserID: id} }

func sampleProject() ProjectInput {
	return ProjectInput{Title: "Agent memory kit", Link: "https://example.com/kit",
		Description: "A small memory layer for agents.", RepoURL: "https://github.com/ada/kit", Tags: []string{"Go", " agents ", "go"}}
}

func share(t *testing.T, db *store.DB, v access.Viewer, now time.Time) *Project {
	t.Helper()
	p, err := CreateProject(context.Background(), db, v, sampleProject(), now)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func ref[T any](v T) *T { return &v }

// TestSharedProjectIsStoredCleanAndListedNewestFirst: a subscriber's
// project is trimmed, its tags lowercased and de-duplicated, and the board
// lists it for every member, newest first.
func TestSharedProjectIsStoredCleanAndListedNewestFirst(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.New()
		ada := subscriber(addUser(t, db, "ada@example.com"))
		in := sampleProject()
		in.Title = "  Agent memory kit  "
		first, err := CreateProject(ctx, db, ada, in, c.Now())
		if err != nil {
			t.Fatal(err)
		}
		if first.Title != "Agent memory kit" || strings.Join(first.Tags, ",") != "go,agents" || !first.Mine ||
			first.RepoURL == nil || first.AuthorName != "ada" || first.Hidden || first.HiddenReason != nil {
			t.Fatalf("stored project: %+v", first)
		}
		c.Advance(time.Minute)
		second := share(t, db, ada, c.Now())

		free := freeMember(addUser(t, db, "free@example.com"))
		list, err := ListProjects(ctx, db, free, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 || list[0].ID != second.ID || list[1].ID != first.ID || list[0].Mine {
			t.Fatalf("board as a free member: %+v", list)
		}
		mine, err := ListProjects(ctx, db, free, free.UserID)
		if err != nil || len(mine) != 0 {
			t.Fatalf("a member's own projects: %v %+v", err, mine)
		}
	})
}

// TestBadProjectsAreRefusedWithTheirFieldAndNothingWritten: empty and
// oversized fields, links that are not http(s), too many tags, and free
// members posting are all refused, and no row is written.
func TestBadProjectsAreRefusedWithTheirFieldAndNothingWritten(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := clocktest.New().Now()
		ada := subscriber(addUser(t, db, "ada@example.com"))
		cases := []struct {
			name  string
			edit  func(*ProjectInput)
			field string
		}{
			{"empty title", func(p *ProjectInput) { p.Title = "  " }, "title"},
			{"invisible title", func(p *ProjectInput) { p.Title = "\u200b" }, "title"},
			{"long title", func(p *ProjectInput) { p.Title = strings.Repeat("a", MaxProjectTitle+1) }, "title"},
			{"control in title", func(p *ProjectInput) { p.Title = "a\x07b" }, "title"},
			{"no link", func(p *ProjectInput) { p.Link = "" }, "link"},
			{"javascript link", func(p *ProjectInput) { p.Link = "javascript:alert(1)" }, "link"},
			{"ftp link", func(p *ProjectInput) { p.Link = "ftp://example.com/x" }, "link"},
			{"link with password", func(p *ProjectInput) { p.Link = "https://u:p@example.com/" }, "link"},
			{"empty description", func(p *ProjectInput) { p.Description = "" }, "description"},
			{"long description", func(p *ProjectInput) { p.Description = strings.Repeat("é", MaxProjectDescription+1) }, "description"},
			{"data repository", func(p *ProjectInput) { p.RepoURL = "data:text/html,x" }, "repo_url"},
			{"too many tags", func(p *ProjectInput) { p.Tags = []string{"a", "b", "c", "d", "e", "f"} }, "tags"},
			{"long tag", func(p *ProjectInput) { p.Tags = []string{strings.Repeat("t", MaxProjectTag+1)} }, "tags"},
			{"comma in tag", func(p *ProjectInput) { p.Tags = []string{"a,b"} }, "tags"},
		}
		for _, tc := range cases {
			in := sampleProject()
			tc.edit(&in)
			_, err := CreateProject(ctx, db, ada, in, now)
			var e *errs.Error
			if !errors.As(err, &e) || e.Code != errs.Invalid || e.Field != tc.field {
				t.Errorf("%s: %v, want invalid %s", tc.name, err, tc.field)
			}
		}
		_, err := CreateProject(ctx, db, freeMember(addUser(t, db, "free@example.com")), sampleProject(), now)
		wantErr(t, err, ErrProjectsForMembers)
		if n := count(t, db, `SELECT COUNT(*) FROM projects`); n != 0 {
			t.Fatalf("%d projects written by refused requests", n)
		}
	})
}

// TestOnlyTheAuthorEditsAndAdminsModerate: another member cannot edit or
// delete; an admin hides with a reason, after which the project is
// invisible to others and stops counting, while the author still sees it
// with the reason; showing it again restores it.
func TestOnlyTheAuthorEditsAndAdminsModerate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := clocktest.New().Now()
		ada := subscriber(addUser(t, db, "ada@example.com"))
		bob := subscriber(addUser(t, db, "bob@example.com"))
		boss := admin(addUser(t, db, "boss@example.com"))
		p := share(t, db, ada, now)

		_, err := UpdateProject(ctx, db, bob, p.ID, ProjectPatch{Title: ref("Mine now")}, now)
		wantErr(t, err, ErrNotProjectAuthor)
		_, err = UpdateProject(ctx, db, boss, p.ID, ProjectPatch{Title: ref("Admin edit")}, now)
		wantErr(t, err, ErrNotProjectAuthor)
		_, err = DeleteProject(ctx, db, bob, p.ID)
		wantErr(t, err, ErrNotProjectAuthor)
		_, err = UpdateProject(ctx, db, ada, p.ID, ProjectPatch{Hidden: ref(true), HiddenReason: ref("x")}, now)
		wantErr(t, err, ErrHideForAdmins)
		_, err = UpdateProject(ctx, db, boss, p.ID, ProjectPatch{Hidden: ref(true)}, now)
		wantInvalid(t, err, "hidden_reason", "Reason is required.")
		_, err = UpdateProject(ctx, db, ada, p.ID, ProjectPatch{Link: ref("mailto:ada@example.com")}, now)
		wantCode(t, err, errs.Invalid)
		_, err = UpdateProject(ctx, db, ada, p.ID, ProjectPatch{}, now)
		wantCode(t, err, errs.Invalid)

		edited, err := UpdateProject(ctx, db, ada, p.ID, ProjectPatch{Title: ref("Kit v2"), RepoURL: ref(""), Tags: &[]string{}}, now)
		if err != nil || edited.Title != "Kit v2" || edited.RepoURL != nil || len(edited.Tags) != 0 || edited.Description != p.Description {
			t.Fatalf("author's edit: %v %+v", err, edited)
		}
		if n, _ := ProjectsShared(ctx, db, ada.UserID); n != 1 {
			t.Fatalf("projects shared before hiding: %d", n)
		}

		hidden, err := UpdateProject(ctx, db, boss, p.ID, ProjectPatch{Hidden: ref(true), HiddenReason: ref(" Spam link ")}, now)
		if err != nil || !hidden.Hidden || hidden.HiddenReason == nil || *hidden.HiddenReason != "Spam link" {
			t.Fatalf("hidden: %v %+v", err, hidden)
		}
		if list, _ := ListProjects(ctx, db, bob, ""); len(list) != 0 {
			t.Fatalf("another member still sees the hidden project: %+v", list)
		}
		_, err = GetProject(ctx, db, bob, p.ID)
		wantCode(t, err, errs.NotFound)
		_, err = ListComments(ctx, db, bob, p.ID)
		wantCode(t, err, errs.NotFound)
		_, err = SetReaction(ctx, db, bob, p.ID, true, now)
		wantCode(t, err, errs.NotFound)
		_, err = AddComment(ctx, db, bob, p.ID, CommentInput{Body: "hi"}, now)
		wantCode(t, err, errs.NotFound)
		_, err = DeleteProject(ctx, db, bob, p.ID)
		wantCode(t, err, errs.NotFound)
		own, err := ListProjects(ctx, db, ada, "")
		if err != nil || len(own) != 1 || !own[0].Hidden || own[0].HiddenReason == nil || *own[0].HiddenReason != "Spam link" {
			t.Fatalf("the author's view of the hidden project: %v %+v", err, own)
		}
		if n, _ := ProjectsShared(ctx, db, ada.UserID); n != 0 {
			t.Fatalf("a hidden project still counts: %d", n)
		}
		if since, _ := ProjectsSince(ctx, db, now.Add(-time.Hour)); len(since) != 0 {
			t.Fatalf("a hidden project is listed as new: %+v", since)
		}

		shown, err := UpdateProject(ctx, db, boss, p.ID, ProjectPatch{Hidden: ref(false)}, now)
		if err != nil || shown.Hidden || shown.HiddenReason != nil {
			t.Fatalf("shown again: %v %+v", err, shown)
		}
		if n, _ := ProjectsShared(ctx, db, ada.UserID); n != 1 {
			t.Fatalf("projects shared after showing: %d", n)
		}
		if _, err := DeleteProject(ctx, db, boss, p.ID); err != nil {
			t.Fatal(err)
		}
		if n, _ := ProjectsShared(ctx, db, ada.UserID); n != 0 {
			t.Fatalf("a deleted project still counts: %d", n)
		}
	})
}

// TestReactionsAreOnePerMemberUnderConcurrency: 30 members reacting at
// once, each twice, count 30; taking one back counts 29; the author cannot
// react to their own project and free members cannot react at all.
func TestReactionsAreOnePerMemberUnderConcurrency(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := clocktest.New().Now()
		ada := subscriber(addUser(t, db, "ada@example.com"))
		p := share(t, db, ada, now)
		const n = 30
		ids := make([]string, n)
		for i := range ids {
			ids[i] = addUser(t, db, fmt.Sprintf("fan%d@example.com", i))
		}
		var wg sync.WaitGroup
		errc := make(chan error, 2*n)
		for _, id := range ids {
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := SetReaction(ctx, db, subscriber(id), p.ID, true, now); err != nil {
						errc <- err
					}
				}()
			}
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			t.Fatal(err)
		}
		got, err := GetProject(ctx, db, subscriber(ids[0]), p.ID)
		if err != nil || got.Reactions != n || !got.Reacted {
			t.Fatalf("after %d members reacted twice each: %v %+v", n, err, got)
		}
		got, err = SetReaction(ctx, db, subscriber(ids[0]), p.ID, false, now)
		if err != nil || got.Reactions != n-1 || got.Reacted {
			t.Fatalf("after one took it back: %v %+v", err, got)
		}
		if got, err = SetReaction(ctx, db, subscriber(ids[0]), p.ID, false, now); err != nil || got.Reactions != n-1 {
			t.Fatalf("taking back twice: %v %+v", err, got)
		}
		_, err = SetReaction(ctx, db, ada, p.ID, true, now)
		wantErr(t, err, ErrOwnProject)
		_, err = SetReaction(ctx, db, freeMember(addUser(t, db, "free@example.com")), p.ID, true, now)
		wantErr(t, err, ErrProjectsForMembers)
		_, err = SetReaction(ctx, db, subscriber(ids[1]), store.NewID(), true, now)
		wantCode(t, err, errs.NotFound)
		if c := count(t, db, `SELECT COUNT(*) FROM project_reactions`); c != n-1 {
			t.Fatalf("%d reaction rows, want %d", c, n-1)
		}
	})
}

// TestCommentsArePlainTextUpTo2000Characters: a comment is kept as typed
// (trimmed, markup untouched), listed oldest first to anyone who sees the
// project; empty, oversized and free members' comments are refused and
// not written.
func TestCommentsArePlainTextUpTo2000Characters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.New()
		ada := subscriber(addUser(t, db, "ada@example.com"))
		bob := subscriber(addUser(t, db, "bob@example.com"))
		p := share(t, db, ada, c.Now())

		first, err := AddComment(ctx, db, bob, p.ID, CommentInput{Body: "  <b>Nice</b>\r\nwork  "}, c.Now())
		if err != nil || first.Body != "<b>Nice</b>\nwork" || first.AuthorName != "bob" {
			t.Fatalf("comment: %v %+v", err, first)
		}
		c.Advance(time.Second)
		if _, err := AddComment(ctx, db, ada, p.ID, CommentInput{Body: strings.Repeat("é", MaxComment)}, c.Now()); err != nil {
			t.Fatalf("a comment of exactly %d characters: %v", MaxComment, err)
		}
		_, err = AddComment(ctx, db, bob, p.ID, CommentInput{Body: strings.Repeat("a", MaxComment+1)}, c.Now())
		wantInvalid(t, err, "body", "Comment must be at most 2000 characters.")
		_, err = AddComment(ctx, db, bob, p.ID, CommentInput{Body: " \n "}, c.Now())
		wantInvalid(t, err, "body", "Comment is required.")
		_, err = AddComment(ctx, db, bob, p.ID, CommentInput{Body: "a\x00b"}, c.Now())
		wantCode(t, err, errs.Invalid)
		_, err = AddComment(ctx, db, freeMember(addUser(t, db, "free@example.com")), p.ID, CommentInput{Body: "hi"}, c.Now())
		wantErr(t, err, ErrProjectsForMembers)

		list, err := ListComments(ctx, db, freeMember(addUser(t, db, "reader@example.com")), p.ID)
		if err != nil || len(list) != 2 || list[0].ID != first.ID {
			t.Fatalf("comments: %v %+v", err, list)
		}
		got, _ := GetProject(ctx, db, bob, p.ID)
		if got.Comments != 2 {
			t.Fatalf("comment count %d, want 2", got.Comments)
		}
	})
}

// TestProjectsSinceListsOnlyNewShownProjects: what the digest reads is the
// shown projects created at or after the time asked, oldest first.
func TestProjectsSinceListsOnlyNewShownProjects(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.New()
		ada := subscriber(addUser(t, db, "ada@example.com"))
		share(t, db, ada, c.Now())
		c.Advance(7 * 24 * time.Hour)
		since := c.Now()
		a := share(t, db, ada, c.Now())
		c.Advance(time.Hour)
		b := share(t, db, ada, c.Now())
		list, err := ProjectsSince(ctx, db, since)
		if err != nil || len(list) != 2 || list[0].ID != a.ID || list[1].ID != b.ID || list[0].Mine || list[0].Reacted {
			t.Fatalf("projects since: %v %+v", err, list)
		}
	})
}

// TestDirectoryListsOnlyMembersWhoOptedInAndNeverAnAddress: a member who
// did not opt in is absent, whatever is searched; an opted-in member shows
// with cohort, level and shown projects; the search matches every word
// across the fields; free members are refused.
func TestDirectoryListsOnlyMembersWhoOptedInAndNeverAnAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := clocktest.New().Now()
		confirm := func(id string) {
			if _, err := db.Write.ExecContext(ctx, `UPDATE users SET email_confirmed_at = $1 WHERE id = $2`, store.At(now), id); err != nil {
				t.Fatal(err)
			}
		}
		ada := subscriber(addUser(t, db, "ada@example.com"))
		hid := subscriber(addUser(t, db, "hidden-person@example.com"))
		confirm(ada.UserID)
		confirm(hid.UserID)
		if _, err := UpdateProfile(ctx, db, ada.UserID, ProfileUpdate{InDirectory: ref(true), JobTitle: ref("Agent engineer"),
			Company: ref("Lovelace Labs"), Location: ref("London")}); err != nil {
			t.Fatal(err)
		}
		if _, err := UpdateProfile(ctx, db, hid.UserID, ProfileUpdate{JobTitle: ref("Agent engineer"), Company: ref("Lovelace Labs")}); err != nil {
			t.Fatal(err)
		}
		if _, err := CreateCohort(ctx, db, ada.UserID, CohortInput{Name: "Night owls"}); err != nil {
			t.Fatal(err)
		}
		share(t, db, ada, now)
		share(t, db, hid, now)
		level := func(context.Context, string) (string, error) { return "Builder", nil }

		for _, q := range []string{"", "agent", "LOVELACE london", "night owls", "builder", "memory kit", "agents"} {
			list, err := Directory(ctx, db, subscriber(addUser(t, db, "reader-"+store.NewID()+"@example.com")), q, level)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 1 || list[0].ID != ada.UserID {
				t.Fatalf("search %q: %+v", q, list)
			}
			e := list[0]
			if e.Cohort == nil || *e.Cohort != "Night owls" || e.Level != "Builder" || len(e.Projects) != 1 || e.Company != "Lovelace Labs" {
				t.Fatalf("entry: %+v", e)
			}
			if strings.Contains(fmt.Sprintf("%+v", e), "@") {
				t.Fatalf("an address in the directory: %+v", e)
			}
		}
		if list, _ := Directory(ctx, db, admin(addUser(t, db, "boss@example.com")), "paris", level); len(list) != 0 {
			t.Fatalf("search with no match: %+v", list)
		}
		_, err := Directory(ctx, db, freeMember(addUser(t, db, "free@example.com")), "", level)
		wantErr(t, err, ErrDirectoryForMembers)
		_, err = Directory(ctx, db, ada, strings.Repeat("q", MaxDirectoryQuery+1), level)
		wantCode(t, err, errs.Invalid)

		// Opting out removes the member at once.
		if _, err := UpdateProfile(ctx, db, ada.UserID, ProfileUpdate{InDirectory: ref(false)}); err != nil {
			t.Fatal(err)
		}
		if list, _ := Directory(ctx, db, ada, "", level); len(list) != 0 {
			t.Fatalf("after opting out: %+v", list)
		}
	})
}

// TestACommentIsDeletedByItsAuthorOrAnAdminOnly: one bad comment no longer
// means hiding the whole project. Its author takes it back, an admin
// removes another's; the project's author and other members cannot; a
// comment asked for under another project is not found; the count follows.
func TestACommentIsDeletedByItsAuthorOrAnAdminOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.New()
		ada := subscriber(addUser(t, db, "ada@example.com"))
		bob := subscriber(addUser(t, db, "bob@example.com"))
		cy := subscriber(addUser(t, db, "cy@example.com"))
		boss := admin(addUser(t, db, "boss@example.com"))
		p := share(t, db, ada, c.Now())
		other := share(t, db, cy, c.Now())
		comment := func(v access.Viewer, body string) string {
			t.Helper()
			got, err := AddComment(ctx, db, v, p.ID, CommentInput{Body: body}, c.Now())
			if err != nil {
				t.Fatal(err)
			}
			return got.ID
		}
		mine, spam := comment(bob, "Nice work"), comment(cy, "Buy followers")

		wantErr(t, DeleteComment(ctx, db, ada, p.ID, spam), ErrNotCommentAuthor)
		wantErr(t, DeleteComment(ctx, db, bob, p.ID, spam), ErrNotCommentAuthor)
		wantCode(t, DeleteComment(ctx, db, boss, other.ID, spam), errs.NotFound)
		wantCode(t, DeleteComment(ctx, db, boss, p.ID, "no-such-comment"), errs.NotFound)
		if got, _ := GetProject(ctx, db, bob, p.ID); got.Comments != 2 {
			t.Fatalf("refused deletes changed the count: %d", got.Comments)
		}

		if err := DeleteComment(ctx, db, boss, p.ID, spam); err != nil {
			t.Fatalf("admin moderates: %v", err)
		}
		if err := DeleteComment(ctx, db, bob, p.ID, mine); err != nil {
			t.Fatalf("author takes back: %v", err)
		}
		wantCode(t, DeleteComment(ctx, db, bob, p.ID, mine), errs.NotFound)
		list, err := ListComments(ctx, db, bob, p.ID)
		if err != nil || len(list) != 0 {
			t.Fatalf("comments left: %v %+v", err, list)
		}
		if got, _ := GetProject(ctx, db, bob, p.ID); got.Comments != 0 {
			t.Fatalf("comment count %d, want 0", got.Comments)
		}
	})
}
