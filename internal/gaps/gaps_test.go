package gaps

import (
	"context"
	"sync"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestSimilarWordingsAreOneGroup: the owner sees one line for one missing
// answer, however it was worded, and unrelated questions apart.
func TestSimilarWordingsAreOneGroup(t *testing.T) {
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	asked := []Asked{
		{"Do you offer refunds for sessions?", at.Add(3 * time.Hour)},
		{"what does tribe membership cost", at.Add(2 * time.Hour)},
		{"Refunds for a session?", at.Add(time.Hour)},
		{"How much does the tribe cost?", at},
		{"what is it", at},
		{"What is it?", at},
	}
	groups := Cluster(asked)
	if len(groups) != 3 {
		t.Fatalf("%d groups: %+v", len(groups), groups)
	}
	for _, g := range groups {
		if g.Count != 2 {
			t.Errorf("group %q counted %d, want 2", g.Question, g.Count)
		}
	}
	if groups[0].Question != "Do you offer refunds for sessions?" || !groups[0].LastAsked.Equal(at.Add(3*time.Hour)) ||
		len(groups[0].Others) != 1 || groups[0].Others[0] != "Refunds for a session?" {
		t.Errorf("first group %+v", groups[0])
	}
}

// TestSweepDeletesOnlyQuestionsOlderThan90DaysAndTwoSweepsAgree: the
// promise to keep questions 90 days holds, and two instances sweeping at
// once neither fail nor delete a kept row.
func TestSweepDeletesOnlyQuestionsOlderThan90DaysAndTwoSweepsAgree(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		s := New(db, c.Now, nil)
		s.Record(ctx, "  an old   question ")
		c.Advance(Retention - time.Minute)
		s.Record(ctx, "a recent question")
		s.Record(ctx, "   ")
		c.Advance(2 * time.Minute)
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		for range 2 {
			wg.Go(func() {
				_, err := s.Sweep(ctx)
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		g, err := s.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Groups) != 1 || g.Groups[0].Question != "a recent question" || g.Groups[0].Count != 1 {
			t.Fatalf("kept %+v", g.Groups)
		}
		var n int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM knowledge_gaps`).Scan(&n)
		if n != 1 {
			t.Fatalf("%d rows left", n)
		}
	})
}
