package mcp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestBatchAnswerIsBounded: a batch's answer is held to MaxBatchAnswer;
// beyond it every call is answered with an error, in one valid JSON array,
// instead of megabytes of results.
func TestBatchAnswerIsBounded(t *testing.T) {
	m, err := ReadMessages([]byte(`[{"jsonrpc":"2.0","id":1,"method":"tools/call"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"tools/call"}]`))
	if err != nil || m.Count != 3 || !m.Batch || len(m.ids) != 2 {
		t.Fatalf("messages: %+v %v", m, err)
	}
	flood := func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		chunk := []byte(strings.Repeat("x", 64<<10))
		for range 2 * MaxBatchAnswer / len(chunk) {
			_, _ = w.Write(chunk)
		}
	}
	rec := httptest.NewRecorder()
	pe := &plainErrors{ResponseWriter: rec}
	ba := &batchAnswer{ResponseWriter: pe}
	flood(ba, nil)
	ba.finish(m.ids)
	pe.finish()
	var answers []rpcErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &answers); err != nil || rec.Body.Len() > 4096 {
		t.Fatalf("answer of %d bytes: %v", rec.Body.Len(), err)
	}
	if len(answers) != 2 || string(answers[0].ID) != "1" || string(answers[1].ID) != `"b"` || answers[0].Error.Code != -32603 ||
		!strings.Contains(answers[0].Error.Message, "exceed") {
		t.Fatalf("answers: %+v", answers)
	}

	// Within the bound the answer goes out as it was written.
	rec = httptest.NewRecorder()
	ba = &batchAnswer{ResponseWriter: rec}
	_, _ = ba.Write([]byte(`[{"jsonrpc":"2.0","id":1,"result":{}}]`))
	ba.finish(m.ids)
	if rec.Code != 200 || rec.Body.String() != `[{"jsonrpc":"2.0","id":1,"result":{}}]` {
		t.Fatalf("small answer: %d %s", rec.Code, rec.Body)
	}
}

// TestSDKPlainTextRefusalsBecomeJSONRPCErrors: the SDK answers with
// http.Error (plain text); the endpoint rewrites that as a JSON-RPC error
// with the request's id.
func TestSDKPlainTextRefusalsBecomeJSONRPCErrors(t *testing.T) {
	rec := httptest.NewRecorder()
	pe := &plainErrors{ResponseWriter: rec, id: json.RawMessage("7")}
	http.Error(pe, `JSON RPC not handled: "tools/nope" unsupported`, http.StatusBadRequest)
	pe.finish()
	var body rpcErrorBody
	if rec.Code != 400 || rec.Header().Get("Content-Type") != "application/json" || json.Unmarshal(rec.Body.Bytes(), &body) != nil ||
		string(body.ID) != "7" || body.Error.Code != -32601 || !strings.Contains(body.Error.Message, "tools/nope") {
		t.Fatalf("%d %v %s", rec.Code, rec.Header(), rec.Body)
	}
}

func TestMessagesNameTheToolsTheyCall(t *testing.T) {
	m, rpcErr := ReadMessages([]byte(`[{"jsonrpc":"2.0","id":1,"method":"tools/list"},
		{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"my_next_sessions","arguments":{}}},
		{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"not an object"}]`))
	if rpcErr != nil {
		t.Fatal(rpcErr.Message)
	}
	if len(m.tools) != 1 || m.tools[0] != "my_next_sessions" {
		t.Fatalf("tools %v", m.tools)
	}
	one, _ := ReadMessages([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search"}}`))
	if len(one.tools) != 1 || one.tools[0] != "search" {
		t.Fatalf("single message tools %v", one.tools)
	}
}
