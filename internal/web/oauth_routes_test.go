package web

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"tribe/internal/auth"
	"tribe/internal/oauth"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

const (
	oauthRedirect = "https://assistant.example/callback"
	oauthVerifier = "a-long-enough-pkce-code-verifier-of-at-least-43-characters"
)

func oauthChallenge(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// oauthSite is a members site (https://ruv.example) for the OAuth tests.
func oauthSite(t *testing.T, db *store.DB, opts ...siteOption) *testSite {
	return newTestSite(t, db, membersEnv(), opts...)
}

// oauthRegister registers a client with redirect URIs and returns its id.
func (m *testSite) oauthRegister(redirects ...string) string {
	m.t.Helper()
	if len(redirects) == 0 {
		redirects = []string{oauthRedirect}
	}
	r := m.call(testUser{}, "POST", oauth.RegisterPath, map[string]any{"client_name": "Test Assistant", "redirect_uris": redirects,
		"token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"}})
	if r.status != 201 {
		m.t.Fatalf("register: %d %s", r.status, r.body)
	}
	return r.json["client_id"].(string)
}

// oauthParams are an authorization request's parameters for client.
func (m *testSite) oauthParams(client, scope string) url.Values {
	return url.Values{"client_id": {client}, "redirect_uri": {oauthRedirect}, "response_type": {"code"},
		"code_challenge": {oauthChallenge(oauthVerifier)}, "code_challenge_method": {"S256"},
		"resource": {m.cfg.BaseURL + "/mcp"}, "scope": {scope}, "state": {"st-123"}}
}

var hiddenField = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// consentForm opens the authorization endpoint as u, follows it to the
// consent page and returns the page and the form's fields.
func (m *testSite) consentForm(u testUser, params url.Values) (reply, url.Values) {
	m.t.Helper()
	r := m.call(u, "GET", oauth.AuthorizePath+"?"+params.Encode(), nil)
	if r.status != http.StatusFound || !strings.HasPrefix(r.header.Get("Location"), oauth.ConsentPath+"?") {
		m.t.Fatalf("authorize: %d %s %s", r.status, r.header.Get("Location"), r.body)
	}
	page := m.call(u, "GET", r.header.Get("Location"), nil)
	if page.status != 200 {
		m.t.Fatalf("consent page: %d %s", page.status, page.body)
	}
	fields := url.Values{}
	for _, f := range hiddenField.FindAllStringSubmatch(page.body, -1) {
		fields.Add(f[1], html.UnescapeString(f[2]))
	}
	return page, fields
}

// oauthCode runs authorize and consent as u and returns the code.
func (m *testSite) oauthCode(u testUser, client, scope string) string {
	m.t.Helper()
	_, fields := m.consentForm(u, m.oauthParams(client, scope))
	fields.Set("decision", "allow")
	r := m.call(u, "POST", oauth.ConsentPath, fields)
	if r.status != http.StatusSeeOther {
		m.t.Fatalf("consent: %d %s", r.status, r.body)
	}
	to, _ := url.Parse(r.header.Get("Location"))
	if !strings.HasPrefix(to.String(), oauthRedirect+"?") || to.Query().Get("state") != "st-123" || to.Query().Get("iss") != m.cfg.BaseURL {
		m.t.Fatalf("consent redirect %s", to)
	}
	return to.Query().Get("code")
}

// oauthTokens runs the whole grant as u and returns the token answer.
func (m *testSite) oauthTokens(u testUser, client, scope string) map[string]any {
	m.t.Helper()
	r := m.call(testUser{}, "POST", oauth.TokenPath, url.Values{"grant_type": {"authorization_code"}, "client_id": {client},
		"code": {m.oauthCode(u, client, scope)}, "redirect_uri": {oauthRedirect}, "code_verifier": {oauthVerifier},
		"resource": {m.cfg.BaseURL + "/mcp"}})
	if r.status != 200 {
		m.t.Fatalf("token: %d %s", r.status, r.body)
	}
	return r.json
}

