package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Batch limits. JSON-RPC batches exist only up to protocol 2025-03-26, the
// version a client that sends no Mcp-Protocol-Version is read as; a batch
// used to carry 418 search calls in 64 KB (a 10.7 MB answer) for the price
// of one request.
const (
	// MaxBatch is the most messages one batch may hold; each counts against
	// the per-address rate limit (Messages.Count).
	MaxBatch = 10
	// MaxBatchAnswer bounds the answer to a batch: over it, every call of
	// the batch is answered with an error instead.
	MaxBatchAnswer = 1 << 20
)

// Messages is what a request body holds, as far as the endpoint's limits
// need to know before the protocol reads it.
type Messages struct {
	// Count is the number of messages: 1, or a batch's length.
	Count int
	// Batch is whether the body is a JSON-RPC batch.
	Batch bool
	// ids are the ids of the batch's requests that expect an answer (for
	// errors answered in their place), or of the single message.
	ids []json.RawMessage
	// tools are the names of the tools the messages call (tools/call).
	tools []string
}

// toolName is the tool a tools/call message names, "" for other messages.
func (w wireMessage) toolName() string {
	if w.Method == nil || *w.Method != "tools/call" {
		return ""
	}
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(w.Params, &p) // a bad params object is the SDK's to refuse
	return p.Name
}

// ErrNUL refuses a body with a NUL character in a string: no argument,
// URI or name may hold one (PostgreSQL text cannot).
var ErrNUL = &RPCError{Status: http.StatusBadRequest, Code: jsonrpc.CodeInvalidParams,
	Message: "Invalid params: text must not contain the NUL character (\\u0000)."}

// RPCError is a refusal written as a JSON-RPC error object (WriteTo), with
// the HTTP status it is sent with.
type RPCError struct {
	Status  int
	Code    int
	Message string
	id      json.RawMessage
}

// WriteTo answers the error as {"jsonrpc": "2.0", "id": …, "error": {…}};
// the id is the request's when one could be read, else null.
func (e *RPCError) WriteTo(w http.ResponseWriter) {
	writeRPCError(w, e.Status, e.id, e.Code, e.Message)
}

// wireMessage is the part of a JSON-RPC message read here; the SDK decodes
// the rest.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	Params  json.RawMessage `json:"params"`
}

// ReadMessages checks that body is one JSON-RPC message or a batch of at
// most MaxBatch, each a request, a notification or a response, and counts
// them. What it refuses is a JSON-RPC error: -32700 for a body that is not
// JSON, -32600 for anything else.
func ReadMessages(body []byte) (Messages, *RPCError) {
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return Messages{}, &RPCError{Status: http.StatusBadRequest, Code: jsonrpc.CodeParseError, Message: "Parse error: the body is not valid JSON."}
	}
	if len(body) > 0 && body[0] == '[' {
		var raw []json.RawMessage
		if err := json.Unmarshal(body, &raw); err != nil {
			return Messages{}, invalid("the batch could not be read")
		}
		switch {
		case len(raw) == 0:
			return Messages{}, invalid("the batch is empty")
		case len(raw) > MaxBatch:
			return Messages{}, invalid(fmt.Sprintf("a batch may hold at most %d messages, and this one holds %d; send the calls in smaller batches or one by one", MaxBatch, len(raw)))
		}
		m := Messages{Count: len(raw), Batch: true}
		for i, r := range raw {
			w, e := readMessage(r)
			if e != nil {
				e.Message = fmt.Sprintf("%s (message %d of the batch)", e.Message, i+1)
				return Messages{}, e
			}
			if w.Method != nil && len(w.ID) > 0 {
				m.ids = append(m.ids, w.ID)
			}
			if name := w.toolName(); name != "" {
				m.tools = append(m.tools, name)
			}
		}
		return m, nil
	}
	w, e := readMessage(body)
	if e != nil {
		return Messages{}, e
	}
	m := Messages{Count: 1, ids: []json.RawMessage{w.ID}}
	if name := w.toolName(); name != "" {
		m.tools = []string{name}
	}
	return m, nil
}

