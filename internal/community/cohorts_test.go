package community

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestCohortValidation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := addUser(t, db, "val@example.com")
		cases := []struct {
			in             CohortInput
			field, message string
		}{
			{CohortInput{Name: "   "}, "name", "Please enter a cohort name"},
			{CohortInput{Name: strings.Repeat("n", 81)}, "name", "Cohort name must be at most 80 characters."},
			{CohortInput{Name: "A", Description: strings.Repeat("d", 1001)}, "description", "Description must be at most 1000 characters."},
			{CohortInput{Name: "A", Icon: "skull"}, "icon", "Choose one of the listed icons."},
			{CohortInput{Name: "A", GitHubURL: "github.com/x"}, "github_url", "Invalid GitHub URL format"},
			{CohortInput{Name: "A", GitHubURL: "javascript:alert(1)"}, "github_url", "Invalid GitHub URL format"},
			{CohortInput{Name: "A", HomepageURL: "ftp://example.com"}, "homepage_url", "Invalid homepage URL format"},
			{CohortInput{Name: "A", HomepageURL: "https://"}, "homepage_url", "Invalid homepage URL format"},
		}
		for _, c := range cases {
			_, err := CreateCohort(ctx, db, u, c.in)
			wantInvalid(t, err, c.field, c.message)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM cohorts`); n != 0 {
			t.Fatalf("refused input left %d cohorts", n)
		}
		c, err := CreateCohort(ctx, db, u, CohortInput{Name: "  Agent Builders  ", Description: " hi ",
			GitHubURL: "  ", HomepageURL: " https://example.com/x "})
		if err != nil {
			t.Fatal(err)
		}
		if c.Name != "Agent Builders" || c.Description != "hi" || c.Icon != "users" || c.GitHubURL != nil ||
			c.HomepageURL == nil || *c.HomepageURL != "https://example.com/x" || c.MaxMembers != 5 {
			t.Fatalf("stored %+v", c)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM cohorts WHERE github_url IS NULL`); n != 1 {
			t.Fatal("an empty GitHub URL must be stored as NULL")
		}
		if !c.IsMember || !c.IsCreator || c.MemberCount != 1 || len(c.Members) != 1 || c.Members[0].FullName != "val" {
			t.Fatalf("the creator must be the first member: %+v", c)
		}
		// Edit uses the same rules.
		_, err = UpdateCohort(ctx, db, u, c.ID, CohortInput{Name: ""})
		wantInvalid(t, err, "name", "Please enter a cohort name")
		_, err = UpdateCohort(ctx, db, u, c.ID, CohortInput{Name: "X", GitHubURL: "nope"})
		wantInvalid(t, err, "github_url", "Invalid GitHub URL format")
	})
}

