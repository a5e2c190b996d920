package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"tribe/internal/content"
	"tribe/internal/kb"
	"tribe/internal/mcp"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// mcpSession connects the SDK's own client to the site's endpoint over
// Streamable HTTP at protocol version (the client's newest when "").
func (m *testSite) mcpSession(version string) *sdk.ClientSession {
	m.t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "tribe-test", Version: "1"}, nil)
	var opts *sdk.ClientSessionOptions
	if version != "" {
		opts = &sdk.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: m.srv.URL + mcp.Path}, opts)
	if err != nil {
		m.t.Fatalf("connect at %q: %v", version, err)
	}
	m.t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// seedKBWithManualDoc seeds the knowledge base and adds one manual
// document, returning the manual document's id.
func (m *testSite) seedKBWithManualDoc() string {
	m.t.Helper()
	m.seedKB()
	doc, err := m.s.Services.KB.Create(context.Background(), kb.Input{Title: "Office hours", Content: "Office hours for tribe members are on Fridays at noon UTC."})
	if err != nil {
		m.t.Fatal(err)
	}
	return doc.ID
}

// toolText is the text of a tool result's first content block.
func toolText(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatal("a tool result without content")
	}
	text, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("first content is %T, not text", res.Content[0])
	}
	return text.Text
}

