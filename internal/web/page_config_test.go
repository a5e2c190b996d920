package web

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"tribe/internal/config"
	"tribe/internal/store/storetest"
)

// widgetServer is a test server with TRIBE_GOAL_WIDGET_URL set to widget
// ("" leaves it unset).
func widgetServer(t *testing.T, widget string) *httptest.Server {
	t.Helper()
	cfg, err := config.Load(func(k string) string {
		if k == "TRIBE_GOAL_WIDGET_URL" {
			return widget
		}
		return ""
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	db := storetest.Open(t, "", t.TempDir())
	h, err := New(testOptions(t, cfg, db))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// directive is one directive of a Content-Security-Policy, e.g. "script-src 'self'".
func directive(csp, name string) string {
	for _, d := range strings.Split(csp, ";") {
		if d = strings.TrimSpace(d); strings.HasPrefix(d, name+" ") {
			return d
		}
	}
	return ""
}

func TestGoalWidgetWidensTheCSPForItsOriginOnly(t *testing.T) {
	t.Parallel()
	plain := widgetServer(t, "")
	resp, body := get(t, plain, "/", nil)
	csp := resp.Header.Get("Content-Security-Policy")
	if directive(csp, "script-src") != "script-src 'self'" || directive(csp, "connect-src") != "connect-src 'self'" {
		t.Errorf("without a widget: %q", csp)
	}
	if strings.Contains(body, configScriptID) {
		t.Errorf("a page config without settings:\n%s", body)
	}

	srv := widgetServer(t, "https://widgets.example.com:8443/v2/goal.js?x=1")
	resp, _ = get(t, srv, "/about", nil)
	csp = resp.Header.Get("Content-Security-Policy")
	if got := directive(csp, "script-src"); got != "script-src 'self' https://widgets.example.com:8443" {
		t.Errorf("script-src %q", got)
	}
	if got := directive(csp, "connect-src"); got != "connect-src 'self' https://widgets.example.com:8443" {
		t.Errorf("connect-src %q", got)
	}
	for _, name := range []string{"default-src", "style-src", "img-src", "frame-ancestors", "object-src"} {
		if strings.Contains(directive(csp, name), "widgets.example.com") {
			t.Errorf("%s widened: %q", name, csp)
		}
	}
}

func TestGoalWidgetURLReachesThePages(t *testing.T) {
	t.Parallel()
	const widget = "https://widgets.example.com/goal.js?a=1&b=</script>"
	srv := widgetServer(t, "https://widgets.example.com/goal.js?a=1&b=2")
	for _, path := range []string{"/", "/goal", "/about"} {
		_, body := get(t, srv, path, nil)
		start := strings.Index(body, `<script id="tribe-config" type="application/json">`)
		if start < 0 {
			t.Fatalf("%s has no #tribe-config:\n%s", path, body)
		}
		rest := body[start+len(`<script id="tribe-config" type="application/json">`):]
		end := strings.Index(rest, "</script>")
		var pc PageConfig
		if err := json.Unmarshal([]byte(rest[:end]), &pc); err != nil || pc.GoalWidgetURL != "https://widgets.example.com/goal.js?a=1&b=2" {
			t.Errorf("%s: %v %+v", path, err, pc)
		}
		if strings.Index(body, "tribe-config") > strings.LastIndex(body, "</body>") && strings.Contains(body, "</body>") {
			t.Errorf("%s: the config comes after </body>", path)
		}
	}
	// The element cannot be ended early by the URL's text.
	b, err := pageConfigScript(&config.Config{GoalWidgetURL: widget})
	if err != nil || strings.Count(string(b), "</script>") != 1 {
		t.Errorf("%s %v", b, err)
	}
}