func TestOAuthMetadataDocuments(t *testing.T) {
	t.Parallel()
	m := oauthSite(t, storetest.Open(t, "", t.TempDir()))
	for _, p := range []string{oauth.ResourceMetadataPath, oauth.ResourceMetadataPath + "/mcp"} {
		r := m.call(testUser{}, "GET", p, nil)
		if r.status != 200 || r.json["resource"] != "https://ruv.example/mcp" || r.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("%s: %d %s", p, r.status, r.body)
		}
		if as := r.json["authorization_servers"].([]any); len(as) != 1 || as[0] != "https://ruv.example" {
			t.Errorf("authorization_servers %v", as)
		}
	}
	r := m.call(testUser{}, "GET", oauth.MetadataPath, nil)
	want := map[string]any{
		"issuer": "https://ruv.example", "authorization_endpoint": "https://ruv.example/oauth/authorize",
		"token_endpoint": "https://ruv.example/oauth/token", "registration_endpoint": "https://ruv.example/oauth/register",
		"revocation_endpoint": "https://ruv.example/oauth/revoke", "client_id_metadata_document_supported": true,
	}
	for k, v := range want {
		if r.json[k] != v {
			t.Errorf("%s = %v, want %v", k, r.json[k], v)
		}
	}
	for k, v := range map[string]string{"code_challenge_methods_supported": "[S256]", "response_types_supported": "[code]",
		"token_endpoint_auth_methods_supported": "[none]", "scopes_supported": "[tribe:read tribe:write]",
		"grant_types_supported": "[authorization_code refresh_token]"} {
		if got := fmt.Sprint(r.json[k]); got != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
}

func TestOAuthConsentFlowOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := oauthSite(t, db)
		u := m.user("ada@example.com")
		client := m.oauthRegister()
		tok := m.oauthTokens(u, client, "tribe:read tribe:write")
		if tok["token_type"] != "Bearer" || tok["scope"] != "tribe:read tribe:write" || tok["expires_in"] != float64(3600) {
			t.Fatalf("token answer %v", tok)
		}
		// Refresh rotates; the token answer is never cached.
		r := m.call(testUser{}, "POST", oauth.TokenPath, url.Values{"grant_type": {"refresh_token"}, "client_id": {client},
			"refresh_token": {tok["refresh_token"].(string)}})
		if r.status != 200 || r.header.Get("Cache-Control") != "no-store" || r.json["refresh_token"] == tok["refresh_token"] {
			t.Fatalf("refresh: %d %v %s", r.status, r.header, r.body)
		}
		// Revocation answers 200 for known and unknown tokens alike.
		for _, token := range []string{r.json["refresh_token"].(string), "unknown"} {
			if rv := m.call(testUser{}, "POST", oauth.RevokePath, url.Values{"token": {token}, "client_id": {client}}); rv.status != 200 {
				t.Fatalf("revoke: %d %s", rv.status, rv.body)
			}
		}
		r = m.call(testUser{}, "POST", oauth.TokenPath, url.Values{"grant_type": {"refresh_token"}, "client_id": {client},
			"refresh_token": {r.json["refresh_token"].(string)}})
		if r.status != 400 || r.json["error"] != "invalid_grant" {
			t.Fatalf("refresh after revoke: %d %s", r.status, r.body)
		}
	})
}

func TestOAuthTokenErrorsFollowRFC6749(t *testing.T) {
	t.Parallel()
	m := oauthSite(t, storetest.Open(t, "", t.TempDir()))
	u := m.user("ada@example.com")
	client := m.oauthRegister()
	code := m.oauthCode(u, client, "tribe:read")
	for name, c := range map[string]struct {
		form   url.Values
		status int
		code   string
	}{
		"unsupported grant": {url.Values{"grant_type": {"password"}, "client_id": {client}}, 400, "unsupported_grant_type"},
		"no grant type":     {url.Values{"client_id": {client}}, 400, "invalid_request"},
		"no client":         {url.Values{"grant_type": {"authorization_code"}, "code": {code}}, 401, "invalid_client"},
		"wrong verifier": {url.Values{"grant_type": {"authorization_code"}, "client_id": {client}, "code": {code},
			"redirect_uri": {oauthRedirect}, "code_verifier": {strings.Repeat("b", 60)}}, 400, "invalid_grant"},
	} {
		r := m.call(testUser{}, "POST", oauth.TokenPath, c.form)
		if r.status != c.status || r.json["error"] != c.code || r.json["error_description"] == "" || r.header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d %s", name, r.status, r.body)
		}
	}
}