func TestMCPServer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, map[string]string{"TRIBE_BASE_URL": "https://ruv.example"})
		manualID := m.seedKBWithManualDoc()
		ctx := context.Background()

		// The newest protocol (2026-07-28, stateless discovery) and each older
		// one the SDK negotiates through initialize.
		cs := m.mcpSession("")
		if got := cs.InitializeResult().ProtocolVersion; got != "2026-07-28" {
			t.Fatalf("negotiated %q, want 2026-07-28", got)
		}
		if info := cs.InitializeResult().ServerInfo; info == nil || info.Name != mcp.ServerName || info.Version != "test" {
			t.Errorf("server info %+v", info)
		}
		// An assistant is told which tool finds free times, not left to guess them.
		if got := cs.InitializeResult().Instructions; !strings.Contains(got, "Use find_available_slots for free times") {
			t.Errorf("instructions do not point to find_available_slots: %q", got)
		}
		for _, v := range []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
			old := m.mcpSession(v)
			if got := old.InitializeResult().ProtocolVersion; got != v {
				t.Errorf("asked for %s, negotiated %s", v, got)
			}
			if _, err := old.ListTools(ctx, nil); err != nil {
				t.Errorf("tools/list at %s: %v", v, err)
			}
		}

		// Tools: the registry's, under the promised names, each with its
		// schemas and the read-only hint.
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range tools.Tools {
			names = append(names, tool.Name)
			if tool.Title == "" || tool.Description == "" || tool.InputSchema == nil || tool.OutputSchema == nil {
				t.Errorf("tool %s lacks a title, description or schema: %+v", tool.Name, tool)
			}
			if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
				t.Errorf("tool %s is not marked read-only", tool.Name)
			}
		}
		// The SDK lists by name.
		if want := []string{"find_available_slots", "list_services", "read_json_path", "read_resource", "search"}; !slices.Equal(names, want) {
			t.Fatalf("tools %v, want %v", names, want)
		}
		jsonPath := tools.Tools[2].InputSchema.(map[string]any)
		if req := fmt.Sprint(jsonPath["required"]); req != "[uri path]" {
			t.Errorf("read_json_path requires %s", req)
		}

		call := func(name string, args any) *sdk.CallToolResult {
			t.Helper()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return res
		}
		structured := func(res *sdk.CallToolResult) map[string]any {
			t.Helper()
			out, ok := res.StructuredContent.(map[string]any)
			if !ok {
				t.Fatalf("structured content %T", res.StructuredContent)
			}
			return out
		}

		// search finds the seeded content and links each passage's document.
		res := call("search", map[string]any{"query": "tribe membership price", "limit": 3})
		if res.IsError {
			t.Fatalf("search: %s", toolText(t, res))
		}
		found := structured(res)["results"].([]any)
		if len(found) == 0 || len(found) > 3 {
			t.Fatalf("search found %d passages", len(found))
		}
		var link *sdk.ResourceLink
		for _, c := range res.Content[1:] {
			if l, ok := c.(*sdk.ResourceLink); ok && link == nil {
				link = l
			}
		}
		if link == nil || !strings.HasPrefix(link.URI, "kb://documents/") {
			t.Fatalf("no document link in %v", res.Content)
		}
		doc, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: link.URI})
		if err != nil {
			t.Fatalf("read %s: %v", link.URI, err)
		}
		if c := doc.Contents[0]; c.MIMEType != "application/json" || !strings.Contains(c.Text, `"content"`) {
			t.Errorf("document %s: %+v", link.URI, c)
		}
		res = call("search", map[string]any{"query": "office hours Fridays"})
		if res.IsError || !strings.Contains(toolText(t, res), manualID) {
			t.Errorf("search for the manual document: %s", toolText(t, res))
		}

		// read_resource and read_json_path read the published files.
		res = call("read_resource", map[string]any{"uri": "/content/services.json", "path": "sessions[1].price"})
		if res.IsError || fmt.Sprint(structured(res)["value"]) != "299" {
			t.Errorf("read_resource with a path: %s", toolText(t, res))
		}
		res = call("read_resource", map[string]any{"uri": "/content/contact.json"})
		if res.IsError || structured(res)["value"] == nil {
			t.Errorf("read_resource: %s", toolText(t, res))
		}
		res = call("read_json_path", map[string]any{"uri": "/content/services.json", "path": "tribe.price_monthly"})
		if res.IsError || fmt.Sprint(structured(res)["value"]) != "250" {
			t.Errorf("read_json_path: %s", toolText(t, res))
		}
		res = call("list_services", map[string]any{})
		if res.IsError || len(structured(res)["sessions"].([]any)) != 3 {
			t.Errorf("list_services: %s", toolText(t, res))
		}
		// Free booking times, read-only, each with the page that books it.
		from := time.Now().AddDate(0, 0, 2).Format(time.DateOnly)
		to := time.Now().AddDate(0, 0, 8).Format(time.DateOnly)
		res = call("find_available_slots", map[string]any{"type": "session-30", "from": from, "to": to, "time_zone": "Asia/Tokyo"})
		if res.IsError {
			t.Fatalf("find_available_slots: %s", toolText(t, res))
		}
		slots := structured(res)
		days, _ := slots["days"].([]any)
		if slots["price"] != "$299" || slots["time_zone"] != "Asia/Tokyo" || len(days) == 0 {
			t.Fatalf("find_available_slots: %v", slots)
		}
		first := days[0].(map[string]any)["slots"].([]any)[0].(map[string]any)
		start := first["start"].(string)
		if !strings.HasSuffix(start, "+09:00") || first["book"] != "https://ruv.example/book/session-30?start="+url.QueryEscape(start) {
			t.Errorf("slot %v", first)
		}
		var n int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM bookings`).Scan(&n)
		if n != 0 {
			t.Errorf("looking for times wrote %d bookings", n)
		}

		// Bad arguments are tool results with isError and a message naming
		// the argument; an unknown tool is a protocol error.
		for _, c := range []struct {
			tool string
			args any
			msg  string
		}{
			{"search", map[string]any{}, "Argument query is required."},
			{"search", map[string]any{"query": 5}, "Argument query must be text."},
			{"search", map[string]any{"query": "x", "limit": 500}, "Argument limit must be a whole number from 1 to 20."},
			{"search", map[string]any{"query": "x", "extra": true}, "Argument extra is not known."},
			{"read_resource", map[string]any{"uri": "/etc/passwd"}, "Resource not found: /etc/passwd"},
			{"read_json_path", map[string]any{"uri": "/content/services.json"}, "Argument path is required."},
			{"read_json_path", map[string]any{"uri": "/content/services.json", "path": "sessions[9]"}, "Path not found: sessions[9]"},
			{"find_available_slots", map[string]any{"type": "session-30", "from": "2026-01-01", "to": "2026-01-20"}, "Argument to must be at most 13 days after from."},
			{"find_available_slots", map[string]any{"type": "group"}, "Argument type must be one of"},
		} {
			res := call(c.tool, c.args)
			if !res.IsError || !strings.HasPrefix(toolText(t, res), c.msg) {
				t.Errorf("%s %v: isError %v, %q; want %q", c.tool, c.args, res.IsError, toolText(t, res), c.msg)
			}
		}
		if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "delete_everything", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
			t.Errorf("unknown tool: %v", err)
		}

		// Resources: the five content files and the search index, as served.
		resources, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		for _, r := range resources.Resources {
			uris = append(uris, r.URI)
			if r.MIMEType != "application/json" || r.Title == "" || r.Description == "" {
				t.Errorf("resource %+v", r)
			}
			got, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: r.URI})
			if err != nil {
				t.Fatalf("read %s: %v", r.URI, err)
			}
			path := strings.TrimPrefix(r.URI, "https://ruv.example")
			served := m.call(testUser{}, "GET", path, nil)
			if len(got.Contents) != 1 || got.Contents[0].Text != served.body || got.Contents[0].MIMEType != "application/json" {
				t.Errorf("%s differs from GET %s", r.URI, path)
			}
		}
		want := []string{"about", "services", "projects", "stack", "contact"}
		for i, w := range want {
			want[i] = "https://ruv.example/content/" + w + ".json"
		}
		want = append(want, "https://ruv.example/mcp/search-index.json")
		slices.Sort(want) // the SDK lists by URI
		if !slices.Equal(uris, want) {
			t.Errorf("resources %v, want %v", uris, want)
		}
		// The site path, as the console and the kit write it, reads the same.
		byPath, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "/content/services.json"})
		if err != nil || !strings.Contains(byPath.Contents[0].Text, `"sessions"`) {
			t.Errorf("read by site path: %v", err)
		}
		if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "https://ruv.example/content/secrets.json"}); err == nil {
			t.Error("an unlisted resource was read")
		}

		// The knowledge-base documents, through the template.
		templates, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != mcp.DocumentTemplate {
			t.Fatalf("templates: %v %+v", err, templates)
		}
		manual, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.DocumentURI(manualID)})
		if err != nil {
			t.Fatal(err)
		}
		var view struct{ ID, Title, Content string }
		if err := json.Unmarshal([]byte(manual.Contents[0].Text), &view); err != nil || view.ID != manualID || view.Title != "Office hours" || !strings.Contains(view.Content, "Fridays") {
			t.Errorf("manual document: %v %s", err, manual.Contents[0].Text)
		}
		for _, id := range []string{store.NewID(), "a/b", strings.Repeat("x", 100)} {
			if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.DocumentURI(id)}); err == nil || !strings.Contains(err.Error(), "not found") {
				t.Errorf("document %q: %v", id, err)
			}
		}

		// Prompts.
		prompts, err := cs.ListPrompts(ctx, nil)
		if err != nil || len(prompts.Prompts) != 2 {
			t.Fatalf("prompts: %v %+v", err, prompts)
		}
		plan, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: mcp.PromptPlanSession, Arguments: map[string]string{"goals": "ship a multi-agent support bot", "experience": "some Python"}})
		if err != nil {
			t.Fatal(err)
		}
		text := plan.Messages[0].Content.(*sdk.TextContent).Text
		session := m.s.Content.Services.Sessions[1]
		for _, w := range []string{"ship a multi-agent support bot", "some Python", "$299", session.BookingLink, "https://ruv.example/tribe"} {
			if !strings.Contains(text, w) {
				t.Errorf("plan prompt lacks %q:\n%s", w, text)
			}
		}
		ask, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: mcp.PromptAsk, Arguments: map[string]string{"question": "When are office hours?"}})
		if err != nil || !strings.Contains(ask.Messages[0].Content.(*sdk.TextContent).Text, "Fridays at noon") {
			t.Errorf("ask prompt: %v %+v", err, ask)
		}
		for name, args := range map[string]map[string]string{
			mcp.PromptPlanSession: {},
			mcp.PromptAsk:         {"question": "  "},
		} {
			if _, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args}); err == nil || !strings.Contains(err.Error(), "is required") {
				t.Errorf("%s without its argument: %v", name, err)
			}
		}
		if _, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "nope"}); err == nil {
			t.Error("an unknown prompt answered")
		}
	})
}

// mcpPost posts a JSON-RPC body to the endpoint with the given headers
// (Host sets the request's Host).
func (m *testSite) mcpPost(body string, headers map[string]string) reply {
	m.t.Helper()
	req, _ := http.NewRequest("POST", m.srv.URL+mcp.Path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	return m.do(req)
}

func (m *testSite) do(req *http.Request) reply {
	m.t.Helper()
	resp, err := noRedirects.Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	return replyOf(resp)
}

// replyOf reads and closes resp: its status, headers, body, and the body as
// JSON when it says it is JSON.
func replyOf(resp *http.Response) reply {
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header, body: string(raw)}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(raw, &r.json)
	}
	return r
}

const toolsList = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`

