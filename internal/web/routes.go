package web

import "strings"

// appRoutes are the paths the web app renders. Any other path that is not a
// file of the built app answers 404. Keep in step with web/src/app/routes.tsx
// (the web unit tests check the same list).
var appRoutes = []string{
	"/", "/about", "/projects", "/mcp", "/tribe", "/booking", "/auth", "/members",
	"/members/library", "/admin/insights", "/agent-test", "/goal", "/lean-agentic", "/midstreamer", "/agentic-payments",
	"/ai-defence", "/aimds",
	// The offers booked on the site ("booking": "native" in content/services.json).
	"/book/session-15", "/book/session-30", "/book/session-60", "/book/private", "/book/group",
}

// appPrefixes are the web app's pages with an id in the path, one segment
// after the prefix (/bookings/{id}): the server answers them with the app
// shell, and the app decides what to show. Keep in step with prefixRoutes in
// web/src/app/routes.tsx.
var appPrefixes = []string{"/bookings/", "/members/community/", "/members/library/"}

// isPrefixRoute reports whether p is one page under an app prefix: a
// non-empty last segment without further slashes.
func isPrefixRoute(p string) bool {
	for _, prefix := range appPrefixes {
		if rest, ok := strings.CutPrefix(p, prefix); ok && rest != "" && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}
