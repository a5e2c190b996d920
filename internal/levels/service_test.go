package levels

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/clock/clocktest"
	"tribe/internal/community"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func addUser(t *testing.T, db *store.DB, name string) string {
	t.Helper()
	id := store.NewID()
	ctx := context.Background()
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		email := name + "@example.com"
		if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $2, 'x')`, id, email); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, $3)`, id, email, name)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func count(t *testing.T, db *store.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.Read.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// attend records that userID joined n past sessions.
func attend(t *testing.T, db *store.DB, userID string, n int) {
	t.Helper()
	ctx := context.Background()
	for range n {
		s, err := community.CreateSession(ctx, db, "", community.SessionInput{Title: "S", Date: "2025-06-01", Time: "10:00", Duration: "1 hour", Timezone: "UTC"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Write.ExecContext(ctx, `INSERT INTO session_attendance (session_id, user_id, joined_at) VALUES ($1, $2, $3)`,
			s.ID, userID, store.At(s.StartsAt)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestProgressIsCountedFromTheRows: three sessions and an accepted
// contribution make a Contributor; a suggestion counts only once accepted,
// and removing the award takes the level back.
func TestProgressIsCountedFromTheRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := New(db, WithClock(clocktest.New().Now))
		owner, ada := addUser(t, db, "owner"), addUser(t, db, "ada")
		attend(t, db, ada, 2)

		p, err := svc.ProgressOf(ctx, ada)
		if err != nil {
			t.Fatal(err)
		}
		if p.Level != Apprentice || p.Attended != 2 || p.Projects != 0 || p.Next == nil || p.Next.Level != Contributor || p.Reached != "" {
			t.Fatalf("after two sessions: %+v", p)
		}
		attend(t, db, ada, 1)
		sug, err := svc.Suggest(ctx, access.Viewer{UserID: ada, Member: true}, SuggestionInput{Kind: " contribution ", Note: " Wrote the RAG guide "})
		if err != nil {
			t.Fatal(err)
		}
		if sug.Status != StatusSuggested || !sug.Suggested || sug.Note != "Wrote the RAG guide" || sug.AwardedBy != nil || sug.MemberName != "ada" {
			t.Fatalf("suggestion: %+v", sug)
		}
		if p, _ := svc.ProgressOf(ctx, ada); p.Level != Apprentice || p.Contributions != 0 {
			t.Fatalf("a suggestion counted before it was accepted: %+v", p)
		}
		acc, err := svc.Accept(ctx, owner, sug.ID)
		if err != nil {
			t.Fatal(err)
		}
		if acc.Status != StatusAccepted || acc.AwardedBy == nil || *acc.AwardedBy != "owner" || acc.AwardedAt == nil {
			t.Fatalf("accepted: %+v", acc)
		}
		if _, err := svc.Accept(ctx, owner, sug.ID); !errors.Is(err, errAccepted) {
			t.Fatalf("accepting twice: %v", err)
		}
		p, _ = svc.ProgressOf(ctx, ada)
		if p.Level != Contributor || p.Rank != 2 || p.Contributions != 1 || p.Reached != Contributor || p.Next.Level != Builder {
			t.Fatalf("after three sessions and a contribution: %+v", p)
		}
		// The congratulation shows once.
		if err := svc.MarkSeen(ctx, ada, SeenInput{Level: Contributor}); err != nil {
			t.Fatal(err)
		}
		if p, _ := svc.ProgressOf(ctx, ada); p.Reached != "" {
			t.Fatalf("congratulated again: %+v", p)
		}
		// Mentoring and workshops count too.
		for _, kind := range []string{KindMentoring, KindMentoring, KindWorkshop} {
			if _, err := svc.Give(ctx, owner, AwardInput{UserID: ada, Kind: kind, Note: "Thanks"}); err != nil {
				t.Fatal(err)
			}
		}
		if p, _ := svc.ProgressOf(ctx, ada); p.Mentored != 2 || p.Workshops != 1 || p.Level != Contributor {
			t.Fatalf("after mentoring and a workshop: %+v", p)
		}
		// Withdrawing the contribution takes the level back: nothing stored.
		if who, err := svc.Remove(ctx, sug.ID); err != nil || who != ada {
			t.Fatalf("remove: %q %v", who, err)
		}
		if p, _ := svc.ProgressOf(ctx, ada); p.Level != Apprentice {
			t.Fatalf("after the contribution was withdrawn: %+v", p)
		}
		if _, err := svc.Remove(ctx, sug.ID); !errs.Is(err, errs.NotFound) {
			t.Fatalf("removing twice: %v", err)
		}
	})
}

// TestMarkSeenRefusesLevelsNotReached: a member cannot silence a
// congratulation for a level they do not have, nor name an unknown level.
func TestMarkSeenRefusesLevelsNotReached(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := New(db)
		ada := addUser(t, db, "ada")
		if err := svc.MarkSeen(ctx, ada, SeenInput{Level: Master}); !errors.Is(err, errNotReached) {
			t.Fatalf("Master: %v", err)
		}
		if err := svc.MarkSeen(ctx, ada, SeenInput{Level: "Wizard"}); !errs.Is(err, errs.Invalid) {
			t.Fatalf("Wizard: %v", err)
		}
		if err := svc.MarkSeen(ctx, ada, SeenInput{Level: Apprentice}); err != nil {
			t.Fatalf("Apprentice: %v", err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM level_notices`); n != 0 {
			t.Fatalf("%d notices written for nothing to congratulate", n)
		}
	})
}

// TestAwardInputIsChecked: every bad input is a clear 400 or 403 and
// writes nothing.
func TestAwardInputIsChecked(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := New(db)
		owner, ada := addUser(t, db, "owner"), addUser(t, db, "ada")
		bad := []struct {
			in    AwardInput
			field string
		}{
			{AwardInput{UserID: "", Kind: KindContribution, Note: "x"}, "user_id"},
			{AwardInput{UserID: ada, Kind: "likes", Note: "x"}, "kind"},
			{AwardInput{UserID: ada, Kind: KindContribution, Note: "  "}, "note"},
			{AwardInput{UserID: ada, Kind: KindContribution, Note: strings.Repeat("é", MaxNote+1)}, "note"},
			{AwardInput{UserID: ada, Kind: KindContribution, Note: "bad \x00"}, "note"},
			{AwardInput{UserID: ada, Kind: KindContribution, Note: "bad \xff"}, "note"},
		}
		for _, b := range bad {
			var e *errs.Error
			if _, err := svc.Give(ctx, owner, b.in); !errors.As(err, &e) || e.Code != errs.Invalid || e.Field != b.field {
				t.Errorf("%+v: %v, want invalid %s", b.in, err, b.field)
			}
		}
		if _, err := svc.Give(ctx, owner, AwardInput{UserID: "nobody", Kind: KindWorkshop, Note: "x"}); !errs.Is(err, errs.NotFound) {
			t.Errorf("unknown member: %v", err)
		}
		if _, err := svc.Suggest(ctx, access.Viewer{UserID: ada}, SuggestionInput{Kind: KindContribution, Note: "x"}); !errors.Is(err, ErrSuggestForMembers) {
			t.Errorf("a free member suggested: %v", err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM awards`); n != 0 {
			t.Fatalf("refusals wrote %d awards", n)
		}
		if a, err := svc.Give(ctx, owner, AwardInput{UserID: ada, Kind: KindContribution, Note: strings.Repeat("é", MaxNote)}); err != nil || a.Status != StatusAccepted {
			t.Fatalf("a note of exactly %d characters: %v", MaxNote, err)
		}
	})
}

// TestSuggestionsAreCappedUnderConcurrency: many suggestions at once leave
// exactly MaxPendingSuggestions waiting (run with -race).
func TestSuggestionsAreCappedUnderConcurrency(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := New(db, WithClock(clocktest.At(time.Now()).Now))
		ada := access.Viewer{UserID: addUser(t, db, "ada"), Member: true}
		var wg sync.WaitGroup
		var mu sync.Mutex
		refused := 0
		for range 20 {
			wg.Go(func() {
				_, err := svc.Suggest(ctx, ada, SuggestionInput{Kind: KindMentoring, Note: "Paired with Bob"})
				if err != nil && !errors.Is(err, errTooManyPending) {
					t.Error(err)
				}
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					refused++
				}
			})
		}
		wg.Wait()
		if n := count(t, db, `SELECT COUNT(*) FROM awards WHERE user_id = $1`, ada.UserID); n != MaxPendingSuggestions || refused != 20-MaxPendingSuggestions {
			t.Fatalf("%d suggestions stored, %d refused", n, refused)
		}
		mine, err := svc.Mine(ctx, ada.UserID)
		if err != nil || len(mine) != MaxPendingSuggestions {
			t.Fatalf("mine: %d, %v", len(mine), err)
		}
		all, err := svc.List(ctx)
		if err != nil || len(all) != MaxPendingSuggestions || all[0].Status != StatusSuggested {
			t.Fatalf("list: %+v, %v", all, err)
		}
	})
}

// TestLevelsOfAllAgreesWithEachMembersProgress: the members export reads
// everyone's level at once; it must say what each member's own progress
// says, or the file and the screen disagree.
func TestLevelsOfAllAgreesWithEachMembersProgress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := New(db, WithClock(clocktest.New().Now))
		owner, ada, bob, cyd := addUser(t, db, "owner"), addUser(t, db, "ada"), addUser(t, db, "bob"), addUser(t, db, "cyd")
		attend(t, db, ada, 3)
		attend(t, db, bob, 3)
		if _, err := svc.Give(ctx, owner, AwardInput{UserID: ada, Kind: KindContribution, Note: "Guide"}); err != nil {
			t.Fatal(err)
		}
		all, err := svc.LevelsOfAll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{owner, ada, bob, cyd} {
			p, err := svc.ProgressOf(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			got := all[id]
			if got == "" {
				got = Apprentice
			}
			if got != p.Level {
				t.Errorf("%s: %s in the bulk read, %s in the progress", id, got, p.Level)
			}
		}
		if all[ada] != Contributor {
			t.Errorf("ada: %q", all[ada])
		}
	})
}
