package kb

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Embedder turns texts into vectors, one per text, in order. Model names the
// model, so vectors of different models are never compared.
type Embedder interface {
	Model() string
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// OpenAIEmbedder calls an OpenAI-compatible POST {base}/embeddings (OpenAI,
// Ollama, vLLM, llama.cpp, OpenRouter, Gemini's compatible endpoint).
type OpenAIEmbedder struct {
	baseURL, apiKey, model string
	client                 *http.Client
}

// NewOpenAIEmbedder returns an embedder for the API at baseURL (for example
// https://api.openai.com/v1); client nil uses a client with a 60 s timeout.
func NewOpenAIEmbedder(baseURL, apiKey, model string, client *http.Client) *OpenAIEmbedder {
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	return &OpenAIEmbedder{baseURL: strings.TrimRight(baseURL, "/"), apiKey: apiKey, model: model, client: client}
}

// Model is the embedding model's name.
func (e *OpenAIEmbedder) Model() string { return e.model }

// maxEmbeddingResponse bounds a response body: 64 texts of 3,072 numbers
// written out as JSON are about 4 MB.
const maxEmbeddingResponse = 64 << 20

// Embed sends texts in one request and returns their vectors in order.
func (e *OpenAIEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(map[string]any{"model": e.model, "input": texts})
	if err != nil {
		return nil, fmt.Errorf("encode embeddings request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.baseURL+"/embeddings", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embeddings request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.apiKey)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embeddings request: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxEmbeddingResponse))
	if err != nil {
		return nil, fmt.Errorf("read embeddings response: %w", err)
	}
	var out struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	decodeErr := json.Unmarshal(raw, &out)
	if resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(raw))
		if decodeErr == nil && out.Error != nil && out.Error.Message != "" {
			msg = out.Error.Message
		}
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		return nil, fmt.Errorf("embeddings API answered %s: %s", resp.Status, msg)
	}
	if decodeErr != nil {
		return nil, fmt.Errorf("embeddings response is not the expected JSON: %w", decodeErr)
	}
	vecs := make([][]float32, len(texts))
	for _, d := range out.Data {
		if d.Index < 0 || d.Index >= len(texts) || vecs[d.Index] != nil {
			return nil, fmt.Errorf("embeddings response has a bad index %d", d.Index)
		}
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("embeddings response has an empty vector at %d", d.Index)
		}
		vecs[d.Index] = d.Embedding
	}
	for i, v := range vecs {
		if v == nil {
			return nil, fmt.Errorf("embeddings response has no vector for input %d of %d", i, len(texts))
		}
		if len(v) != len(vecs[0]) {
			return nil, errors.New("embeddings response mixes vector lengths")
		}
	}
	return vecs, nil
}
