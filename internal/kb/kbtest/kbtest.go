// Package kbtest serves the OpenAI embeddings wire format for tests, with
// deterministic vectors, so the knowledge base's embedding path runs against
// a real HTTP server without a model.
package kbtest

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// Vector is a deterministic stand-in for an embedding: a hashed bag of words
// (lower-cased, a plural "s" dropped, common short words skipped), each word
// adding to a few dimensions, normalised. Texts sharing words get similar
// vectors, which is all the tests and benchmarks need.
func Vector(text string, dims int) []float32 {
	v := make([]float32, dims)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		if len(w) <= 2 {
			continue
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		h := fnv.New64a()
		_, _ = h.Write([]byte(w))
		x := h.Sum64()
		for range 3 {
			i := int(x % uint64(dims))
			sign := float32(1)
			if x&(1<<40) != 0 {
				sign = -1
			}
			v[i] += sign
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	var sum float64
	for _, f := range v {
		sum += float64(f) * float64(f)
	}
	if sum > 0 {
		inv := float32(1 / math.Sqrt(sum))
		for i := range v {
			v[i] *= inv
		}
	}
	return v
}

// Server is an in-test OpenAI-compatible embeddings API.
type Server struct {
	*httptest.Server
	Dims int

	mu       sync.Mutex
	calls    int
	inputs   int
	failures int // the next calls that answer 503
}

// NewServer starts an embeddings server at URL (use it as AI_BASE_URL) that
// answers POST /embeddings with Vector for each input. It stops with the test.
func NewServer(t testing.TB, dims int) *Server {
	s := &Server{Dims: dims}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// FailNext makes the next n calls answer 503 with an OpenAI-style error.
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = n
}

// Calls is how many requests the server has answered, and how many texts
// they held.
func (s *Server) Calls() (requests, texts int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls, s.inputs
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Method != http.MethodPost || r.URL.Path != "/embeddings" {
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"error":{"message":"no such endpoint","type":"invalid_request_error"}}`))
		return
	}
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":{"message":"model and input are required","type":"invalid_request_error"}}`))
		return
	}
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":{"message":"input must be a string or a list of strings","type":"invalid_request_error"}}`))
			return
		}
		inputs = []string{one}
	}
	s.mu.Lock()
	s.calls++
	s.inputs += len(inputs)
	fail := s.failures > 0
	if fail {
		s.failures--
	}
	s.mu.Unlock()
	if fail {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"error":{"message":"The server is overloaded, try again later.","type":"server_error"}}`))
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	out := struct {
		Object string         `json:"object"`
		Data   []item         `json:"data"`
		Model  string         `json:"model"`
		Usage  map[string]int `json:"usage"`
	}{Object: "list", Model: req.Model, Usage: map[string]int{"prompt_tokens": 0, "total_tokens": 0}}
	// Answer in reverse order: clients must place vectors by index.
	for i := len(inputs) - 1; i >= 0; i-- {
		out.Data = append(out.Data, item{"embedding", i, Vector(inputs[i], s.Dims)})
	}
	_ = json.NewEncoder(w).Encode(out)
}