func TestCohortRules(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		alice := addUser(t, db, "alice@example.com")
		bob := addUser(t, db, "bob@example.com")
		carol := addUser(t, db, "carol@example.com")

		a, err := CreateCohort(ctx, db, alice, CohortInput{Name: "Alpha", Icon: "rocket"})
		if err != nil {
			t.Fatal(err)
		}
		// One cohort per user: creating or joining another is refused.
		_, err = CreateCohort(ctx, db, alice, CohortInput{Name: "Second"})
		wantErr(t, err, ErrAlreadyInCohort)
		// SQLite keeps milliseconds: let Beta be created strictly later, so
		// "oldest first" has one answer.
		time.Sleep(2 * time.Millisecond)
		b, err := CreateCohort(ctx, db, bob, CohortInput{Name: "Beta"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = JoinCohort(ctx, db, alice, b.ID)
		wantErr(t, err, ErrAlreadyInCohort)
		_, err = JoinCohort(ctx, db, alice, a.ID)
		wantErr(t, err, ErrAlreadyInCohort)
		_, err = JoinCohort(ctx, db, carol, store.NewID())
		wantCode(t, err, errs.NotFound)

		joined, err := JoinCohort(ctx, db, carol, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if joined.MemberCount != 2 || !joined.IsMember || joined.IsCreator {
			t.Fatalf("after join: %+v", joined)
		}
		list, mine, err := ListCohorts(ctx, db, carol)
		if err != nil || len(list) != 2 || mine != a.ID || list[0].ID != a.ID || list[1].IsMember {
			t.Fatalf("list for carol: %+v mine %q err %v", list, mine, err)
		}
		if names := list[0].Members; names[0].UserID != alice || names[1].UserID != carol {
			t.Fatalf("members not in joining order: %+v", names)
		}

		// Only the creator edits or deletes.
		_, err = UpdateCohort(ctx, db, carol, a.ID, CohortInput{Name: "Hijacked"})
		wantErr(t, err, ErrNotCreator)
		wantErr(t, DeleteCohort(ctx, db, carol, a.ID), ErrNotCreator)
		wantErr(t, DeleteCohort(ctx, db, bob, a.ID), ErrNotCreator)
		up, err := UpdateCohort(ctx, db, alice, a.ID, CohortInput{Name: "Alpha Two", Icon: "star", GitHubURL: "https://github.com/a/b"})
		if err != nil || up.Name != "Alpha Two" || up.Icon != "star" || *up.GitHubURL != "https://github.com/a/b" {
			t.Fatalf("creator edit: %+v %v", up, err)
		}
		_, err = UpdateCohort(ctx, db, alice, store.NewID(), CohortInput{Name: "x"})
		wantCode(t, err, errs.NotFound)

		// Leave, and leaving twice.
		if err := LeaveCohort(ctx, db, carol, a.ID); err != nil {
			t.Fatal(err)
		}
		wantErr(t, LeaveCohort(ctx, db, carol, a.ID), ErrNotMember)
		wantCode(t, LeaveCohort(ctx, db, carol, store.NewID()), errs.NotFound)
		// Free again, carol can join Beta.
		if _, err := JoinCohort(ctx, db, carol, b.ID); err != nil {
			t.Fatal(err)
		}

		// Deleting removes every membership with it; the members are free again.
		if err := DeleteCohort(ctx, db, bob, b.ID); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM cohort_members WHERE cohort_id = $1`, b.ID); n != 0 {
			t.Fatalf("%d memberships survived the delete", n)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM cohorts WHERE id = $1`, b.ID); n != 0 {
			t.Fatal("cohort not deleted")
		}
		if _, err := CreateCohort(ctx, db, carol, CohortInput{Name: "Gamma"}); err != nil {
			t.Fatalf("a member of a deleted cohort must be free to create one: %v", err)
		}
		wantCode(t, DeleteCohort(ctx, db, bob, b.ID), errs.NotFound)

		// The creator may leave and still edit.
		if err := LeaveCohort(ctx, db, alice, a.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := UpdateCohort(ctx, db, alice, a.ID, CohortInput{Name: "Still mine"}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestCohortCapacity(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := addUser(t, db, "owner@example.com")
		c, err := CreateCohort(ctx, db, owner, CohortInput{Name: "Small"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			if _, err := JoinCohort(ctx, db, addUser(t, db, fmt.Sprintf("m%d@example.com", i)), c.ID); err != nil {
				t.Fatal(err)
			}
		}
		late := addUser(t, db, "late@example.com")
		_, err = JoinCohort(ctx, db, late, c.ID)
		wantErr(t, err, ErrCohortFull)
		got, err := GetCohort(ctx, db, late, c.ID)
		if err != nil || got.MemberCount != 5 || !got.IsFull || got.IsMember {
			t.Fatalf("full cohort: %+v %v", got, err)
		}
	})
}

// Fifty members press Join on one empty five-seat cohort at the same time.
func TestConcurrentJoinsRespectCapacity(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		creator := addUser(t, db, "creator@example.com")
		c, err := CreateCohort(ctx, db, creator, CohortInput{Name: "Race"})
		if err != nil {
			t.Fatal(err)
		}
		// The creator leaves so all five seats are contested.
		if err := LeaveCohort(ctx, db, creator, c.ID); err != nil {
			t.Fatal(err)
		}
		const n = 50
		users := make([]string, n)
		for i := range users {
			users[i] = addUser(t, db, fmt.Sprintf("racer%02d@example.com", i))
		}
		var (
			wg      sync.WaitGroup
			start   = make(chan struct{})
			mu      sync.Mutex
			ok      int
			full    int
			unknown []error
		)
		for _, u := range users {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				// Holding the seat count for a moment makes overlapping
				// transactions certain, so only the lock keeps the cap.
				slow := context.WithValue(ctx, afterCountKey{}, func() { time.Sleep(5 * time.Millisecond) })
				_, err := JoinCohort(slow, db, u, c.ID)
				mu.Lock()
				defer mu.Unlock()
				switch err {
				case nil:
					ok++
				case ErrCohortFull:
					full++
				default:
					unknown = append(unknown, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		if len(unknown) > 0 {
			t.Fatalf("unexpected errors: %v", unknown)
		}
		if ok != CohortSize || full != n-CohortSize {
			t.Fatalf("%d joins succeeded and %d were told full; want %d and %d", ok, full, CohortSize, n-CohortSize)
		}
		if got := count(t, db, `SELECT COUNT(*) FROM cohort_members WHERE cohort_id = $1`, c.ID); got != CohortSize {
			t.Fatalf("cohort has %d members, want exactly %d", got, CohortSize)
		}
	})
}

// One user racing to join two cohorts ends up in exactly one.
func TestConcurrentJoinsOneCohortPerUser(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var ids []string
		for i := range 4 {
			u := addUser(t, db, fmt.Sprintf("c%d@example.com", i))
			c, err := CreateCohort(ctx, db, u, CohortInput{Name: fmt.Sprintf("C%d", i)})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, c.ID)
		}
		racer := addUser(t, db, "racer@example.com")
		var wg sync.WaitGroup
		errs := make([]error, len(ids))
		for i, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = JoinCohort(ctx, db, racer, id)
			}()
		}
		wg.Wait()
		okCount := 0
		for _, err := range errs {
			if err == nil {
				okCount++
			} else if err != ErrAlreadyInCohort {
				t.Errorf("unexpected error %v", err)
			}
		}
		if okCount != 1 || count(t, db, `SELECT COUNT(*) FROM cohort_members WHERE user_id = $1`, racer) != 1 {
			t.Fatalf("%d joins succeeded, want 1", okCount)
		}
	})
}
