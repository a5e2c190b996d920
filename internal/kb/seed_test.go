package kb

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"tribe/internal/content"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestSeedingIsIdempotentAndSparesManualDocuments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newKB(t, db, Options{})
		ctx := t.Context()
		manual := mustCreate(t, s, "Team notes", "Our own notes about agent memory.")
		docs := siteDocs(t)

		first, err := s.Seed(ctx, docs)
		if err != nil {
			t.Fatal(err)
		}
		b := first.Breakdown
		if first.Count != len(docs) || b.About == 0 || b.Services == 0 || b.Projects == 0 || b.Stack == 0 || b.Contact == 0 || b.Community == 0 ||
			b.About+b.Services+b.Projects+b.Stack+b.Contact+b.Community != first.Count {
			t.Fatalf("first seed: %+v", first)
		}
		if first.Message != "Seeded "+strconv.Itoa(first.Count)+" documents to knowledge base" {
			t.Fatalf("message %q", first.Message)
		}
		ids := seedKeys(t, db)
		chunks := rows(t, db, "kb_chunks")

		second, err := s.Seed(ctx, docs)
		if err != nil {
			t.Fatal(err)
		}
		if second != first {
			t.Fatalf("second seed %+v, first %+v", second, first)
		}
		if n := rows(t, db, "documents"); n != first.Count+1 {
			t.Fatalf("%d documents after seeding twice, want %d", n, first.Count+1)
		}
		if again := seedKeys(t, db); !sameMap(again, ids) || rows(t, db, "kb_chunks") != chunks {
			t.Fatal("an unchanged re-seed rewrote documents")
		}
		if got, err := s.Get(ctx, manual.ID); err != nil || got.Seeded || got.Content != manual.Content {
			t.Fatalf("manual document after re-seed: %+v %v", got, err)
		}

		// A changed fact replaces its document; a fact that is gone is removed.
		changed := append([]SeedDoc(nil), docs[1:]...)
		changed[0].Content += " Now also on weekends."
		if _, err := s.Seed(ctx, changed); err != nil {
			t.Fatal(err)
		}
		after := seedKeys(t, db)
		if _, ok := after[docs[0].Key]; ok || len(after) != len(changed) || after[changed[0].Key] != ids[changed[0].Key] {
			t.Fatalf("after a changed seed: %d seeded, first key still there: %v", len(after), ok)
		}
		if res, _ := s.Search(ctx, "weekends", 3); len(res.Results) != 1 || res.Results[0].DocumentID != ids[changed[0].Key] {
			t.Fatalf("the changed fact is not searchable: %+v", res.Results)
		}
		if _, err := s.Get(ctx, manual.ID); err != nil {
			t.Fatalf("manual document gone: %v", err)
		}
	})
}

func TestSeedIfChangedComparesTheContentHash(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newKB(t, db, Options{})
		docs := siteDocs(t)
		res, changed, err := s.SeedIfChanged(t.Context(), docs)
		if err != nil || !changed || res.Count != len(docs) {
			t.Fatalf("first start: %+v %v %v", res, changed, err)
		}
		res, changed, err = s.SeedIfChanged(t.Context(), docs)
		if err != nil || changed || res.Count != len(docs) {
			t.Fatalf("same content: %+v %v %v", res, changed, err)
		}
		docs[0].Content += " More."
		if _, changed, err = s.SeedIfChanged(t.Context(), docs); err != nil || !changed {
			t.Fatalf("changed content: %v %v", changed, err)
		}
	})
}

func TestCommunityDocumentsUseTheConfiguredCapacity(t *testing.T) {
	site, err := content.Load("")
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for _, d := range FromContent(site, 37) {
		if d.Metadata.Category == CategoryCommunity {
			text += d.Content + "\n"
		}
		if d.Metadata.Category == CategoryServices && d.Metadata.Title == site.Services.Tribe.Name {
			t.Fatal("the content file's tribe entry is seeded beside the community documents")
		}
	}
	for _, want := range []string{"capped at 37 members", "$250 per month", "cancel anytime", "Apprentice", "bi-weekly"} {
		if !strings.Contains(text, want) {
			t.Errorf("community documents do not say %q", want)
		}
	}
}

// TestCommunityDocumentsCountOnePlaceInTheSingular: a tribe capped at one
// member once read "capped at 1 members" and "all 1 places are taken".
func TestCommunityDocumentsCountOnePlaceInTheSingular(t *testing.T) {
	site, err := content.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for capacity, want := range map[int][]string{
		1:  {"capped at 1 member so", "When the 1 place is taken"},
		50: {"capped at 50 members so", "When all 50 places are taken"},
	} {
		var text string
		for _, d := range FromContent(site, capacity) {
			if d.Metadata.Category == CategoryCommunity {
				text += d.Content + "\n"
			}
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("capacity %d: community documents do not say %q", capacity, w)
			}
		}
	}
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestReadsWaitForTheSeedingStartedInTheBackground: serve no longer seeds
// before it answers (start-up took the seeding's time before /readyz);
// the knowledge base's readers wait for a seeding under way instead, so
// none answers from a half-seeded knowledge base, and once it is through
// they find what it wrote.
func TestReadsWaitForTheSeedingStartedInTheBackground(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newKB(t, db, Options{})
		docs := siteDocs(t)
		release := make(chan struct{})
		type outcome struct {
			res     SeedResult
			changed bool
			err     error
		}
		done := make(chan outcome, 1)
		through := s.SeedInBackground(t.Context(), func() []SeedDoc { <-release; return docs },
			func(res SeedResult, changed bool, err error) { done <- outcome{res, changed, err} })

		// While the seeding waits, a reader waits with it: given up, it says
		// it was waiting for the seeding, not that nothing matched.
		gaveUp, cancel := context.WithCancel(t.Context())
		cancel()
		for name, read := range map[string]func() error{
			"search": func() error { _, err := s.Search(gaveUp, "tribe capacity members", 0); return err },
			"list":   func() error { _, err := s.List(gaveUp, 0, 0); return err },
			"get":    func() error { _, err := s.Get(gaveUp, "any"); return err },
		} {
			if err := read(); err == nil || !strings.Contains(err.Error(), "wait for the knowledge base to be seeded") {
				t.Errorf("%s during the seeding: %v", name, err)
			}
		}

		close(release)
		res, err := s.Search(t.Context(), "tribe capacity members", 0)
		if err != nil || len(res.Results) == 0 {
			t.Fatalf("search after the seeding: %+v %v", res, err)
		}
		<-through
		if o := <-done; o.err != nil || !o.changed || o.res.Count != len(docs) {
			t.Fatalf("seeding reported %+v", o)
		}
	})
}
