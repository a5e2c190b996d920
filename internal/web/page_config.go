package web

import (
	"encoding/json"
	"fmt"
	"net/url"

	"tribe/internal/config"
)

// configScriptID is the element the web app reads the server's settings
// for pages from (web/src/lib/page-config.ts). Unlike #tribe-content it
// does not stop hydration: no prerendered text depends on it.
const configScriptID = "tribe-config"

// pageConfigScript returns the <script type="application/json"> element
// that carries PageConfig into every page, or nil when nothing is set.
func pageConfigScript(c *config.Config) ([]byte, error) {
	pc := PageConfig{GoalWidgetURL: c.GoalWidgetURL}
	if pc == (PageConfig{}) {
		return nil, nil
	}
	// json.Marshal escapes <, > and &, so no value can end the element early.
	body, err := json.Marshal(pc)
	if err != nil {
		return nil, fmt.Errorf("encode page config: %w", err)
	}
	return fmt.Appendf(nil, `<script id="%s" type="application/json">%s</script>`, configScriptID, body), nil
}

// scriptOrigin is the origin (scheme://host[:port]) of a script URL that
// config validated, for the Content-Security-Policy; "" for none.
func scriptOrigin(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// contentSecurityPolicy is the policy of every response. An external
// script's origin (the goal widget) is added to script-src and, so that the
// widget can call its own service, to connect-src; nothing else is widened.
func contentSecurityPolicy(extraScriptOrigin string) string {
	script, connect := "'self'", "'self'"
	if extraScriptOrigin != "" {
		script += " " + extraScriptOrigin
		connect += " " + extraScriptOrigin
	}
	return "default-src 'self'; script-src " + script + "; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: https:; font-src 'self' data:; connect-src " + connect + "; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
}
