package web

import (
	"context"
	"encoding/json"
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
		// The table has the question and the time, and no column for who.
		rows, err := db.Read.Query(`SELECT * FROM knowledge_gaps`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		_ = rows.Close()
		if strings.Join(cols, ",") != "id,question,asked_at" {
			t.Fatalf("columns %v", cols)
		}
	})
}