func TestOAuthConsentPageCannotBeFramed(t *testing.T) {
	t.Parallel()
	m := oauthSite(t, storetest.Open(t, "", t.TempDir()))
	u := m.user("ada@example.com")
	page, fields := m.consentForm(u, m.oauthParams(m.oauthRegister(), "tribe:read"))
	csp := page.header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors 'none'") || page.header.Get("X-Frame-Options") != "DENY" {
		t.Fatalf("consent page headers: CSP %q, X-Frame-Options %q", csp, page.header.Get("X-Frame-Options"))
	}
	if !strings.Contains(csp, "form-action 'self' https://assistant.example") {
		t.Errorf("the form's redirect to the client is not allowed by the CSP: %q", csp)
	}
	for _, want := range []string{"Test Assistant", oauthRedirect, "ada@example.com", "chose this name itself"} {
		if !strings.Contains(page.body, want) {
			t.Errorf("the consent page does not show %q", want)
		}
	}
	if fields.Get("csrf_token") == "" {
		t.Fatal("no CSRF token in the form")
	}
}

func TestOAuthConsentWithoutCSRFTokenRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := oauthSite(t, db)
		u, other := m.user("ada@example.com"), m.user("bob@example.com")
		_, fields := m.consentForm(u, m.oauthParams(m.oauthRegister(), "tribe:read"))
		fields.Set("decision", "allow")
		token := fields.Get("csrf_token")
		fields.Del("csrf_token")
		if r := m.call(u, "POST", oauth.ConsentPath, fields); r.status != 403 {
			t.Fatalf("consent without a CSRF token: %d %s", r.status, r.header.Get("Location"))
		}
		// Another member's session cannot use Ada's form.
		fields.Set("csrf_token", token)
		if r := m.call(other, "POST", oauth.ConsentPath, fields); r.status != 403 {
			t.Fatalf("consent with another session's token: %d", r.status)
		}
		// Nor can Ada's token approve a different request (another scope).
		fields.Set("scope", "tribe:read tribe:write")
		if r := m.call(u, "POST", oauth.ConsentPath, fields); r.status != 403 {
			t.Fatalf("consent with a token for another request: %d", r.status)
		}
		// A cross-site POST is refused before the handler.
		fields.Set("scope", "tribe:read")
		req, _ := http.NewRequest("POST", m.srv.URL+oauth.ConsentPath, strings.NewReader(fields.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: u.token})
		if r := m.do(req); r.status != 403 {
			t.Fatalf("cross-site consent: %d", r.status)
		}
		if n := m.count(`SELECT COUNT(*) FROM oauth_grants`); n != 0 {
			t.Fatalf("%d grants recorded", n)
		}
	})
}

func TestOAuthConsentDenied(t *testing.T) {
	t.Parallel()
	m := oauthSite(t, storetest.Open(t, "", t.TempDir()))
	u := m.user("ada@example.com")
	_, fields := m.consentForm(u, m.oauthParams(m.oauthRegister(), "tribe:read"))
	fields.Set("decision", "deny")
	r := m.call(u, "POST", oauth.ConsentPath, fields)
	to, _ := url.Parse(r.header.Get("Location"))
	if r.status != http.StatusSeeOther || to.Query().Get("error") != "access_denied" || to.Query().Get("state") != "st-123" || to.Query().Get("code") != "" {
		t.Fatalf("deny: %d %s", r.status, to)
	}
}

func TestOAuthAuthorizeSignedOutGoesToSignIn(t *testing.T) {
	t.Parallel()
	m := oauthSite(t, storetest.Open(t, "", t.TempDir()))
	params := m.oauthParams(m.oauthRegister(), "tribe:read")
	r := m.call(testUser{}, "GET", oauth.ConsentPath+"?"+params.Encode(), nil)
	loc, _ := url.Parse(r.header.Get("Location"))
	if r.status != http.StatusFound || loc.Path != "/auth" || !strings.HasPrefix(loc.Query().Get("return"), oauth.ConsentPath+"?") {
		t.Fatalf("signed out: %d %s", r.status, loc)
	}
}

