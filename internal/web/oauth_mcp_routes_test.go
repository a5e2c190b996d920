package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"tribe/internal/clock/clocktest"
	"tribe/internal/community"
	"tribe/internal/mcp"
	"tribe/internal/oauth"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// bearer adds an access token to every request, as an MCP client does
// once it holds one.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// assistant connects the go-sdk's client to the site's MCP endpoint with
// an access token.
func (m *testSite) assistant(token string) (*sdk.ClientSession, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: "tribe-assistant-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: m.srv.URL + mcp.Path, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}},
	}, nil)
	if err == nil {
		m.t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

// callTool calls a tool and returns its text and whether it is an error.
func callTool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String(), res.IsError
}

// nextSessions calls my_next_sessions and decodes its answer.
func nextSessions(t *testing.T, cs *sdk.ClientSession) []map[string]any {
	t.Helper()
	text, isErr := callTool(t, cs, "my_next_sessions", nil)
	if isErr {
		t.Fatalf("my_next_sessions: %s", text)
	}
	var out struct {
		Sessions []map[string]any `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("my_next_sessions answer %s: %v", text, err)
	}
	return out.Sessions
}

// assistantSite is a members site on a test clock at the real time (the
// database stamps some rows itself), with a session starting in ten
// minutes (its join window open) and one next week.
func assistantSite(t *testing.T, db *store.DB) (*testSite, *clocktest.Clock, string) {
	t.Helper()
	c := clocktest.At(time.Now().UTC().Truncate(time.Minute))
	m := oauthSite(t, db, withClock(c.Now))
	soon := c.Now().Add(10 * time.Minute)
	var in community.SessionInput
	in.Title, in.Date, in.Time, in.Duration, in.Timezone = "Agent memory", soon.Format("2006-01-02"), soon.Format("15:04"), "1 hour", "UTC"
	in.JoinURL = "https://zoom.us/j/42"
	s, err := community.CreateSession(context.Background(), db, "", in)
	if err != nil {
		t.Fatal(err)
	}
	later := c.Now().Add(7 * 24 * time.Hour)
	in.Title, in.Date, in.Time = "Swarms", later.Format("2006-01-02"), later.Format("15:04")
	if _, err := community.CreateSession(context.Background(), db, "", in); err != nil {
		t.Fatal(err)
	}
	return m, c, s.ID
}

func TestOAuthAssistantEndToEnd(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m, _, soon := assistantSite(t, db)
		ada := m.user("ada@example.com")
		m.subscribe(ada, "active")
		client := m.oauthRegister()
		tok := m.oauthTokens(ada, client, "tribe:read tribe:write")

		cs, err := m.assistant(tok["access_token"].(string))
		if err != nil {
			t.Fatal(err)
		}
		tools, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		for _, tl := range tools.Tools {
			names[tl.Name] = true
		}
		for _, want := range []string{"my_next_sessions", "rsvp_session", "my_progress", "search_tribe", "post_question", "search"} {
			if !names[want] {
				t.Errorf("a token holder is not offered %s", want)
			}
		}
		sessions := nextSessions(t, cs)
		if len(sessions) != 2 || sessions[0]["id"] != soon || sessions[0]["my_rsvp"] != nil {
			t.Fatalf("my_next_sessions: %v", sessions)
		}
		if sessions[0]["join_url"] != m.cfg.BaseURL+"/api/sessions/"+soon+"/join" || sessions[1]["join_url"] != nil {
			t.Errorf("join links: open one %v, next week's %v", sessions[0]["join_url"], sessions[1]["join_url"])
		}
		if text, isErr := callTool(t, cs, "rsvp_session", map[string]any{"session_id": soon, "going": true}); isErr {
			t.Fatalf("rsvp_session: %s", text)
		}
		if got := nextSessions(t, cs)[0]["my_rsvp"]; got != true {
			t.Fatalf("my_rsvp after rsvp_session: %v", got)
		}
		if text, isErr := callTool(t, cs, "my_progress", nil); isErr || !strings.Contains(text, `"level"`) {
			t.Fatalf("my_progress: %s", text)
		}
		text, isErr := callTool(t, cs, "post_question", map[string]any{"title": "How do agents remember?", "body": "What did we say about agent memory?"})
		if isErr || !strings.Contains(text, "/members/community/") {
			t.Fatalf("post_question: %s", text)
		}
		if text, isErr := callTool(t, cs, "search_tribe", map[string]any{"query": "agents remember"}); isErr || !strings.Contains(text, "How do agents remember?") {
			t.Fatalf("search_tribe does not find the thread: %s", text)
		}
		if n := m.count(`SELECT COUNT(*) FROM forum_threads WHERE user_id = $1 AND category = 'question'`, ada.id); n != 1 {
			t.Fatalf("%d questions by Ada", n)
		}

		// The assistants list shows it, used.
		list := m.call(ada, "GET", "/api/members/me/assistants", nil)
		if list.status != 200 || !strings.Contains(list.body, `"name":"Test Assistant"`) || strings.Contains(list.body, `"last_used_at":null`) {
			t.Fatalf("assistants: %d %s", list.status, list.body)
		}

		// Refresh, then the new token works and the old refresh token is spent.
		r := m.call(testUser{}, "POST", oauth.TokenPath, url.Values{"grant_type": {"refresh_token"}, "client_id": {client},
			"refresh_token": {tok["refresh_token"].(string)}})
		if r.status != 200 {
			t.Fatalf("refresh: %d %s", r.status, r.body)
		}
		fresh := r.json["access_token"].(string)
		cs2, err := m.assistant(fresh)
		if err != nil {
			t.Fatal(err)
		}
		if len(nextSessions(t, cs2)) != 2 {
			t.Fatal("the refreshed token does not read the sessions")
		}

		// Revoke (RFC 7009); the endpoint answers 401 with the metadata after.
		if rv := m.call(testUser{}, "POST", oauth.RevokePath, url.Values{"token": {r.json["refresh_token"].(string)}, "client_id": {client}}); rv.status != 200 {
			t.Fatalf("revoke: %d", rv.status)
		}
		after := m.mcpPost(toolsList, map[string]string{"Authorization": "Bearer " + fresh, "Accept": "application/json, text/event-stream"})
		if after.status != 401 || !strings.Contains(after.header.Get("WWW-Authenticate"), `resource_metadata="https://ruv.example/.well-known/oauth-protected-resource"`) {
			t.Fatalf("after revoke: %d %q", after.status, after.header.Get("WWW-Authenticate"))
		}
		if _, err := m.assistant(fresh); err == nil {
			t.Fatal("the SDK client connected with a revoked token")
		}
	})
}

func TestOAuthMemberToolWithoutTokenIs401(t *testing.T) {
	t.Parallel()
	m := oauthSite(t, storetest.Open(t, "", t.TempDir()))
	r := m.mcpPost(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"my_next_sessions","arguments":{}}}`,
		map[string]string{"Accept": "application/json, text/event-stream"})
	if r.status != 401 || r.header.Get("WWW-Authenticate") != `Bearer resource_metadata="https://ruv.example/.well-known/oauth-protected-resource"` {
		t.Fatalf("member tool without a token: %d %q %s", r.status, r.header.Get("WWW-Authenticate"), r.body)
	}
	// Anonymous tools keep working and the list stays anonymous.
	cs := m.mcpSession("")
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if strings.HasPrefix(tl.Name, "my_") || tl.Name == "rsvp_session" || tl.Name == "post_question" {
			t.Errorf("anonymous callers are offered %s", tl.Name)
		}
	}
	if text, isErr := callTool(t, cs, "search", map[string]any{"query": "agents"}); isErr {
		t.Fatalf("anonymous search: %s", text)
	}
	// A bad token is refused even for an anonymous tool.
	bad := m.mcpPost(toolsList, map[string]string{"Authorization": "Bearer not-a-token", "Accept": "application/json, text/event-stream"})
	if bad.status != 401 || !strings.Contains(bad.header.Get("WWW-Authenticate"), "resource_metadata=") {
		t.Fatalf("bad token: %d %q", bad.status, bad.header.Get("WWW-Authenticate"))
	}
}

