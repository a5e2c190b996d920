package web

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// The server's list of app routes must match the web router's, or a page
// would answer 404 on a full load (or a missing page 200).
func TestAppRoutesMatchWebRouter(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../web/src/app/routes.tsx")
	if err != nil {
		t.Fatalf("read the web router: %v", err)
	}
	var web []string
	for _, m := range regexp.MustCompile(`\{\s*path:\s*'([^']+)',\s*Component:`).FindAllStringSubmatch(string(src), -1) {
		if m[1] != "*" { // the catch-all renders the 404 page
			web = append(web, m[1])
		}
	}
	if len(web) == 0 {
		t.Fatal("found no routes in web/src/app/routes.tsx; update this test's pattern")
	}
	got := slices.Sorted(slices.Values(appRoutes))
	slices.Sort(web)
	if !slices.Equal(got, web) {
		t.Fatalf("internal/web/routes.go has %v\nweb/src/app/routes.tsx has %v", got, web)
	}
	var prefixes []string
	for _, m := range regexp.MustCompile(`\{\s*prefix:\s*'([^']+)',\s*Component:`).FindAllStringSubmatch(string(src), -1) {
		prefixes = append(prefixes, m[1])
	}
	if gotPrefixes := slices.Sorted(slices.Values(appPrefixes)); !slices.Equal(gotPrefixes, slices.Sorted(slices.Values(prefixes))) {
		t.Fatalf("internal/web/routes.go has prefixes %v\nweb/src/app/routes.tsx has %v", gotPrefixes, prefixes)
	}
}

// A booking's page (/bookings/{id}) is the app shell, never indexed; a
// deeper path or the bare prefix is not a page.
func TestPrefixRoutes(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]bool{
		"/bookings/abc123": true,
		"/bookings/":       false,
		"/bookings":        false,
		"/bookings/a/b":    false,
		"/bookingsx/a":     false,
	} {
		if got := isPrefixRoute(path); got != want {
			t.Errorf("isPrefixRoute(%q) = %v, want %v", path, got, want)
		}
	}
}
