package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"tribe/internal/gaps"
	"tribe/internal/store"
	"tribe/internal/store/storetest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestWeakQuestionsBecomeKnowledgeGapsWithoutWhoAsked: a question the
// knowledge base cannot answer, asked in the AI chat (the console's ask) or
// through the MCP search tool, reaches the admins' list, grouped with its
// rewordings; a question it answers does not; and nothing but the text and
// the time is kept.
func TestWeakQuestionsBecomeKnowledgeGapsWithoutWhoAsked(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		m.seedKB()
		adm := m.user(membersAdminEmail)
		member := m.user("member@example.com")
		for _, q := range []string{"Do you run workshops on quantum basket weaving?", "quantum basket weaving workshops"} {
			if r, _ := m.chat(member, ask(q)); r.status != 200 {
				t.Fatalf("chat: %d %s", r.status, r.body)
			}
		}
		if r, _ := m.chat(testUser{}, ask("How much does the tribe cost per month?")); r.status != 200 {
			t.Fatalf("chat: %d", r.status)
		}
		// The MCP search tool, through the same registry.
		res, err := m.mcpSession("").CallTool(context.Background(), &sdk.CallToolParams{Name: "search", Arguments: map[string]any{"query": "Zanzibar ferry timetable"}})
		if err != nil || res.IsError {
			t.Fatalf("mcp search: %v %+v", err, res)
		}

		var list gaps.Groups
		r := m.call(adm, "GET", "/api/admin/knowledge-gaps", nil)
		if r.status != 200 {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		if err := json.Unmarshal([]byte(r.body), &list); err != nil {
			t.Fatal(err)
		}
		for _, g := range list.Groups {
			if strings.Contains(strings.ToLower(g.Question), "cost") {
				t.Errorf("a question the knowledge base answers was kept: %+v", g)
			}
		}
		if len(list.Groups) != 2 || list.Groups[0].Count != 2 || list.Groups[0].Question != "quantum basket weaving workshops" ||
			list.Groups[1].Question != "Zanzibar ferry timetable" {
			t.Fatalf("groups %+v", list.Groups)
		}
		// The table has the question, the time and its cluster, and no column for who.
		rows, err := db.Read.Query(`SELECT * FROM knowledge_gaps`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		_ = rows.Close()
		if strings.Join(cols, ",") != "id,question,asked_at,cluster_id" {
			t.Fatalf("columns %v", cols)
		}
	})
}

// TestConsoleSearchDidNotFeedKnowledgeGaps: the console's search command
// (POST /api/search) answered weakly without the owner ever seeing the
// question; it now records it as the chat does, redacted, and a question
// it answers is not kept.
func TestConsoleSearchDidNotFeedKnowledgeGaps(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		m.seedKB()
		for _, q := range []string{"harpsichord tuning lessons, mail me at jo@example.com", "How much does the tribe cost per month?"} {
			if r := m.call(testUser{}, "POST", "/api/search", map[string]any{"query": q}); r.status != 200 {
				t.Fatalf("search %q: %d %s", q, r.status, r.body)
			}
		}
		r := m.call(m.user(membersAdminEmail), "GET", "/api/admin/knowledge-gaps", nil)
		var list gaps.Groups
		if err := json.Unmarshal([]byte(r.body), &list); err != nil || r.status != 200 {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		if len(list.Groups) != 1 || list.Groups[0].Question != "harpsichord tuning lessons, mail me at [email]" {
			t.Fatalf("groups %+v", list.Groups)
		}
	})
}

// TestKnowledgeGapsOneIPv6SubnetCouldFloodTheList: the knowledge-gaps list
// took every question from anyone; one /64 now adds at most
// gaps.PerClientPerHour an hour, whichever of its addresses it uses, and
// the admin answer comes a page at a time.
func TestKnowledgeGapsOneIPv6SubnetCouldFloodTheList(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		m.seedKB()
		for i := range gaps.PerClientPerHour + 5 {
			body := fmt.Sprintf(`{"query": "zanzibar%d ferry%d timetable%d"}`, i, i, i)
			req := httptest.NewRequest("POST", "/api/search", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.RemoteAddr = fmt.Sprintf("[2001:db8:7:7:%x::1]:4000", i+1)
			rec := httptest.NewRecorder()
			m.h.ServeHTTP(rec, req)
			if rec.Code != 200 {
				t.Fatalf("search %d: %d %s", i, rec.Code, rec.Body)
			}
		}
		adm := m.user(membersAdminEmail)
		var first, second gaps.Groups
		r := m.call(adm, "GET", "/api/admin/knowledge-gaps?limit=15", nil)
		if err := json.Unmarshal([]byte(r.body), &first); err != nil || r.status != 200 {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		if first.Total != gaps.PerClientPerHour || len(first.Groups) != 15 || first.Next == "" {
			t.Fatalf("first page: %d of %d groups, next %q", len(first.Groups), first.Total, first.Next)
		}
		r = m.call(adm, "GET", "/api/admin/knowledge-gaps?limit=15&cursor="+first.Next, nil)
		if err := json.Unmarshal([]byte(r.body), &second); err != nil || r.status != 200 {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		if len(second.Groups) != gaps.PerClientPerHour-15 || second.Next != "" {
			t.Fatalf("second page: %d groups, next %q", len(second.Groups), second.Next)
		}
		if r := m.call(adm, "GET", "/api/admin/knowledge-gaps?limit=500", nil); r.status != 400 {
			t.Fatalf("limit 500: %d", r.status)
		}
	})
}
