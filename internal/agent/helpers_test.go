package agent

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/kb"
)

// fakeKB answers searches with fixed results and remembers the queries.
type fakeKB struct {
	mu      sync.Mutex
	results []kb.Result
	err     error
	queries []string
}

func (f *fakeKB) Search(_ context.Context, query string, limit int) (kb.Results, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, query)
	if f.err != nil {
		return kb.Results{}, f.err
	}
	res := f.results
	if limit > 0 && len(res) > limit {
		res = res[:limit]
	}
	return kb.Results{Results: res, Ranking: kb.RankingFullText}, nil
}

func (f *fakeKB) seen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.queries...)
}

// passage is a knowledge-base result for fakeKB.
func passage(title, source, text string) kb.Result {
	return kb.Result{Content: text, Metadata: kb.Metadata{Title: title, Category: "test", Source: source}, Similarity: 0.9}
}

// testSite is the embedded content.
func testSite(t testing.TB) *content.Site {
	t.Helper()
	site, err := content.Load("")
	if err != nil {
		t.Fatal(err)
	}
	return site
}

// siteDeps are the site's tools over k and the embedded content.
func siteDeps(t testing.TB, k KnowledgeBase) SiteDeps {
	return SiteDeps{KB: k, Site: testSite(t), BaseURL: "https://ruv.example", Capacity: 40}
}

// siteRegistry is the registry of the site's tools over k.
func siteRegistry(t testing.TB, k KnowledgeBase) *Registry {
	t.Helper()
	r, err := NewRegistry(SiteTools(siteDeps(t, k))...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// wantErr checks that err is an *errs.Error with code and a message
// containing msg.
func wantErr(t *testing.T, err error, code, msg string) {
	t.Helper()
	if !errs.Is(err, code) || !strings.Contains(errs.MessageOf(err), msg) {
		t.Fatalf("error %v (code %q), want code %q with %q", err, errs.CodeOf(err), code, msg)
	}
}

// errorsAs is errors.As for *errs.Error.
func errorsAs(err error, target **errs.Error) bool { return errors.As(err, target) }
