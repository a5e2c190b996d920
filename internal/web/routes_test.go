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
}
