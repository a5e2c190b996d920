// Package aitest is a fake OpenAI-compatible chat-completions API that
// streams scripted answers, so the AI chat is tested end to end over real
// HTTP without a model: content, tool calls (OpenAI and Ollama style),
// lines split across reads, errors, refusals and slow or silent providers.
//
// In a Go test:
//
//	fake := aitest.Start(t, aitest.Turns(
//		aitest.Calls(aitest.Call{ID: "call_1", Name: "search_knowledge_base", Args: `{"query":"tribe"}`}),
//		aitest.Text("The tribe costs ", "$250 a month."),
//	))
//	// AI_BASE_URL=fake.URL, AI_MODEL=anything
//	... fake.Requests()[0].Messages[0].Content is the system prompt the site sent ...
//
// For browser tests and development, `go run ./internal/agent/aitest/cmd/fakeai`
// serves the Echo script on a port of its own (see its doc).
//
// The package imports nothing of the site, so any package's tests can use it.
package aitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Request is what the fake received: the body of one chat-completions
// request, and its headers.
type Request struct {
	Model     string    `json:"model"`
	Messages  []Message `json:"messages"`
	Tools     []Tool    `json:"tools"`
	MaxTokens int       `json:"max_tokens"`
	Stream    bool      `json:"stream"`
	Header    http.Header
}

// Message is one message of a request.
type Message struct {
	Role       string `json:"role"`
	Content    string `json:"content"`
	ToolCallID string `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// Tool is one tool offered in a request.
type Tool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// ToolNames lists the names of the tools offered.
func (r Request) ToolNames() []string {
	var names []string
	for _, t := range r.Tools {
		names = append(names, t.Function.Name)
	}
	return names
}

// LastUser is the content of the last user message.
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Turn is the fake's answer to one request: a refusal (Status other than
// 0 and 200, with Body) or a stream of Steps.
type Turn struct {
	Status int
	Body   string
	Steps  []Step
}

// Step is one write of a streamed answer, flushed at once. Pause waits
// first; Wait, when set, blocks until it is closed or the client goes away.
type Step struct {
	Write string
	Pause time.Duration
	Wait  <-chan struct{}
}

// Script decides the answer to each request.
type Script interface {
	Next(Request) Turn
}

// ScriptFunc is a Script written as a function.
type ScriptFunc func(Request) Turn

// Next calls f.
func (f ScriptFunc) Next(r Request) Turn { return f(r) }

// Turns plays turns in order, one per request; a request after the last
// turn is answered 500.
func Turns(turns ...Turn) Script {
	var mu sync.Mutex
	return ScriptFunc(func(Request) Turn {
		mu.Lock()
		defer mu.Unlock()
		if len(turns) == 0 {
			return Status(http.StatusInternalServerError, "the fake provider's script has no more turns")
		}
		t := turns[0]
		turns = turns[1:]
		return t
	})
}

// Handler serves POST .../chat/completions from a Script and records what
// it received. It is safe for concurrent use.
type Handler struct {
	script Script

	mu        sync.Mutex
	requests  []Request
	writes    [][]time.Time // per request, when each step began to be written
	cancelled int
	gone      chan struct{} // one value per request whose client went away mid-turn
}

// NewHandler returns a handler that answers with script.
func NewHandler(script Script) *Handler {
	return &Handler{script: script, gone: make(chan struct{}, 1024)}
}

// ServeHTTP answers one chat-completions request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, `{"error":{"message":"the fake provider serves POST /chat/completions only"}}`, http.StatusNotFound)
		return
	}
	var req Request
	if err := json.NewDecoder(io.LimitReader(r.Body, 8<<20)).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"the request body is not JSON"}}`, http.StatusBadRequest)
		return
	}
	req.Header = r.Header.Clone()
	h.mu.Lock()
	n := len(h.requests)
	h.requests = append(h.requests, req)
	h.writes = append(h.writes, nil)
	h.mu.Unlock()

	turn := h.script.Next(req)
	if turn.Status != 0 && turn.Status != http.StatusOK {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(turn.Status)
		_, _ = io.WriteString(w, turn.Body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	for _, s := range turn.Steps {
		if s.Pause > 0 {
			select {
			case <-time.After(s.Pause):
			case <-r.Context().Done():
				h.clientGone()
				return
			}
		}
		if s.Wait != nil {
			select {
			case <-s.Wait:
			case <-r.Context().Done():
				h.clientGone()
				return
			}
		}
		if s.Write == "" {
			continue
		}
		h.mu.Lock()
		h.writes[n] = append(h.writes[n], time.Now())
		h.mu.Unlock()
		if _, err := io.WriteString(w, s.Write); err != nil {
			h.clientGone()
			return
		}
		if err := rc.Flush(); err != nil {
			h.clientGone()
			return
		}
	}
}

func (h *Handler) clientGone() {
	h.mu.Lock()
	h.cancelled++
	h.mu.Unlock()
	select {
	case h.gone <- struct{}{}:
	default:
	}
}

// Requests returns what the fake received so far, in order.
func (h *Handler) Requests() []Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Request(nil), h.requests...)
}

// Writes returns when the fake began to write each step of the n-th
// request's answer (each step is flushed as soon as it is written).
func (h *Handler) Writes(n int) []time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n >= len(h.writes) {
		return nil
	}
	return append([]time.Time(nil), h.writes[n]...)
}

