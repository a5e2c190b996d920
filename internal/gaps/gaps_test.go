package gaps

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// fieldOf is the input field an error is about.
func fieldOf(err error) string {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// record keeps each question, a minute apart, each from its own client.
func record(ctx context.Context, s *Service, c *clocktest.Clock, questions ...string) {
	for i, q := range questions {
		s.Record(WithClient(ctx, fmt.Sprintf("client %d %s", i, q)), q)
		c.Advance(time.Minute)
	}
}

// TestSimilarWordingsAreOneGroup: the owner sees one line for one missing
// answer, however it was worded, and unrelated questions apart.
func TestSimilarWordingsAreOneGroup(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
		s := New(db, c.Now, nil)
		record(ctx, s, c, "How much does the tribe cost?", "what is it", "What is it?", "Refunds for a session?",
			"what does tribe membership cost", "Do you offer refunds for sessions?")
		list, err := s.List(ctx, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		groups := list.Groups
		if len(groups) != 3 || list.Total != 3 || list.Next != "" {
			t.Fatalf("%d groups of %d: %+v", len(groups), list.Total, groups)
		}
		for _, g := range groups {
			if g.Count != 2 {
				t.Errorf("group %q counted %d, want 2", g.Question, g.Count)
			}
		}
		if groups[0].Question != "Do you offer refunds for sessions?" || !groups[0].LastAsked.Equal(c.Now().Add(-time.Minute)) ||
			len(groups[0].Others) != 1 || groups[0].Others[0] != "Refunds for a session?" {
			t.Errorf("first group %+v", groups[0])
		}
		if groups[1].Question != "what does tribe membership cost" || groups[2].Question != "What is it?" {
			t.Errorf("groups %+v", groups)
		}
	})
}

// TestKnowledgeGapsListWasQuadraticAndUnpaged: the list grouped every kept
// question against every group on each view and answered all of them at
// once. Questions now join a cluster as they are stored, and the list is
// read a page at a time: the pages together hold every group once, in
// order, and a made-up cursor is a clear error.
func TestKnowledgeGapsListWasQuadraticAndUnpaged(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
		s := New(db, c.Now, nil)
		const topics = 23
		for i := range topics {
			for range i%3 + 1 {
				record(ctx, s, c, fmt.Sprintf("what about topic%d?", i))
			}
		}
		var clusters int
		if err := db.Read.QueryRow(`SELECT COUNT(*) FROM knowledge_gap_clusters`).Scan(&clusters); err != nil || clusters != topics {
			t.Fatalf("%d clusters stored (%v), want %d: questions are clustered as they are written", clusters, err, topics)
		}
		seen := map[string]bool{}
		var all []Group
		cursor := ""
		for page := 0; ; page++ {
			list, err := s.List(ctx, 5, cursor)
			if err != nil {
				t.Fatal(err)
			}
			if list.Total != topics || len(list.Groups) > 5 {
				t.Fatalf("page %d: total %d, %d groups", page, list.Total, len(list.Groups))
			}
			for _, g := range list.Groups {
				if seen[g.ID] {
					t.Fatalf("group %q on two pages", g.Question)
				}
				seen[g.ID] = true
				all = append(all, g)
			}
			if list.Next == "" {
				break
			}
			cursor = list.Next
		}
		if len(all) != topics {
			t.Fatalf("%d groups over the pages, want %d", len(all), topics)
		}
		for i := 1; i < len(all); i++ {
			a, b := all[i-1], all[i]
			if a.Count < b.Count || (a.Count == b.Count && a.LastAsked.Before(b.LastAsked)) {
				t.Fatalf("out of order: %+v before %+v", a, b)
			}
		}
		if all[0].Count != 3 || all[len(all)-1].Count != 1 {
			t.Fatalf("first %+v, last %+v", all[0], all[len(all)-1])
		}
		for _, bad := range []string{"nonsense", "bm90IGEgY3Vyc29y"} {
			if _, err := s.List(ctx, 5, bad); fieldOf(err) != "cursor" {
				t.Errorf("cursor %q: %v", bad, err)
			}
		}
		if _, err := s.List(ctx, MaxPage+1, ""); fieldOf(err) != "limit" {
			t.Errorf("limit %d: %v", MaxPage+1, err)
		}
	})
}

// TestOneClientCouldAddUnlimitedKnowledgeGaps: a script could fill the
// 20,000 kept questions from one address and push out every real one.
// Each client now adds at most PerClientPerHour an hour; others are not
// held back, and the allowance comes back with time.
func TestOneClientCouldAddUnlimitedKnowledgeGaps(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
		s := New(db, c.Now, nil)
		flood := WithClient(ctx, "2001:db8:1:2::/64")
		for i := range PerClientPerHour + 15 {
			s.Record(flood, fmt.Sprintf("flood question number %d", i))
		}
		s.Record(WithClient(ctx, "203.0.113.7"), "a real question about harpsichords")
		count := func() int {
			var n int
			if err := db.Read.QueryRow(`SELECT COUNT(*) FROM knowledge_gaps`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := count(); n != PerClientPerHour+1 {
			t.Fatalf("%d questions kept, want the flood's %d and the other client's 1", n, PerClientPerHour)
		}
		c.Advance(time.Hour)
		s.Record(flood, "an hour later")
		if n := count(); n != PerClientPerHour+2 {
			t.Fatalf("%d questions kept an hour later", n)
		}
	})
}

