package kb

import (
	"strings"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func str(s string) *string { return &s }

func TestDocumentsLifecycle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newKB(t, db, Options{})
		ctx := t.Context()
		a := mustCreate(t, s, "  Office hours  ", "Office hours are on Fridays at noon.")
		if a.Metadata.Title != "Office hours" || a.Metadata.Category != CategoryManual || a.Metadata.Type != "document" ||
			a.Metadata.Source != "manual" || len(a.Metadata.Tags) != 0 || a.Seeded || a.CreatedAt.IsZero() {
			t.Fatalf("created: %+v", a)
		}
		time.Sleep(5 * time.Millisecond) // distinct created_at
		tags := []string{" agents ", "Agents", "", "memory"}
		b, err := s.Create(ctx, Input{Title: "Refund policy", Content: "Refunds within 14 days.", Category: str("policy"), Type: str("faq"), Source: str("handbook"), Tags: &tags})
		if err != nil {
			t.Fatal(err)
		}
		if b.Metadata.Category != "policy" || b.Metadata.Type != "faq" || b.Metadata.Source != "handbook" || strings.Join(b.Metadata.Tags, ",") != "agents,memory" {
			t.Fatalf("metadata: %+v", b.Metadata)
		}

		list, err := s.List(ctx, 0, 0)
		if err != nil || list.Total != 2 || len(list.Documents) != 2 || list.Documents[0].ID != b.ID {
			t.Fatalf("list newest first: %+v %v", list, err)
		}
		page, err := s.List(ctx, 1, 1)
		if err != nil || page.Total != 2 || len(page.Documents) != 1 || page.Documents[0].ID != a.ID {
			t.Fatalf("second page: %+v %v", page, err)
		}
		for _, bad := range [][2]int{{-1, 0}, {MaxPage + 1, 0}, {10, -1}} {
			if _, err := s.List(ctx, bad[0], bad[1]); !errs.Is(err, errs.Invalid) {
				t.Fatalf("list %v: %v", bad, err)
			}
		}

		// An edit replaces title and content, keeps the metadata left out,
		// and re-indexes: the old words are gone, the new ones found.
		up, err := s.Update(ctx, b.ID, Input{Title: "Returns", Content: "Returns are accepted within 30 days."})
		if err != nil {
			t.Fatal(err)
		}
		if up.Metadata.Title != "Returns" || up.Metadata.Category != "policy" || len(up.Metadata.Tags) != 2 || !up.UpdatedAt.After(b.UpdatedAt.Add(-time.Millisecond)) {
			t.Fatalf("updated: %+v", up)
		}
		if res, _ := s.Search(ctx, "refunds", 5); len(res.Results) != 0 {
			t.Fatalf("old words still found: %+v", res.Results)
		}
		if res, _ := s.Search(ctx, "returns accepted", 5); len(res.Results) != 1 || res.Results[0].DocumentID != b.ID {
			t.Fatalf("new words not found: %+v", res.Results)
		}

		if err := s.Delete(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, a.ID); !errs.Is(err, errs.NotFound) {
			t.Fatalf("deleted document: %v", err)
		}
		if err := s.Delete(ctx, a.ID); !errs.Is(err, errs.NotFound) {
			t.Fatalf("delete twice: %v", err)
		}
		if _, err := s.Update(ctx, a.ID, Input{Title: "x", Content: "y"}); !errs.Is(err, errs.NotFound) {
			t.Fatalf("update deleted: %v", err)
		}
		if res, _ := s.Search(ctx, "office hours fridays", 5); len(res.Results) != 0 {
			t.Fatalf("deleted document still found: %+v", res.Results)
		}
		if n := rows(t, db, "kb_chunks"); n != 1 {
			t.Fatalf("%d chunks left, want 1", n)
		}
		if db.Dialect == store.SQLite {
			if n := rows(t, db, "kb_fts"); n != 1 {
				t.Fatalf("%d full-text rows left, want 1", n)
			}
		}
	})
}

func TestBadDocumentsWriteNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newKB(t, db, Options{})
		ctx := t.Context()
		keep := mustCreate(t, s, "Keep", "Keep this text.")
		long := func(n int) *[]string {
			tags := make([]string, n)
			for i := range tags {
				tags[i] = "t" + strings.Repeat("x", i)
			}
			return &tags
		}
		cases := []struct {
			in    Input
			code  string
			field string
			msg   string
		}{
			{Input{Content: "text"}, errs.Invalid, "title", "Please fill in all required fields"},
			{Input{Title: "t", Content: "  \n "}, errs.Invalid, "content", "Please fill in all required fields"},
			{Input{Title: strings.Repeat("t", 201), Content: "c"}, errs.Invalid, "title", "Title must be at most 200 characters."},
			{Input{Title: "t", Content: strings.Repeat("a", MaxContentBytes+1)}, errs.TooLarge, "content", "Content must be at most 200 KB."},
			{Input{Title: "t", Content: "nul \x00 here"}, errs.Invalid, "content", ""},
			{Input{Title: "t", Content: "c", Tags: long(21)}, errs.Invalid, "tags", msgTags},
			{Input{Title: "t", Content: "c", Tags: &[]string{strings.Repeat("x", 41)}}, errs.Invalid, "tags", msgTags},
			{Input{Title: "t", Content: "c", Category: str(strings.Repeat("c", 61))}, errs.Invalid, "category", ""},
		}
		for i, c := range cases {
			_, err := s.Create(ctx, c.in)
			var e *errs.Error
			if !errorAs(err, &e) || e.Code != c.code || e.Field != c.field || (c.msg != "" && e.Message != c.msg) {
				t.Errorf("case %d: %#v", i, err)
			}
			_, err = s.Update(ctx, keep.ID, c.in)
			if !errorAs(err, &e) || e.Code != c.code {
				t.Errorf("case %d on update: %#v", i, err)
			}
		}
		if n := rows(t, db, "documents"); n != 1 {
			t.Fatalf("%d documents after bad input, want 1", n)
		}
		got, err := s.Get(ctx, keep.ID)
		if err != nil || got.Metadata.Title != "Keep" || got.Content != "Keep this text." {
			t.Fatalf("a refused edit changed the document: %+v %v", got, err)
		}
		chunks := rows(t, db, "kb_chunks")
		if chunks != 1 {
			t.Fatalf("%d chunks after bad input, want 1", chunks)
		}
		// Exactly 200 KB is allowed, and chunked.
		d, err := s.Create(ctx, Input{Title: "Big", Content: strings.Repeat("word ", MaxContentBytes/5)})
		if err != nil {
			t.Fatal(err)
		}
		if n := rows(t, db, "kb_chunks"); n < chunks+200 {
			t.Fatalf("a 200 KB document made %d chunks", n-chunks)
		}
		if err := s.Delete(ctx, d.ID); err != nil {
			t.Fatal(err)
		}
	})
}