func TestOAuthExpiredTokenIs401OverMCP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m, c, _ := assistantSite(t, db)
		ada := m.user("ada@example.com")
		tok := m.oauthTokens(ada, m.oauthRegister(), "tribe:read")
		c.Advance(oauth.AccessTTL)
		r := m.mcpPost(toolsList, map[string]string{"Authorization": "Bearer " + tok["access_token"].(string), "Accept": "application/json, text/event-stream"})
		if r.status != 401 || r.header.Get("WWW-Authenticate") == "" {
			t.Fatalf("expired token: %d", r.status)
		}
	})
}

func TestOAuthRevokedGrantIs401OverMCP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m, _, _ := assistantSite(t, db)
		ada := m.user("ada@example.com")
		client := m.oauthRegister()
		tok := m.oauthTokens(ada, client, "tribe:read")
		if r := m.call(ada, "DELETE", "/api/members/me/assistants/"+url.PathEscape(client), nil); r.status != 204 {
			t.Fatalf("revoke in profile: %d %s", r.status, r.body)
		}
		if _, err := m.assistant(tok["access_token"].(string)); err == nil {
			t.Fatal("a revoked grant's token still connects")
		}
	})
}

func TestOAuthScopeNotGrantedNamesTheScope(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m, _, soon := assistantSite(t, db)
		ada := m.user("ada@example.com")
		m.subscribe(ada, "active")
		cs, err := m.assistant(m.oauthTokens(ada, m.oauthRegister(), "tribe:read")["access_token"].(string))
		if err != nil {
			t.Fatal(err)
		}
		text, isErr := callTool(t, cs, "rsvp_session", map[string]any{"session_id": soon, "going": true})
		if !isErr || !strings.Contains(text, "tribe:write") {
			t.Fatalf("rsvp_session with tribe:read only: %v %s", isErr, text)
		}
		if n := m.count(`SELECT COUNT(*) FROM session_rsvps`); n != 0 {
			t.Fatalf("%d RSVPs written", n)
		}
	})
}