// TestStoredQuestionsKeptEmailPhoneAndCardNumbers: what people paste into
// a search box (their address, phone, card) was kept for 90 days and shown
// to every admin. It is taken out before the question is stored; numbers
// that are none of these stay.
func TestStoredQuestionsKeptEmailPhoneAndCardNumbers(t *testing.T) {
	for in, want := range map[string]string{
		"mail me at jane.doe+tribe@example.co.uk please":        "mail me at [email] please",
		"call +49 30 1234 5678 or (555) 123-4567":               "call [phone] or [phone]",
		"my number is 555-1234":                                 "my number is [phone]",
		"card 4111 1111 1111 1111 was charged twice":            "card [card] was charged twice",
		"card 4111-1111-1111-1111 12/27 refund?":                "card [card] 12/27 refund?",
		"amex 378282246310005 declined":                         "amex [card] declined",
		"order 4111111111111112 not a card":                     "order 4111111111111112 not a card",
		"sessions on 2026-12-18 or 18.12.2026?":                 "sessions on 2026-12-18 or 18.12.2026?",
		"is a 30 minute session $500 or 1000 in 2026?":          "is a 30 minute session $500 or 1000 in 2026?",
		"ünïcødé@exämple.de and +49 (0)30 123456":               "[email] and [phone]",
		"visa 4242424242424242, mastercard 5555 5555 5555 4444": "visa [card], mastercard [card]",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q)\n = %q\nwant %q", in, got, want)
		}
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
		s := New(db, c.Now, nil)
		record(ctx, s, c, "refund to jane@example.com card 4111 1111 1111 1111 phone +1 415 555 0100")
		var stored, shown string
		if err := db.Read.QueryRow(`SELECT g.question, c.question FROM knowledge_gaps g JOIN knowledge_gap_clusters c ON c.id = g.cluster_id`).
			Scan(&stored, &shown); err != nil {
			t.Fatal(err)
		}
		const want = "refund to [email] card [card] phone [phone]"
		if stored != want || shown != want {
			t.Fatalf("stored %q, shown %q", stored, shown)
		}
	})
}

// TestQuestionsStoredBeforeClusteringAreBackfilled: the questions kept
// before clustering on write have no cluster; the worker's back-fill gives
// them one (grouping them as the list did) and redacts them, once.
func TestQuestionsStoredBeforeClusteringAreBackfilled(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		c := clocktest.At(at.Add(time.Hour))
		s := New(db, c.Now, nil)
		n, harpsichord := backfillBatch+5, 0
		for i := range n {
			q := fmt.Sprintf("unique%d puzzle", i)
			switch i % 50 {
			case 0:
				q = "Do you run harpsichord workshops?"
				harpsichord++
			case 1:
				q = "harpsichord workshops? me@example.org"
				harpsichord++
			}
			if _, err := db.Write.Exec(`INSERT INTO knowledge_gaps (id, question, asked_at) VALUES ($1, $2, $3)`,
				store.NewID(), q, store.At(at.Add(time.Duration(i)*time.Second))); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.Backfill(ctx)
		if err != nil || got != n {
			t.Fatalf("back-filled %d (%v), want %d", got, err, n)
		}
		if again, err := s.Backfill(ctx); err != nil || again != 0 {
			t.Fatalf("second back-fill took %d (%v)", again, err)
		}
		list, err := s.List(ctx, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		top := list.Groups[0]
		if top.Count != harpsichord || top.Question != "harpsichord workshops? [email]" || list.Total != n-harpsichord+1 {
			t.Fatalf("top %+v of %d, want %d asked", top, list.Total, harpsichord)
		}
		var leaked int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM knowledge_gaps WHERE question LIKE '%@%' OR cluster_id IS NULL`).Scan(&leaked)
		if leaked != 0 {
			t.Fatalf("%d rows unredacted or unclustered", leaked)
		}
	})
}

// TestSweepDeletesOnlyQuestionsOlderThan90DaysAndTwoSweepsAgree: the
// promise to keep questions 90 days holds, and two instances sweeping at
// once neither fail nor delete a kept row; the groups are counted again.
func TestSweepDeletesOnlyQuestionsOlderThan90DaysAndTwoSweepsAgree(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		s := New(db, c.Now, nil)
		s.Record(ctx, "  an old   question ")
		s.Record(ctx, "harpsichord lessons")
		c.Advance(Retention - time.Minute)
		s.Record(ctx, "a recent question")
		c.Advance(time.Second)
		s.Record(ctx, "harpsichord lesson")
		s.Record(ctx, "   ")
		c.Advance(2 * time.Minute)
		var wg sync.WaitGroup
		errc := make(chan error, 2)
		for range 2 {
			wg.Go(func() {
				_, err := s.Sweep(ctx)
				errc <- err
			})
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			if err != nil {
				t.Fatal(err)
			}
		}
		g, err := s.List(ctx, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Groups) != 2 || g.Groups[0].Question != "harpsichord lesson" || g.Groups[0].Count != 1 ||
			len(g.Groups[0].Others) != 0 || g.Groups[1].Question != "a recent question" {
			t.Fatalf("kept %+v", g.Groups)
		}
		var n, clusters int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM knowledge_gaps`).Scan(&n)
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM knowledge_gap_clusters`).Scan(&clusters)
		if n != 2 || clusters != 2 {
			t.Fatalf("%d rows, %d clusters left", n, clusters)
		}
		if strings.Contains(g.Groups[1].Question, "  ") {
			t.Fatalf("spaces kept: %q", g.Groups[1].Question)
		}
	})
}