func TestMCPOrigins(t *testing.T) {
	t.Parallel()
	var log syncBuffer
	m := newTestSite(t, storetest.Open(t, "", t.TempDir()), map[string]string{"TRIBE_BASE_URL": "https://ruv.example"}, withLog(&log))
	defer func() {
		// One log line per request: the SDK's per-request session lines stay out.
		if strings.Contains(log.String(), "server session") {
			t.Errorf("the SDK's info lines reached the log:\n%.500s", log.String())
		}
	}()
	for _, c := range []struct {
		name    string
		headers map[string]string
		status  int
	}{
		{"no Origin (assistants, SDKs, curl)", nil, 200},
		{"the site's own origin", map[string]string{"Origin": "https://ruv.example", "Host": "ruv.example"}, 200},
		{"the site's own origin through a proxy to a loopback address", map[string]string{"Origin": "https://ruv.example"}, 200},
		{"a browser client on another site, addressing the public name", map[string]string{"Origin": "https://inspector.example", "Host": "ruv.example", "Sec-Fetch-Site": "cross-site"}, 200},
		{"a sandboxed page, addressing the public name", map[string]string{"Origin": "null", "Host": "ruv.example:443"}, 200},
		{"a local tool calling a local server", map[string]string{"Origin": "http://localhost:6274"}, 200},
		{"DNS rebinding: the page's own name made to point here", map[string]string{"Origin": "http://evil.example:8080", "Host": "evil.example:8080"}, 403},
		{"DNS rebinding, cross-origin to the rebound name", map[string]string{"Origin": "http://other.example", "Host": "evil.example"}, 403},
		{"a foreign page reaching a loopback address", map[string]string{"Origin": "https://evil.example"}, 403},
		{"a sandboxed page reaching a loopback address", map[string]string{"Origin": "null"}, 403},
		{"the site's name on another scheme", map[string]string{"Origin": "http://ruv.example:8443", "Host": "10.0.0.5:8080"}, 403},
	} {
		r := m.mcpPost(toolsList, c.headers)
		if r.status != c.status {
			t.Errorf("%s: %d, want %d (%.200s)", c.name, r.status, c.status, r.body)
		}
		if c.status == 200 && r.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: no CORS header", c.name)
		}
		if c.status == 403 && (r.errCode() != "forbidden" || r.header.Get("Access-Control-Allow-Origin") != "") {
			t.Errorf("%s: refused with %s, CORS %q", c.name, r.body, r.header.Get("Access-Control-Allow-Origin"))
		}
		if r.header.Get("Access-Control-Allow-Credentials") != "" {
			t.Errorf("%s: credentials allowed", c.name)
		}
	}

	// The preflight of a cross-origin client, and its refusal for a rebound name.
	pre := func(host, origin string) reply {
		req, _ := http.NewRequest("OPTIONS", m.srv.URL+mcp.Path, nil)
		req.Host = host
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type,mcp-protocol-version")
		return m.do(req)
	}
	r := pre("ruv.example", "https://inspector.example")
	if r.status != 204 || r.header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(r.header.Get("Access-Control-Allow-Methods"), "POST") ||
		!strings.Contains(r.header.Get("Access-Control-Allow-Headers"), "Mcp-Protocol-Version") {
		t.Errorf("preflight: %d %v", r.status, r.header)
	}
	if r := pre("evil.example", "http://evil.example"); r.status != 403 {
		t.Errorf("preflight from a rebound name: %d", r.status)
	}
}