func TestOAuthMismatchedRedirectURIShowsErrorPage(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := oauthSite(t, db)
		u := m.user("ada@example.com")
		params := m.oauthParams(m.oauthRegister(), "tribe:read")
		params.Set("redirect_uri", "https://evil.example/callback")
		for _, p := range []string{oauth.AuthorizePath, oauth.ConsentPath} {
			r := m.call(u, "GET", p+"?"+params.Encode(), nil)
			if r.status != 400 || r.header.Get("Location") != "" || !strings.Contains(r.body, "not one this assistant registered") {
				t.Fatalf("%s: %d %q", p, r.status, r.header.Get("Location"))
			}
			if !strings.Contains(r.header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
				t.Errorf("error page CSP %q", r.header.Get("Content-Security-Policy"))
			}
		}
		params = m.oauthParams("tribe-no-such-client", "tribe:read")
		if r := m.call(u, "GET", oauth.AuthorizePath+"?"+params.Encode(), nil); r.status != 400 || r.header.Get("Location") != "" {
			t.Fatalf("unknown client: %d %q", r.status, r.header.Get("Location"))
		}
	})
}

func TestOAuthAuthorizeRefusalsGoBackToClient(t *testing.T) {
	t.Parallel()
	m := oauthSite(t, storetest.Open(t, "", t.TempDir()))
	u := m.user("ada@example.com")
	client := m.oauthRegister()
	for name, c := range map[string]struct{ key, value, code string }{
		"other resource": {"resource", "https://elsewhere.example/mcp", "invalid_target"},
		"plain PKCE":     {"code_challenge_method", "plain", "invalid_request"},
		"unknown scope":  {"scope", "tribe:admin", "invalid_scope"},
	} {
		params := m.oauthParams(client, "tribe:read")
		params.Set(c.key, c.value)
		r := m.call(u, "GET", oauth.AuthorizePath+"?"+params.Encode(), nil)
		to, _ := url.Parse(r.header.Get("Location"))
		if r.status != http.StatusFound || !strings.HasPrefix(to.String(), oauthRedirect) || to.Query().Get("error") != c.code {
			t.Errorf("%s: %d %s", name, r.status, to)
		}
	}
}

func TestOAuthRegisterRefusesPlainHTTPRedirect(t *testing.T) {
	t.Parallel()
	m := oauthSite(t, storetest.Open(t, "", t.TempDir()))
	r := m.call(testUser{}, "POST", oauth.RegisterPath, map[string]any{"client_name": "x", "redirect_uris": []string{"http://assistant.example/cb"}})
	if r.status != 400 || r.json["error"] != "invalid_redirect_uri" {
		t.Fatalf("plain http redirect: %d %s", r.status, r.body)
	}
	r = m.call(testUser{}, "POST", oauth.RegisterPath, map[string]any{"client_name": "x", "redirect_uris": []string{"http://127.0.0.1/cb"}})
	if r.status != 201 {
		t.Fatalf("loopback redirect: %d %s", r.status, r.body)
	}
}

func TestOAuthRegistrationRateLimited(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := oauthSite(t, db)
		var last reply
		for range oauthRegisterBurst + 1 {
			last = m.call(testUser{}, "POST", oauth.RegisterPath, map[string]any{"client_name": "x", "redirect_uris": []string{oauthRedirect}})
		}
		if last.status != 429 || last.header.Get("Retry-After") == "" {
			t.Fatalf("registration %d: %d %s", oauthRegisterBurst+1, last.status, last.body)
		}
		if n := m.count(`SELECT COUNT(*) FROM oauth_clients`); n != oauthRegisterBurst {
			t.Fatalf("%d clients registered, want %d", n, oauthRegisterBurst)
		}
	})
}

func TestOAuthReplayedRefreshTokenRevokesGrantOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m, _, _ := assistantSite(t, db)
		ada := m.user("ada@example.com")
		client := m.oauthRegister()
		tok := m.oauthTokens(ada, client, "tribe:read")
		refresh := func(token string) reply {
			return m.call(testUser{}, "POST", oauth.TokenPath, url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {token}})
		}
		rotated := refresh(tok["refresh_token"].(string))
		if rotated.status != 200 {
			t.Fatalf("refresh: %d %s", rotated.status, rotated.body)
		}
		// Someone replays the old refresh token: refused, and the rotated
		// pair (held by the real client or the thief) dies with the grant.
		if r := refresh(tok["refresh_token"].(string)); r.status != 400 || r.json["error"] != "invalid_grant" {
			t.Fatalf("replay: %d %s", r.status, r.body)
		}
		if _, err := m.assistant(rotated.json["access_token"].(string)); err == nil {
			t.Fatal("the rotated access token survived the replay")
		}
		if r := refresh(rotated.json["refresh_token"].(string)); r.status != 400 {
			t.Fatalf("the rotated refresh token survived the replay: %d", r.status)
		}
	})
}

func TestOAuthReusedCodeRevokesTokensOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m, _, _ := assistantSite(t, db)
		ada := m.user("ada@example.com")
		client := m.oauthRegister()
		form := url.Values{"grant_type": {"authorization_code"}, "client_id": {client}, "code": {m.oauthCode(ada, client, "tribe:read")},
			"redirect_uri": {oauthRedirect}, "code_verifier": {oauthVerifier}}
		first := m.call(testUser{}, "POST", oauth.TokenPath, form)
		if first.status != 200 {
			t.Fatalf("first exchange: %d %s", first.status, first.body)
		}
		if r := m.call(testUser{}, "POST", oauth.TokenPath, form); r.status != 400 || r.json["error"] != "invalid_grant" {
			t.Fatalf("second exchange: %d %s", r.status, r.body)
		}
		if _, err := m.assistant(first.json["access_token"].(string)); err == nil {
			t.Fatal("the token of a reused code still works")
		}
	})
}

func TestOAuthMetadataClientFetchesRateLimited(t *testing.T) {
	t.Parallel()
	m := oauthSite(t, storetest.Open(t, "", t.TempDir()))
	params := m.oauthParams("https://localhost/client.json", "tribe:read")
	var last reply
	for range oauthMetadataBurst + 1 {
		last = m.call(testUser{}, "GET", oauth.AuthorizePath+"?"+params.Encode(), nil)
	}
	if last.status != 429 || last.header.Get("Retry-After") == "" {
		t.Fatalf("authorization %d with a URL client id: %d", oauthMetadataBurst+1, last.status)
	}
	// Registered clients are not counted.
	params = m.oauthParams(m.oauthRegister(), "tribe:read")
	if r := m.call(testUser{}, "GET", oauth.AuthorizePath+"?"+params.Encode(), nil); r.status != http.StatusFound {
		t.Fatalf("a registered client after the limit: %d", r.status)
	}
}

func TestOAuthSecretsNeverLogged(t *testing.T) {
	t.Parallel()
	var log syncBuffer
	m := oauthSite(t, storetest.Open(t, "", t.TempDir()), withLog(&log))
	ada := m.user("ada@example.com")
	client := m.oauthRegister()
	code := m.oauthCode(ada, client, "tribe:read")
	r := m.call(testUser{}, "POST", oauth.TokenPath, url.Values{"grant_type": {"authorization_code"}, "client_id": {client},
		"code": {code}, "redirect_uri": {oauthRedirect}, "code_verifier": {oauthVerifier}})
	if r.status != 200 {
		t.Fatalf("token: %d", r.status)
	}
	access, refresh := r.json["access_token"].(string), r.json["refresh_token"].(string)
	m.mcpPost(toolsList, map[string]string{"Authorization": "Bearer " + access, "Accept": "application/json, text/event-stream"})
	rotated := m.call(testUser{}, "POST", oauth.TokenPath, url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {refresh}})
	// A replay is logged as a warning, by grant, never by token.
	m.call(testUser{}, "POST", oauth.TokenPath, url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {refresh}})
	m.call(testUser{}, "POST", oauth.RevokePath, url.Values{"token": {rotated.json["refresh_token"].(string)}})
	out := log.String()
	if !strings.Contains(out, "/oauth/token") {
		t.Fatalf("the requests were not logged at all: %s", out)
	}
	for name, secret := range map[string]string{"code": code, "access token": access, "refresh token": refresh,
		"rotated access token": rotated.json["access_token"].(string), "rotated refresh token": rotated.json["refresh_token"].(string),
		"session": ada.token} {
		if strings.Contains(out, secret) {
			t.Errorf("the log holds the %s", name)
		}
	}
}