func TestOAuthFreeMemberCallingSubscriberTool(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m, _, soon := assistantSite(t, db)
		free := m.user("free@example.com")
		cs, err := m.assistant(m.oauthTokens(free, m.oauthRegister(), "tribe:read tribe:write")["access_token"].(string))
		if err != nil {
			t.Fatal(err)
		}
		text, isErr := callTool(t, cs, "rsvp_session", map[string]any{"session_id": soon, "going": true})
		if !isErr || !strings.Contains(text, "tribe members") {
			t.Fatalf("free member's rsvp_session: %v %s", isErr, text)
		}
		text, isErr = callTool(t, cs, "post_question", map[string]any{"title": "Hi", "body": "Anyone?"})
		if !isErr || !strings.Contains(text, "tribe members") {
			t.Fatalf("free member's post_question: %v %s", isErr, text)
		}
		for _, s := range nextSessions(t, cs) {
			if s["join_url"] != nil {
				t.Fatalf("a free member got a join link: %v", s)
			}
		}
	})
}

func TestOAuthMemberCannotReadAnotherMembersRSVPs(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m, _, soon := assistantSite(t, db)
		ada, bob := m.user("ada@example.com"), m.user("bob@example.com")
		m.subscribe(ada, "active")
		m.subscribe(bob, "active")
		client := m.oauthRegister()
		bobs, err := m.assistant(m.oauthTokens(bob, client, "tribe:read tribe:write")["access_token"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if text, isErr := callTool(t, bobs, "rsvp_session", map[string]any{"session_id": soon, "going": false}); isErr {
			t.Fatal(text)
		}
		adas, err := m.assistant(m.oauthTokens(ada, client, "tribe:read tribe:write")["access_token"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if got := nextSessions(t, adas)[0]["my_rsvp"]; got != nil {
			t.Fatalf("Ada's assistant reads Bob's RSVP: %v", got)
		}
		// No argument names a member: an extra one is refused by the schema.
		text, isErr := callTool(t, adas, "my_next_sessions", map[string]any{"user_id": bob.id})
		if !isErr {
			t.Fatalf("my_next_sessions took a user_id: %s", text)
		}
		if _, isErr := callTool(t, adas, "rsvp_session", map[string]any{"session_id": soon, "going": true}); isErr {
			t.Fatal("Ada's RSVP failed")
		}
		if got := nextSessions(t, bobs)[0]["my_rsvp"]; got != false {
			t.Fatalf("Bob's RSVP changed through Ada's assistant: %v", got)
		}
		// Bookings: Bob's call is his alone.
		start := time.Now().Add(72 * time.Hour).UTC().Truncate(time.Minute)
		m.exec(`INSERT INTO bookings (id, type_id, status, start_at, end_at, blocked_from, blocked_until,
			name, email, email_normalized, time_zone, amount, currency, token_hash, user_id)
			VALUES ($1, 'session-30', 'confirmed', $2, $3, $2, $3, 'Bob', 'bob@example.com', 'bob@example.com', 'UTC', 29900, 'USD', $4, $5)`,
			store.NewID(), store.At(start), store.At(start.Add(30*time.Minute)), strings.Repeat("b", 64), bob.id)
		if text, isErr := callTool(t, bobs, "my_bookings", nil); isErr || strings.Count(text, `"id"`) != 1 {
			t.Fatalf("Bob's my_bookings: %s", text)
		}
		if text, isErr := callTool(t, adas, "my_bookings", nil); isErr || text != `{"bookings":[]}` {
			t.Fatalf("Ada's my_bookings shows another member's booking: %s", text)
		}
		// Ada's list shows her assistant once, Bob's shows his.
		for _, u := range []testUser{ada, bob} {
			r := m.call(u, "GET", "/api/members/me/assistants", nil)
			if r.status != 200 || strings.Count(r.body, `"client_id"`) != 1 {
				t.Fatalf("assistants of %s: %s", u.id, r.body)
			}
		}
		// Ada cannot revoke Bob's grant: she has none of her own to this
		// client after revoking hers, and Bob's still works.
		if r := m.call(ada, "DELETE", "/api/members/me/assistants/"+url.PathEscape(client), nil); r.status != 204 {
			t.Fatalf("revoke: %d", r.status)
		}
		if len(nextSessions(t, bobs)) == 0 {
			t.Fatal("Bob's assistant lost its sessions when Ada revoked hers")
		}
	})
}

func TestOAuthHoldBookingNeverPays(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m, _, _ := assistantSite(t, db)
		ada := m.user("ada@example.com")
		cs, err := m.assistant(m.oauthTokens(ada, m.oauthRegister(), "tribe:read tribe:write")["access_token"].(string))
		if err != nil {
			t.Fatal(err)
		}
		start := m.freeSlot("session-30", 3, 0)
		text, isErr := callTool(t, cs, "hold_booking", map[string]any{"type": "session-30", "start": start, "time_zone": "Europe/Paris"})
		if isErr || !strings.Contains(text, `"manage_url"`) {
			t.Fatalf("hold_booking: %s", text)
		}
		// Payments are off on this site: the owner is asked, nothing is paid.
		if !strings.Contains(text, `"status":"requested"`) || strings.Contains(text, "checkout_url") {
			t.Fatalf("hold_booking without payments: %s", text)
		}
		if n := m.count(`SELECT COUNT(*) FROM bookings WHERE user_id = $1 AND email_normalized = 'ada@example.com' AND paid_at IS NULL`, ada.id); n != 1 {
			t.Fatalf("%d bookings held for Ada", n)
		}
		text, _ = callTool(t, cs, "my_bookings", nil)
		var mine struct {
			Bookings []struct {
				ID        string `json:"id"`
				ManageURL string `json:"manage_url"`
			} `json:"bookings"`
		}
		if err := json.Unmarshal([]byte(text), &mine); err != nil || len(mine.Bookings) != 1 || mine.Bookings[0].ManageURL == "" {
			t.Fatalf("my_bookings after the hold: %s (%v)", text, err)
		}
		// Its link opens the booking, as the e-mailed one does; reading the
		// list again replaces the assistant's link instead of adding one.
		manage, err := url.Parse(mine.Bookings[0].ManageURL)
		if err != nil {
			t.Fatal(err)
		}
		id, token := mine.Bookings[0].ID, manage.Query().Get("token")
		if r := m.call(testUser{}, "GET", "/api/bookings/"+id+"?token="+url.QueryEscape(token), nil); r.status != 200 {
			t.Fatalf("the assistant's manage link: %d %s", r.status, r.body)
		}
		_, _ = callTool(t, cs, "my_bookings", nil)
		if r := m.call(testUser{}, "GET", "/api/bookings/"+id+"?token="+url.QueryEscape(token), nil); r.status != 404 {
			t.Fatalf("the assistant's previous link after a new list: %d %s", r.status, r.body)
		}
		if n := m.count(`SELECT COUNT(*) FROM booking_tokens WHERE booking_id = $1 AND purpose = 'assistant'`, id); n != 1 {
			t.Fatalf("%d assistant links for one booking, want 1", n)
		}
		// Another member's assistant cannot mint one.
		bob := m.user("bob@example.com")
		bobs, err := m.assistant(m.oauthTokens(bob, m.oauthRegister(), "tribe:read")["access_token"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if text, _ := callTool(t, bobs, "my_bookings", nil); strings.Contains(text, id) {
			t.Fatalf("Bob's assistant sees Ada's booking: %s", text)
		}
		// The same time again is taken.
		if text, isErr := callTool(t, cs, "hold_booking", map[string]any{"type": "session-30", "start": start, "time_zone": "Europe/Paris"}); !isErr {
			t.Fatalf("a second hold of the same time: %s", text)
		}
	})
}

func TestOAuthTokenForAnotherResourceIs401(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m, c, _ := assistantSite(t, db)
		ada := m.user("ada@example.com")
		// An authorization server at another address over the same tables
		// issues a token whose audience is its own /mcp.
		other := oauth.New(db, oauth.Options{BaseURL: "https://elsewhere.example", ResourcePath: "/mcp", Clock: c.Now})
		reg, err := other.Register(context.Background(), oauth.RegisterInput{ClientName: "Elsewhere", RedirectURIs: []string{oauthRedirect}})
		if err != nil {
			t.Fatal(err)
		}
		p, err := other.CheckAuthorize(context.Background(), oauth.AuthorizeRequest{ClientID: reg.ClientID, RedirectURI: oauthRedirect,
			ResponseType: "code", CodeChallenge: oauthChallenge(oauthVerifier), CodeChallengeMethod: "S256"})
		if err != nil {
			t.Fatal(err)
		}
		to, err := other.Approve(context.Background(), ada.id, p)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(to)
		tok, err := other.Token(context.Background(), oauth.TokenRequest{GrantType: "authorization_code", ClientID: reg.ClientID,
			Code: u.Query().Get("code"), RedirectURI: oauthRedirect, CodeVerifier: oauthVerifier})
		if err != nil {
			t.Fatal(err)
		}
		r := m.mcpPost(toolsList, map[string]string{"Authorization": "Bearer " + tok.AccessToken, "Accept": "application/json, text/event-stream"})
		if r.status != 401 {
			t.Fatalf("a token for https://elsewhere.example/mcp: %d", r.status)
		}
	})
}

func TestOAuthClientMetadataDocumentPrivateAddressRefusedOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fetched := false
		doc := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { fetched = true }))
		defer doc.Close()
		m := oauthSite(t, db)
		u := m.user("ada@example.com")
		for _, id := range []string{doc.URL + "/client.json", "https://localhost/client.json", "https://169.254.169.254/latest/meta-data"} {
			params := m.oauthParams(id, "tribe:read")
			r := m.call(u, "GET", oauth.AuthorizePath+"?"+params.Encode(), nil)
			if r.status != 400 || r.header.Get("Location") != "" || !strings.Contains(r.body, "private or local network") {
				t.Errorf("client id %s: %d %q", id, r.status, r.header.Get("Location"))
			}
		}
		if fetched {
			t.Fatal("the site fetched a metadata document from a private address")
		}
	})
}