func TestMCPLimits(t *testing.T) {
	t.Parallel()
	m := newTestSite(t, storetest.Open(t, "", t.TempDir()), map[string]string{"TRIBE_BASE_URL": "https://ruv.example"})

	// Oversized bodies, with a length and chunked.
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"` + strings.Repeat("a", mcp.DefaultMaxBody) + `"}}}`
	if r := m.mcpPost(big, nil); r.status != 413 || r.errCode() != "too_large" {
		t.Errorf("oversized body: %d %s", r.status, r.body)
	}
	req, _ := http.NewRequest("POST", m.srv.URL+mcp.Path, io.MultiReader(strings.NewReader(big)))
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = -1
	if r := m.do(req); r.status != 413 {
		t.Errorf("oversized chunked body: %d %s", r.status, r.body)
	}

	// GET: browsers get the page, MCP clients the transport's 405.
	get := func(accept string) reply {
		req, _ := http.NewRequest("GET", m.srv.URL+mcp.Path, nil)
		req.Header.Set("Accept", accept)
		return m.do(req)
	}
	if r := get("text/html,application/xhtml+xml,*/*;q=0.8"); r.status != 200 || !strings.Contains(r.header.Get("Content-Type"), "text/html") {
		t.Errorf("page: %d %s", r.status, r.header.Get("Content-Type"))
	}
	if r := get("text/event-stream"); r.status != 405 || r.header.Get("Allow") != "POST" || r.errCode() != "method_not_allowed" {
		t.Errorf("event stream: %d %v %s", r.status, r.header, r.body)
	}
	if r := m.call(testUser{}, "GET", "/mcp/nope", nil); r.status != 404 {
		t.Errorf("a path under /mcp: %d", r.status)
	}

	// The rate limit per client address. The bucket refills while the test
	// runs (slowly under the race detector), so it sends until refused.
	limited := untilLimited(m, nil)
	if limited.status != 429 || limited.errCode() != "rate_limited" || limited.header.Get("Retry-After") == "" {
		t.Fatalf("no rate limit after %d requests: %d %s", 3*mcpBurst, limited.status, limited.body)
	}
	if r := m.mcpPost(toolsList, map[string]string{"X-Forwarded-For": "203.0.113.9"}); r.status != 429 {
		t.Errorf("X-Forwarded-For from an untrusted peer changed the client: %d", r.status)
	}
}

// untilLimited posts tools/list with headers until the endpoint refuses one,
// at most three bursts' worth, and returns the last reply.
func untilLimited(m *testSite, headers map[string]string) reply {
	m.t.Helper()
	var r reply
	for i := 0; i < 3*mcpBurst; i++ {
		if r = m.mcpPost(toolsList, headers); r.status != 200 {
			break
		}
	}
	return r
}

func TestMCPRateLimitBehindProxy(t *testing.T) {
	t.Parallel()
	m := newTestSite(t, storetest.Open(t, "", t.TempDir()), map[string]string{"TRIBE_TRUSTED_PROXIES": "127.0.0.1"})
	for i := 0; i < mcpBurst; i++ {
		if r := m.mcpPost(toolsList, map[string]string{"X-Forwarded-For": "203.0.113.9"}); r.status != 200 {
			t.Fatalf("request %d within the burst: %d %s", i, r.status, r.body)
		}
	}
	if r := untilLimited(m, map[string]string{"X-Forwarded-For": "203.0.113.9"}); r.status != 429 {
		t.Errorf("over the burst: %d", r.status)
	}
	if r := m.mcpPost(toolsList, map[string]string{"X-Forwarded-For": "203.0.113.10"}); r.status != 200 {
		t.Errorf("another client behind the proxy: %d", r.status)
	}
}

func TestMCPDiscoveryAndCard(t *testing.T) {
	t.Parallel()
	m := newTestSite(t, storetest.Open(t, "", t.TempDir()), map[string]string{"TRIBE_BASE_URL": "https://ruv.example"})
	for _, p := range []string{"/mcp.json", "/.well-known/mcp.json"} {
		r := m.call(testUser{}, "GET", p, nil)
		servers, _ := r.json["servers"].([]any)
		if r.status != 200 || len(servers) != 1 {
			t.Fatalf("%s: %d %s", p, r.status, r.body)
		}
		s := servers[0].(map[string]any)
		if s["url"] != "https://ruv.example/mcp" || s["transport"] != "streamable-http" {
			t.Errorf("%s server %v", p, s)
		}
	}

	r := m.call(testUser{}, "GET", mcp.CardPath, nil)
	if r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("card: %d %v", r.status, r.header)
	}
	var card mcp.Card
	if err := json.Unmarshal([]byte(r.body), &card); err != nil {
		t.Fatal(err)
	}
	remote := card.Remotes[0]
	if card.Name != "example.ruv/mcp" || card.Version != "test" || card.Description == "" ||
		remote.URL != "https://ruv.example/mcp" || remote.Type != "streamable-http" || remote.SupportedProtocolVersions[0] != "2026-07-28" ||
		card.Authentication.Required {
		t.Errorf("card %+v", card)
	}
	if len(card.Tools) != 5 || len(card.Resources) != len(content.PublicFiles())+1 || len(card.ResourceTemplates) != 1 || len(card.Prompts) != 2 {
		t.Errorf("card lists %d tools, %d resources, %d templates, %d prompts", len(card.Tools), len(card.Resources), len(card.ResourceTemplates), len(card.Prompts))
	}
}

// recordingTransport keeps the first tools/call request an SDK client sends.
type recordingTransport struct {
	mu     sync.Mutex
	header http.Header
	body   []byte
}

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(b))
		r.mu.Lock()
		if r.body == nil && bytes.Contains(b, []byte(`"tools/call"`)) {
			r.header, r.body = req.Header.Clone(), b
		}
		r.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(req)
}

// BenchmarkMCPSearch is tools/call search as the Go SDK client sends it at
// protocol 2026-07-28, on SQLite with the knowledge base seeded, through the
// whole handler, each request from another address (so the rate limit stays
// on the path without refusing), for profiling:
// go test -run '^$' -bench MCPSearch -cpuprofile cpu.out ./internal/web
func BenchmarkMCPSearch(b *testing.B) {
	m := newTestSite(b, storetest.Open(b, "", b.TempDir()), nil)
	if _, err := m.s.Services.KB.Seed(b.Context(), kb.FromContent(m.s.Content, m.cfg.Capacity)); err != nil {
		b.Fatal(err)
	}
	rec := &recordingTransport{}
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(b.Context(), &sdk.StreamableClientTransport{Endpoint: m.srv.URL + mcp.Path, HTTPClient: &http.Client{Transport: rec}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := cs.CallTool(b.Context(), &sdk.CallToolParams{Name: "search", Arguments: map[string]any{"query": "price of a 30 minute session", "limit": 5}}); err != nil {
		b.Fatal(err)
	}
	_ = cs.Close()
	var n atomic.Uint32
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest("POST", mcp.Path, bytes.NewReader(rec.body))
			req.Header = rec.header.Clone()
			i := n.Add(1)
			req.RemoteAddr = fmt.Sprintf("10.%d.%d.%d:1234", (i>>16)&0xff, (i>>8)&0xff, i&0xff)
			w := httptest.NewRecorder()
			m.h.ServeHTTP(w, req)
			if w.Code != 200 || !strings.Contains(w.Body.String(), `"results"`) {
				b.Fatalf("status %d: %.300s", w.Code, w.Body.String())
			}
		}
	})
}
