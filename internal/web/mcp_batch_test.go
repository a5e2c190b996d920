package web

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"tribe/internal/mcp"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// searchBatch is a JSON-RPC batch of n search calls.
func searchBatch(n int) string {
	calls := make([]string, n)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search","arguments":{"query":"tribe coaching %d"}}}`, i+1, i)
	}
	return "[" + strings.Join(calls, ",") + "]"
}

// rpcError is the JSON-RPC error object of a reply, when it is one.
func rpcError(t *testing.T, r reply) (code int, message string, ok bool) {
	t.Helper()
	var body struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") || json.Unmarshal([]byte(r.body), &body) != nil ||
		body.JSONRPC != "2.0" || body.Error == nil || len(body.ID) == 0 {
		return 0, "", false
	}
	return body.Error.Code, body.Error.Message, true
}

// TestMCPBatchFlood: without Mcp-Protocol-Version (read as 2025-03-26) a
// 64 KB batch held 418 search calls, and 72 such requests in 15 s ran
// 30,096 searches with no 429: the rate limit counted requests, not calls.
// A batch now holds at most mcp.MaxBatch messages, and each one counts
// against the per-address limit.
func TestMCPBatchFlood(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, map[string]string{"TRIBE_BASE_URL": "https://ruv.example"})
		m.seedKB()

		r := m.mcpPost(searchBatch(418), nil)
		if code, msg, ok := rpcError(t, r); r.status != 400 || !ok || code != -32600 || !strings.Contains(msg, fmt.Sprint(mcp.MaxBatch)) {
			t.Fatalf("a batch of 418 searches: %d %.300s", r.status, r.body)
		}

		// Within the bound a batch is answered, call by call.
		r = m.mcpPost(searchBatch(mcp.MaxBatch), nil)
		var answers []map[string]any
		if r.status != 200 || json.Unmarshal([]byte(r.body), &answers) != nil || len(answers) != mcp.MaxBatch {
			t.Fatalf("a batch of %d searches: %d %.300s", mcp.MaxBatch, r.status, r.body)
		}
		for _, a := range answers {
			if a["result"] == nil {
				t.Fatalf("a call of the batch failed: %v", a)
			}
		}

		// Every call counts: the burst of mcpBurst calls is spent by
		// mcpBurst/MaxBatch batches (one already sent), give or take the
		// refill while the test runs.
		sent := 1
		for ; sent <= mcpBurst; sent++ {
			if r = m.mcpPost(searchBatch(mcp.MaxBatch), nil); r.status != 200 {
				break
			}
		}
		if r.status != 429 || r.errCode() != "rate_limited" || r.header.Get("Retry-After") == "" {
			t.Fatalf("%d batches of %d calls: %d %.200s, want 429", sent, mcp.MaxBatch, r.status, r.body)
		}
		if calls := sent * mcp.MaxBatch; calls > 2*mcpBurst {
			t.Fatalf("%d calls ran before the limit; the burst is %d", calls, mcpBurst)
		}
		t.Logf("refused after %d batches of %d", sent, mcp.MaxBatch)
	})
}

// TestMCPMalformedJSONRPCIsAJSONRPCError: a body that is not JSON-RPC was
// answered with plain text, while docs/api.md promises JSON-RPC errors
// for protocol errors.
func TestMCPMalformedJSONRPCIsAJSONRPCError(t *testing.T) {
	t.Parallel()
	m := newTestSite(t, storetest.Open(t, "", t.TempDir()), map[string]string{"TRIBE_BASE_URL": "https://ruv.example"})
	for _, c := range []struct {
		name, body string
		headers    map[string]string
		code       int
	}{
		{"not JSON", `{"jsonrpc":`, nil, -32700},
		{"not an object", `"tools/list"`, nil, -32600},
		{"an empty batch", `[]`, nil, -32600},
		{"a batch of numbers", `[1, 2]`, nil, -32600},
		{"no method", `{"jsonrpc":"2.0","id":1}`, nil, -32600},
		{"an unknown method", `{"jsonrpc":"2.0","id":1,"method":"tools/nope"}`, nil, -32601},
		{"a batch in 2025-06-18", searchBatch(2), map[string]string{"Mcp-Protocol-Version": "2025-06-18"}, -32600},
		{"a NUL in a search", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"a\u0000b"}}}`, nil, -32602},
		{"a NUL in a resource URI", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"kb://documents/a\u0000b"}}`, nil, -32602},
	} {
		r := m.mcpPost(c.body, c.headers)
		code, msg, ok := rpcError(t, r)
		if r.status < 400 || r.status > 499 || !ok || code != c.code || msg == "" {
			t.Errorf("%s: %d %s %.300s, want a JSON-RPC error %d", c.name, r.status, r.header.Get("Content-Type"), r.body, c.code)
		}
	}
}
