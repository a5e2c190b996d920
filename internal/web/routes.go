package web

// appRoutes are the paths the web app renders. Any other path that is not a
// file of the built app answers 404. Keep in step with web/src/app/routes.tsx
// (the web unit tests check the same list).
var appRoutes = []string{
	"/", "/about", "/projects", "/mcp", "/tribe", "/booking", "/auth", "/members",
	"/agent-test", "/goal", "/lean-agentic", "/midstreamer", "/agentic-payments",
	"/ai-defence", "/aimds",
}