// readMessage reads one message of a body and checks its shape.
func readMessage(raw json.RawMessage) (wireMessage, *RPCError) {
	var w wireMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &w) != nil {
		return w, invalid("a message must be a JSON object")
	}
	e := func(msg string) (wireMessage, *RPCError) {
		err := invalid(msg)
		err.id = validID(w.ID)
		return w, err
	}
	switch {
	case w.JSONRPC != "2.0":
		return e(`"jsonrpc" must be "2.0"`)
	case w.Method != nil && *w.Method == "":
		return e(`"method" must not be empty`)
	case w.Method == nil && (len(w.ID) == 0 || len(w.Result) == 0 && len(w.Error) == 0):
		return e(`a message needs a "method" (a request or notification), or an "id" with a "result" or an "error" (a response)`)
	}
	return w, nil
}

// validID is id when it may stand in an answer (a string or a number),
// else null.
func validID(id json.RawMessage) json.RawMessage {
	if len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
		return id
	}
	return nil
}

func invalid(msg string) *RPCError {
	return &RPCError{Status: http.StatusBadRequest, Code: jsonrpc.CodeInvalidRequest, Message: "Invalid request: " + msg + "."}
}

// rpcErrorBody is a JSON-RPC error response.
type rpcErrorBody struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcErrorDetail  `json:"error"`
}

type rpcErrorDetail struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func newRPCErrorBody(id json.RawMessage, code int, message string) rpcErrorBody {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return rpcErrorBody{JSONRPC: "2.0", ID: id, Error: rpcErrorDetail{Code: code, Message: message}}
}

func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	h := w.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(newRPCErrorBody(id, code, message))
}

// plainErrors turns the SDK's plain-text refusals (http.Error: a malformed
// message, a method it does not handle, a batch in a protocol without
// batches, a wrong header) into JSON-RPC error objects, as the API promises
// for every protocol error. Anything else passes through untouched.
type plainErrors struct {
	http.ResponseWriter
	id        json.RawMessage
	status    int
	capturing bool
	text      bytes.Buffer
}

func (p *plainErrors) WriteHeader(status int) {
	if status >= 400 && strings.HasPrefix(p.Header().Get("Content-Type"), "text/plain") {
		p.status, p.capturing = status, true
		return
	}
	p.ResponseWriter.WriteHeader(status)
}

func (p *plainErrors) Write(b []byte) (int, error) {
	if p.capturing {
		if room := 1024 - p.text.Len(); room > 0 {
			p.text.Write(b[:min(len(b), room)])
		}
		return len(b), nil
	}
	return p.ResponseWriter.Write(b)
}

// Flush passes on a flush of an answer that is not being rewritten.
func (p *plainErrors) Flush() {
	if f, ok := p.ResponseWriter.(http.Flusher); ok && !p.capturing {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (p *plainErrors) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// finish writes the captured refusal as a JSON-RPC error.
func (p *plainErrors) finish() {
	if !p.capturing {
		return
	}
	text := strings.TrimSpace(p.text.String())
	code := jsonrpc.CodeInvalidRequest
	switch {
	case strings.HasPrefix(text, "malformed payload"):
		code = jsonrpc.CodeParseError
	case strings.Contains(text, "JSON RPC not handled"): // the SDK's jsonrpc2.ErrNotHandled
		code = jsonrpc.CodeMethodNotFound
	}
	p.Header().Del("X-Content-Type-Options")
	writeRPCError(p.ResponseWriter, p.status, p.id, code, text)
}

// batchAnswer holds the answer to a batch, at most MaxBatchAnswer bytes.
type batchAnswer struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
	over   bool
}

func (b *batchAnswer) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *batchAnswer) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	if b.over || b.body.Len()+len(p) > MaxBatchAnswer {
		b.over = true
		b.body.Reset()
		return len(p), nil
	}
	return b.body.Write(p)
}

// Flush is a no-op: the answer goes out whole, in finish.
func (b *batchAnswer) Flush() {}

// finish sends the held answer or, when it was over MaxBatchAnswer, an error
// for each call of the batch.
func (b *batchAnswer) finish(ids []json.RawMessage) {
	if !b.over {
		if b.status != 0 {
			b.ResponseWriter.WriteHeader(b.status)
		}
		_, _ = b.ResponseWriter.Write(b.body.Bytes())
		return
	}
	msg := fmt.Sprintf("The answers to this batch exceed %d KB; send the calls one by one.", MaxBatchAnswer>>10)
	answers := make([]rpcErrorBody, 0, len(ids))
	for _, id := range ids {
		answers = append(answers, newRPCErrorBody(id, jsonrpc.CodeInternalError, msg))
	}
	h := b.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "application/json")
	b.ResponseWriter.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(b.ResponseWriter).Encode(answers)
}
