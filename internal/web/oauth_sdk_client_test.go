package web

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"tribe/internal/store/storetest"
)

// toSite sends requests for the site's public address (https://ruv.example)
// to the test server, keeping the Host header, so a client can discover and
// check everything under the address the metadata names.
type toSite struct{ site *url.URL }

func (t toSite) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if r.URL.Host == "ruv.example" {
		r.Host = "ruv.example"
		r.URL.Scheme, r.URL.Host = t.site.Scheme, t.site.Host
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestOAuthGoSDKClientDiscoversAndSignsIn lets the go-sdk's own OAuth client
// do everything from a 401: protected-resource and server metadata,
// dynamic registration, PKCE, the resource indicator, the iss check and the
// token exchange; only the browser is played by the test (as Ada, who
// allows it on the consent page).
func TestOAuthGoSDKClientDiscoversAndSignsIn(t *testing.T) {
	t.Parallel()
	m := oauthSite(t, storetest.Open(t, "", t.TempDir()))
	ada := m.user("ada@example.com")
	m.subscribe(ada, "active")
	site, _ := url.Parse(m.srv.URL)
	httpClient := &http.Client{Transport: toSite{site}}
	browser := &http.Client{Transport: toSite{site}, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(u string) *http.Response {
		req, _ := http.NewRequest("GET", u, nil)
		req.AddCookie(&http.Cookie{Name: "tribe_session", Value: ada.token})
		resp, err := browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	const redirect = "http://127.0.0.1:53682/callback"
	fetcher := func(_ context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		resp := get(args.URL)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusFound {
			t.Fatalf("authorize: %d", resp.StatusCode)
		}
		page := replyOf(get("https://ruv.example" + resp.Header.Get("Location")))
		if page.status != 200 {
			t.Fatalf("consent page: %d %s", page.status, page.body)
		}
		form := url.Values{"decision": {"allow"}}
		for _, f := range hiddenField.FindAllStringSubmatch(page.body, -1) {
			form.Add(f[1], html.UnescapeString(f[2]))
		}
		req, _ := http.NewRequest("POST", "https://ruv.example/oauth/consent", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: "tribe_session", Value: ada.token})
		answer, err := browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = answer.Body.Close()
		back, _ := url.Parse(answer.Header.Get("Location"))
		if !strings.HasPrefix(back.String(), redirect) {
			t.Fatalf("consent answered %d %s", answer.StatusCode, back)
		}
		q := back.Query()
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Go SDK assistant", RedirectURIs: []string{redirect}, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		}},
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: fetcher,
		Client:                   httpClient,
	})
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-oauth-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: "https://ruv.example/mcp", HTTPClient: httpClient, OAuthHandler: handler,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cs.Close() }()
	// The anonymous session knows no member: the member tool's 401 starts
	// the sign-in, and the SDK retries with the token it got.
	sessions := nextSessions(t, cs)
	if sessions == nil {
		t.Fatal("no answer from my_next_sessions after signing in")
	}
	list := m.call(ada, "GET", "/api/members/me/assistants", nil)
	if !strings.Contains(list.body, `"name":"Go SDK assistant"`) || !strings.Contains(list.body, "tribe:write") {
		t.Fatalf("Ada's assistants: %s", list.body)
	}
}
