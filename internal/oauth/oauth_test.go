package oauth_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/errs"
	"tribe/internal/oauth"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

const base = "https://tribe.example"

type fixture struct {
	t     *testing.T
	db    *store.DB
	clock *clocktest.Clock
	svc   *oauth.Service
	user  string
}

func newFixture(t *testing.T, db *store.DB) *fixture {
	t.Helper()
	c := clocktest.New()
	f := &fixture{t: t, db: db, clock: c, svc: oauth.New(db, oauth.Options{BaseURL: base, ResourcePath: "/mcp", Clock: c.Now})}
	f.user = addUser(t, db, "ada@example.com")
	return f
}

func addUser(t *testing.T, db *store.DB, email string) string {
	t.Helper()
	id := store.NewID()
	if _, err := db.Write.Exec(`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $2, 'x')`, id, email); err != nil {
		t.Fatalf("add user: %v", err)
	}
	return id
}

const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-and-more"

func challenge(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// register adds a client with one https redirect URI.
func (f *fixture) register(redirects ...string) string {
	f.t.Helper()
	if len(redirects) == 0 {
		redirects = []string{"https://assistant.example/callback"}
	}
	reg, err := f.svc.Register(context.Background(), oauth.RegisterInput{ClientName: "Test Assistant", RedirectURIs: redirects})
	if err != nil {
		f.t.Fatalf("register: %v", err)
	}
	return reg.ClientID
}

func (f *fixture) request(client string) oauth.AuthorizeRequest {
	return oauth.AuthorizeRequest{ClientID: client, RedirectURI: "https://assistant.example/callback", ResponseType: "code",
		CodeChallenge: challenge(verifier), CodeChallengeMethod: "S256", Resource: base + "/mcp", Scope: "tribe:read", State: "xyz"}
}

// code runs the authorization as the fixture's member and returns the code.
func (f *fixture) code(req oauth.AuthorizeRequest) string {
	f.t.Helper()
	p, err := f.svc.CheckAuthorize(context.Background(), req)
	if err != nil {
		f.t.Fatalf("check authorize: %v", err)
	}
	to, err := f.svc.Approve(context.Background(), f.user, p)
	if err != nil {
		f.t.Fatalf("approve: %v", err)
	}
	u, _ := url.Parse(to)
	if u.Query().Get("state") != req.State || u.Query().Get("iss") != base {
		f.t.Fatalf("redirect %s lacks state or iss", to)
	}
	return u.Query().Get("code")
}

func (f *fixture) tokens(client string) *oauth.TokenResponse {
	f.t.Helper()
	req := f.request(client)
	tok, err := f.svc.Token(context.Background(), oauth.TokenRequest{GrantType: "authorization_code", ClientID: client,
		Code: f.code(req), RedirectURI: req.RedirectURI, CodeVerifier: verifier})
	if err != nil {
		f.t.Fatalf("token: %v", err)
	}
	return tok
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if errs.CodeOf(err) != code {
		t.Fatalf("error %v (code %q), want %q", err, errs.CodeOf(err), code)
	}
}

func TestOAuthCodeRefreshRevoke(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		client := f.register()
		tok := f.tokens(client)
		if tok.TokenType != "Bearer" || tok.ExpiresIn != 3600 || tok.Scope != "tribe:read" || tok.RefreshToken == "" {
			t.Fatalf("token response %+v", tok)
		}
		info, err := f.svc.Verify(ctx, tok.AccessToken)
		if err != nil || info.UserID != f.user || info.ClientID != client || len(info.Scopes) != 1 {
			t.Fatalf("verify: %+v, %v", info, err)
		}
		next, err := f.svc.Token(ctx, oauth.TokenRequest{GrantType: "refresh_token", ClientID: client, RefreshToken: tok.RefreshToken})
		if err != nil || next.RefreshToken == tok.RefreshToken {
			t.Fatalf("refresh: %+v, %v", next, err)
		}
		if _, err := f.svc.Verify(ctx, next.AccessToken); err != nil {
			t.Fatalf("verify refreshed: %v", err)
		}
		list, err := f.svc.Assistants(ctx, f.user)
		if err != nil || len(list) != 1 || list[0].Name != "Test Assistant" || list[0].LastUsedAt == nil {
			t.Fatalf("assistants: %+v, %v", list, err)
		}
		counts, err := f.svc.ClientCounts(ctx)
		if err != nil || len(counts) != 1 || counts[0].Members != 1 {
			t.Fatalf("counts: %+v, %v", counts, err)
		}
		if err := f.svc.Revoke(ctx, next.RefreshToken, client); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Verify(ctx, next.AccessToken); err == nil {
			t.Fatal("an access token of a revoked grant still verifies")
		}
		if list, _ := f.svc.Assistants(ctx, f.user); len(list) != 0 {
			t.Fatalf("a revoked assistant is still listed: %+v", list)
		}
	})
}

func TestOAuthWrongVerifierRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		client := f.register()
		req := f.request(client)
		code := f.code(req)
		_, err := f.svc.Token(context.Background(), oauth.TokenRequest{GrantType: "authorization_code", ClientID: client,
			Code: code, RedirectURI: req.RedirectURI, CodeVerifier: strings.Repeat("a", 50)})
		wantCode(t, err, errs.InvalidGrant)
		// The code had its one try.
		_, err = f.svc.Token(context.Background(), oauth.TokenRequest{GrantType: "authorization_code", ClientID: client,
			Code: code, RedirectURI: req.RedirectURI, CodeVerifier: verifier})
		wantCode(t, err, errs.InvalidGrant)
	})
}

func TestOAuthReusedCodeRevokesItsTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		client := f.register()
		req := f.request(client)
		code := f.code(req)
		in := oauth.TokenRequest{GrantType: "authorization_code", ClientID: client, Code: code, RedirectURI: req.RedirectURI, CodeVerifier: verifier}
		tok, err := f.svc.Token(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.Token(ctx, in)
		wantCode(t, err, errs.InvalidGrant)
		if _, err := f.svc.Verify(ctx, tok.AccessToken); err == nil {
			t.Fatal("the access token of a reused code still verifies")
		}
		_, err = f.svc.Token(ctx, oauth.TokenRequest{GrantType: "refresh_token", ClientID: client, RefreshToken: tok.RefreshToken})
		wantCode(t, err, errs.InvalidGrant)
	})
}

func TestOAuthExpiredCodeRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		client := f.register()
		req := f.request(client)
		code := f.code(req)
		f.clock.Advance(oauth.CodeTTL)
		_, err := f.svc.Token(context.Background(), oauth.TokenRequest{GrantType: "authorization_code", ClientID: client,
			Code: code, RedirectURI: req.RedirectURI, CodeVerifier: verifier})
		wantCode(t, err, errs.InvalidGrant)
	})
}

func TestOAuthMismatchedRedirectURIRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		client := f.register()
		req := f.request(client)
		req.RedirectURI = "https://assistant.example/callback/other"
		if p, err := f.svc.CheckAuthorize(context.Background(), req); p != nil || err == nil {
			t.Fatalf("a redirect URI never registered was accepted (pending %v, err %v)", p, err)
		}
		// At the token endpoint, a redirect_uri other than the request's.
		req = f.request(client)
		_, err := f.svc.Token(context.Background(), oauth.TokenRequest{GrantType: "authorization_code", ClientID: client,
			Code: f.code(req), RedirectURI: "https://assistant.example/elsewhere", CodeVerifier: verifier})
		wantCode(t, err, errs.InvalidGrant)
	})
}

func TestOAuthLoopbackRedirectAnyPort(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		client := f.register("http://127.0.0.1/callback", "http://localhost:3000/cb")
		for uri, ok := range map[string]bool{
			"http://127.0.0.1:53124/callback":  true,
			"http://127.0.0.1/callback":        true,
			"http://localhost:8123/cb":         true,
			"http://127.0.0.1:53124/other":     false,
			"http://localhost:8123/callback":   false,
			"https://127.0.0.1:53124/callback": false,
		} {
			req := f.request(client)
			req.RedirectURI = uri
			p, _ := f.svc.CheckAuthorize(context.Background(), req)
			if (p != nil) != ok {
				t.Errorf("redirect %s accepted %v, want %v", uri, p != nil, ok)
			}
		}
	})
}

func TestOAuthPlainHTTPRedirectRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		for _, uri := range []string{"http://assistant.example/callback", "javascript:alert(1)", "https://a.example/cb#frag", "http://10.0.0.1/cb"} {
			_, err := f.svc.Register(context.Background(), oauth.RegisterInput{ClientName: "x", RedirectURIs: []string{uri}})
			wantCode(t, err, errs.InvalidRedirectURI)
		}
	})
}

func TestOAuthOtherResourceRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		client := f.register()
		req := f.request(client)
		req.Resource = "https://elsewhere.example/mcp"
		p, err := f.svc.CheckAuthorize(ctx, req)
		wantCode(t, err, errs.InvalidTarget)
		if to := f.svc.ErrorRedirect(p, err); !strings.Contains(to, "error=invalid_target") || !strings.Contains(to, "state=xyz") {
			t.Fatalf("error redirect %s", to)
		}
		// A token this server issued for its resource is refused by a
		// resource server at another address sharing the tables.
		tok := f.tokens(client)
		other := oauth.New(db, oauth.Options{BaseURL: "https://elsewhere.example", ResourcePath: "/mcp", Clock: f.clock.Now})
		if _, err := other.Verify(ctx, tok.AccessToken); err == nil {
			t.Fatal("a token for another resource verified")
		}
	})
}

func TestOAuthExpiredAccessTokenRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		tok := f.tokens(f.register())
		f.clock.Advance(oauth.AccessTTL - time.Second)
		if _, err := f.svc.Verify(context.Background(), tok.AccessToken); err != nil {
			t.Fatalf("a token a second before expiry: %v", err)
		}
		f.clock.Advance(time.Second)
		if _, err := f.svc.Verify(context.Background(), tok.AccessToken); err == nil {
			t.Fatal("an expired access token verified")
		}
	})
}

func TestOAuthRevokedGrantRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		client := f.register()
		tok := f.tokens(client)
		if err := f.svc.RevokeClient(ctx, f.user, client); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Verify(ctx, tok.AccessToken); err == nil {
			t.Fatal("a revoked grant's token verified")
		}
		_, err := f.svc.Token(ctx, oauth.TokenRequest{GrantType: "refresh_token", ClientID: client, RefreshToken: tok.RefreshToken})
		wantCode(t, err, errs.InvalidGrant)
		wantCode(t, f.svc.RevokeClient(ctx, f.user, client), errs.NotFound)
	})
}

func TestOAuthReplayedRefreshTokenRevokesGrant(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		client := f.register()
		tok := f.tokens(client)
		next, err := f.svc.Token(ctx, oauth.TokenRequest{GrantType: "refresh_token", ClientID: client, RefreshToken: tok.RefreshToken})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.Token(ctx, oauth.TokenRequest{GrantType: "refresh_token", ClientID: client, RefreshToken: tok.RefreshToken})
		wantCode(t, err, errs.InvalidGrant)
		if _, err := f.svc.Verify(ctx, next.AccessToken); err == nil {
			t.Fatal("the rotated pair survived a replay of the old refresh token")
		}
		_, err = f.svc.Token(ctx, oauth.TokenRequest{GrantType: "refresh_token", ClientID: client, RefreshToken: next.RefreshToken})
		wantCode(t, err, errs.InvalidGrant)
	})
}

func TestOAuthRefreshOfAnotherClientRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		tok := f.tokens(f.register())
		_, err := f.svc.Token(context.Background(), oauth.TokenRequest{GrantType: "refresh_token", ClientID: f.register(), RefreshToken: tok.RefreshToken})
		wantCode(t, err, errs.InvalidGrant)
	})
}

func TestOAuthAuthorizeRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		client := f.register()
		for name, c := range map[string]struct {
			edit func(*oauth.AuthorizeRequest)
			code string
		}{
			"plain PKCE":     {func(r *oauth.AuthorizeRequest) { r.CodeChallengeMethod = "plain" }, errs.InvalidRequest},
			"no challenge":   {func(r *oauth.AuthorizeRequest) { r.CodeChallenge = "" }, errs.InvalidRequest},
			"token response": {func(r *oauth.AuthorizeRequest) { r.ResponseType = "token" }, errs.UnsupportedResponseType},
			"unknown scope":  {func(r *oauth.AuthorizeRequest) { r.Scope = "tribe:admin" }, errs.InvalidScope},
		} {
			req := f.request(client)
			c.edit(&req)
			p, err := f.svc.CheckAuthorize(context.Background(), req)
			if p == nil {
				t.Errorf("%s: not redirected back to the client", name)
			}
			if errs.CodeOf(err) != c.code {
				t.Errorf("%s: %v, want %s", name, err, c.code)
			}
		}
		req := f.request("tribe-unknown")
		if p, err := f.svc.CheckAuthorize(context.Background(), req); p != nil || errs.CodeOf(err) != errs.InvalidClient {
			t.Errorf("unknown client: %v %v", p, err)
		}
	})
}