// Cancelled counts the answers whose client went away before they ended.
func (h *Handler) Cancelled() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cancelled
}

// ClientGone receives a value each time a client goes away mid-answer.
func (h *Handler) ClientGone() <-chan struct{} { return h.gone }

// Server is a Handler on a loopback port.
type Server struct {
	*Handler
	// URL is the API base to configure as AI_BASE_URL (it ends in /v1).
	URL string
	srv *httptest.Server
}

// Start serves script on 127.0.0.1 until the test ends.
func Start(t testing.TB, script Script) *Server {
	h := NewHandler(script)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &Server{Handler: h, URL: srv.URL + "/v1", srv: srv}
}

// Close stops the server at once, cutting open answers.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Data is one server-sent-events line holding v as JSON.
func Data(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("aitest: encode chunk: %v", err))
	}
	return "data: " + string(b) + "\n\n"
}

// Done is the line that ends a stream.
const Done = "data: [DONE]\n\n"

// chunk is a chat.completion.chunk with one choice.
func chunk(delta map[string]any, finish any) map[string]any {
	return map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1700000000, "model": "fake",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
	}
}

// ContentChunk is a chunk adding text to the answer.
func ContentChunk(text string) string { return Data(chunk(map[string]any{"content": text}, nil)) }

// CallChunk is a chunk carrying a piece of a tool call; id and name are
// usually set in the first piece only.
func CallChunk(index int, id, name, args string) string {
	call := map[string]any{"index": index, "function": map[string]any{"arguments": args}}
	if id != "" {
		call["id"], call["type"] = id, "function"
	}
	if name != "" {
		call["function"].(map[string]any)["name"] = name
	}
	return Data(chunk(map[string]any{"tool_calls": []any{call}}, nil))
}

// FinishChunk ends the choice with a reason (stop, tool_calls, length).
func FinishChunk(reason string) string { return Data(chunk(map[string]any{}, reason)) }

// UsageChunk reports token counts, as OpenAI does after the last choice
// when asked for usage.
func UsageChunk(prompt, completion int) string {
	return Data(map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1700000000, "model": "fake",
		"choices": []any{}, "usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
	})
}

// ErrorChunk is an error reported inside a stream that already started.
func ErrorChunk(message string) string {
	return Data(map[string]any{"error": map[string]any{"message": message, "type": "server_error"}})
}

// Text streams parts as content, one chunk each, then stop, usage and [DONE].
func Text(parts ...string) Turn {
	var t Turn
	completion := 0
	for _, p := range parts {
		t.Steps = append(t.Steps, Step{Write: ContentChunk(p)})
		completion += (len(p) + 3) / 4
	}
	t.Steps = append(t.Steps, Step{Write: FinishChunk("stop")}, Step{Write: UsageChunk(100, completion)}, Step{Write: Done})
	return t
}

// Call is a tool call for Calls and OllamaCalls.
type Call struct {
	ID, Name, Args string
}

// Calls streams tool calls the way OpenAI does: each call at its own index,
// id and name in its first piece, the arguments split over three pieces.
func Calls(calls ...Call) Turn {
	var t Turn
	for i, c := range calls {
		t.Steps = append(t.Steps, Step{Write: CallChunk(i, c.ID, c.Name, "")})
		for _, piece := range thirds(c.Args) {
			t.Steps = append(t.Steps, Step{Write: CallChunk(i, "", "", piece)})
		}
	}
	t.Steps = append(t.Steps, Step{Write: FinishChunk("tool_calls")}, Step{Write: UsageChunk(100, 20)}, Step{Write: Done})
	return t
}

// OllamaCalls streams tool calls the way Ollama does: each call whole in
// one chunk, every one at index 0, told apart only by its new id.
func OllamaCalls(calls ...Call) Turn {
	var t Turn
	for _, c := range calls {
		t.Steps = append(t.Steps, Step{Write: CallChunk(0, c.ID, c.Name, c.Args)})
	}
	t.Steps = append(t.Steps, Step{Write: FinishChunk("tool_calls")}, Step{Write: Done})
	return t
}

// thirds splits s into three pieces (some may be empty).
func thirds(s string) []string {
	a, b := len(s)/3, 2*len(s)/3
	return []string{s[:a], s[a:b], s[b:]}
}

// Split rewrites a turn's stream as writes of at most n bytes, each after a
// short pause so that they reach the client in separate reads: lines and
// JSON are cut anywhere.
func Split(t Turn, n int) Turn {
	var all strings.Builder
	for _, s := range t.Steps {
		all.WriteString(s.Write)
	}
	out := Turn{Status: t.Status, Body: t.Body}
	text := all.String()
	for len(text) > 0 {
		k := min(n, len(text))
		out.Steps = append(out.Steps, Step{Write: text[:k], Pause: 2 * time.Millisecond})
		text = text[k:]
	}
	return out
}

// Status refuses a request with an OpenAI-style error body.
func Status(code int, message string) Turn {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": "fake_error", "code": code}})
	return Turn{Status: code, Body: string(b)}
}

// Hold makes every answer of s wait d after its first write, holding the
// stream open: load tests use it to keep many answers in flight at once.
func Hold(s Script, d time.Duration) Script {
	return ScriptFunc(func(r Request) Turn {
		t := s.Next(r)
		if len(t.Steps) > 1 {
			t.Steps = slices.Clone(t.Steps)
			t.Steps[1].Pause += d
		}
		return t
	})
}