func TestOAuthClientMetadataDocument(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var fetches int
		var srv *httptest.Server
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fetches++
			fmt.Fprintf(w, `{"client_id": %q, "client_name": "Doc Assistant", "redirect_uris": ["https://assistant.example/callback"], "token_endpoint_auth_method": "none"}`,
				srv.URL+r.URL.Path)
		}))
		defer srv.Close()
		c := clocktest.New()
		svc := oauth.New(db, oauth.Options{BaseURL: base, ResourcePath: "/mcp", Clock: c.Now, AllowPrivate: true})
		user := addUser(t, db, "doc@example.com")
		ctx := context.Background()
		id := srv.URL + "/client.json"
		req := oauth.AuthorizeRequest{ClientID: id, RedirectURI: "https://assistant.example/callback", ResponseType: "code",
			CodeChallenge: challenge(verifier), CodeChallengeMethod: "S256"}
		p, err := svc.CheckAuthorize(ctx, req)
		if err != nil || p.Client.Name != "Doc Assistant" {
			t.Fatalf("metadata client: %+v %v", p, err)
		}
		to, err := svc.Approve(ctx, user, p)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(to)
		if _, err := svc.Token(ctx, oauth.TokenRequest{GrantType: "authorization_code", ClientID: id, Code: u.Query().Get("code"),
			RedirectURI: req.RedirectURI, CodeVerifier: verifier}); err != nil {
			t.Fatal(err)
		}
		if fetches != 1 {
			t.Errorf("fetched the document %d times, want 1 (cached)", fetches)
		}
		req.RedirectURI = "https://evil.example/callback"
		if p, _ := svc.CheckAuthorize(ctx, req); p != nil {
			t.Error("a redirect URI the document does not list was accepted")
		}
	})
}

func TestOAuthClientMetadataDocumentPrivateAddressRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var fetched bool
		srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { fetched = true }))
		defer srv.Close()
		f := newFixture(t, db)
		for _, id := range []string{srv.URL + "/client.json", "https://localhost/client.json", "https://10.1.2.3/client.json", "http://assistant.example/client.json"} {
			req := f.request(id)
			p, err := f.svc.CheckAuthorize(context.Background(), req)
			if p != nil || errs.CodeOf(err) != errs.InvalidClient {
				t.Errorf("client id %s: %v %v", id, p, err)
			}
		}
		// A public name that resolves to a private address is stopped by
		// the guard's dialer.
		svc := oauth.New(db, oauth.Options{BaseURL: base, ResourcePath: "/mcp"})
		id := "https://" + strings.Replace(srv.Listener.Addr().String(), "127.0.0.1", "localtest.me", 1) + "/client.json"
		if _, err := svc.CheckAuthorize(context.Background(), f.request(id)); errs.CodeOf(err) != errs.InvalidClient {
			t.Errorf("a name resolving to loopback: %v", err)
		}
		if fetched {
			t.Error("the server fetched from a private address")
		}
	})
}

func TestOAuthSweepKeepsWhatCanStillMatter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		client := f.register()
		tok := f.tokens(client)
		count := func(table string) int {
			var n int
			if err := db.Read.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		f.clock.Advance(2 * oauth.AccessTTL)
		if err := f.svc.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		// The access token expired an hour ago: kept a day, so nothing goes yet.
		if count("oauth_tokens") != 2 || count("oauth_codes") != 1 {
			t.Fatalf("swept too early: %d tokens, %d codes", count("oauth_tokens"), count("oauth_codes"))
		}
		f.clock.Advance(25 * time.Hour)
		if err := f.svc.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		if count("oauth_tokens") != 1 || count("oauth_codes") != 0 {
			t.Fatalf("after a day: %d tokens, %d codes", count("oauth_tokens"), count("oauth_codes"))
		}
		// The refresh token still works.
		if _, err := f.svc.Token(ctx, oauth.TokenRequest{GrantType: "refresh_token", ClientID: client, RefreshToken: tok.RefreshToken}); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.RevokeClient(ctx, f.user, client); err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(25 * time.Hour)
		if err := f.svc.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		if count("oauth_grants") != 0 || count("oauth_tokens") != 0 {
			t.Fatalf("a grant revoked a day ago stays: %d grants, %d tokens", count("oauth_grants"), count("oauth_tokens"))
		}
		// Clients without a grant (the first one's was swept, a new one
		// never had any) go after UnusedClientLife.
		f.register()
		if err := f.svc.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		if n := count("oauth_clients"); n != 2 {
			t.Fatalf("%d clients before their life is over, want 2", n)
		}
		f.clock.Advance(oauth.UnusedClientLife + time.Minute)
		if err := f.svc.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		if n := count("oauth_clients"); n != 0 {
			t.Fatalf("%d unused clients kept past their life", n)
		}
	})
}
