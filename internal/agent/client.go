package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"tribe/internal/errs"
)

// Client timeouts. Connecting covers DNS, TCP and TLS; between chunks covers
// the wait for the response headers too, since a model may think for a
// while before its first token.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultIdleTimeout    = 60 * time.Second
)

// ClientOptions configures a Client.
type ClientOptions struct {
	BaseURL string // AI_BASE_URL, such as https://api.openai.com/v1
	APIKey  string // AI_API_KEY; sent as a bearer token when set
	Model   string // AI_MODEL

	ConnectTimeout time.Duration // 0: DefaultConnectTimeout
	IdleTimeout    time.Duration // longest wait for the next bytes; 0: DefaultIdleTimeout
	// Transport replaces the default transport (tests, proxies); its own
	// connect timeout then applies.
	Transport http.RoundTripper
}

// Client streams chat completions from an OpenAI-compatible API (OpenAI,
// Ollama, vLLM, llama.cpp, OpenRouter, Gemini's compatible endpoint). It is
// safe for concurrent use.
type Client struct {
	url, apiKey, model string
	idle               time.Duration
	http               *http.Client
}

// NewClient returns a client for the API at o.BaseURL.
func NewClient(o ClientOptions) *Client {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	rt := o.Transport
	if rt == nil {
		dialer := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
		rt = &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         dialer.DialContext,
			TLSHandshakeTimeout: o.ConnectTimeout,
			ForceAttemptHTTP2:   true,
			MaxIdleConns:        100,
			// Answers stream in parallel; keep enough idle connections to the
			// one provider that a busy minute does not redo TLS each time.
			MaxIdleConnsPerHost: 32,
			IdleConnTimeout:     90 * time.Second,
		}
	}
	return &Client{
		url:    strings.TrimRight(o.BaseURL, "/") + "/chat/completions",
		apiKey: o.APIKey,
		model:  o.Model,
		idle:   o.IdleTimeout,
		http:   &http.Client{Transport: rt},
	}
}

// Model is the model the client asks for.
func (c *Client) Model() string { return c.model }

// Request is one completion: the conversation, the tools offered and the
// most tokens the answer may use.
type Request struct {
	Messages  []Message
	Tools     []Tool
	MaxTokens int
}

// Response is a whole streamed completion.
type Response struct {
	Content      string
	ToolCalls    []ToolCall
	FinishReason string
	Usage        *Usage // nil when the provider did not report it
}

// ProviderError is a failure of the AI provider. Error is for the log;
// unwrapped, it is an *errs.Error (errs.Unavailable) whose message a person
// can read without learning anything about the provider's internals.
type ProviderError struct {
	Status      int    // the HTTP status of a refused request; 0 otherwise
	Detail      string // what the provider said, for the log
	Timeout     bool   // no bytes for the idle timeout
	Unreachable bool   // no connection could be made
	Cut         bool   // the stream ended before the answer did
}

// Error describes the failure for the log, with the provider's own words.
func (e *ProviderError) Error() string {
	var b strings.Builder
	b.WriteString("AI provider")
	if e.Status != 0 {
		fmt.Fprintf(&b, " answered HTTP %d", e.Status)
	}
	if e.Detail != "" {
		b.WriteString(": " + e.Detail)
	}
	return b.String()
}

// Unwrap is the error a person reads.
func (e *ProviderError) Unwrap() error { return errs.New(errs.Unavailable, e.Message()) }

// Message says what went wrong in words for a person.
func (e *ProviderError) Message() string {
	switch {
	case e.Timeout:
		return "The AI provider stopped responding. Please try again."
	case e.Unreachable:
		return "Failed to connect to AI: the provider could not be reached. Please try again later."
	case e.Cut:
		return "The AI provider's answer was cut off. Please try again."
	case e.Status == http.StatusTooManyRequests:
		return "The AI provider is receiving too many requests right now. Please try again in a minute."
	case e.Status >= 500:
		return fmt.Sprintf("The AI provider is not available right now (HTTP %d). Please try again later.", e.Status)
	case e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden:
		return "The AI provider refused this site's credentials. The site owner needs to check the AI settings."
	case e.Status != 0:
		return fmt.Sprintf("The AI provider could not answer this request (HTTP %d).", e.Status)
	default:
		return "The AI provider failed while answering. Please try again."
	}
}

// errIdle is the cause of a request cancelled for silence.
var errIdle = errors.New("no data from the AI provider within the idle timeout")

// Stream asks for a completion and reads it as it streams. onContent, when
// not nil, receives each piece of text as it arrives; an error from it
// stops the stream and is returned. Cancelling ctx closes the upstream
// request, so the provider stops generating. Failures of the provider are
// *ProviderError; a cancelled ctx returns ctx's error.
func (c *Client) Stream(ctx context.Context, req Request, onContent func(string) error) (Response, error) {
	body := completionRequest{
		Model:     c.model,
		Messages:  req.Messages,
		MaxTokens: req.MaxTokens,
		Stream:    true,
		// Without it OpenAI reports no token counts in a stream.
		StreamOptions: &streamOptions{IncludeUsage: true},
	}
	for _, t := range req.Tools {
		body.Tools = append(body.Tools, toolSpec{Type: "function", Function: functionSpec{
			Name: t.Name, Description: t.Description, Parameters: t.InputSchema,
		}})
	}
	b, err := json.Marshal(body)
	if err != nil {
		return Response{}, fmt.Errorf("encode completion request: %w", err)
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// One timer guards every wait: for the headers, then between reads.
	idle := time.AfterFunc(c.idle, func() { cancel(errIdle) })
	defer idle.Stop()

	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(b))
	if err != nil {
		return Response{}, fmt.Errorf("build completion request: %w", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	if c.apiKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.http.Do(hreq)
	if err != nil {
		return Response{}, c.failure(ctx, err, &ProviderError{Unreachable: true, Detail: err.Error()})
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<10))
		return Response{}, &ProviderError{Status: resp.StatusCode, Detail: bodyDetail(raw)}
	}

	d := &decoder{onContent: onContent}
	buf := make([]byte, 8<<10)
	for !d.done {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			idle.Reset(c.idle)
			if err := d.feed(buf[:n]); err != nil {
				return Response{}, streamFailure(err)
			}
		}
		if rerr == io.EOF {
			if err := d.end(); err != nil {
				return Response{}, streamFailure(err)
			}
			if !d.done && d.finish == "" {
				return Response{}, &ProviderError{Cut: true, Detail: "the stream ended without [DONE]"}
			}
			break // a finish reason without [DONE] is a whole answer
		}
		if rerr != nil {
			return Response{}, c.failure(ctx, rerr, &ProviderError{Cut: true, Detail: rerr.Error()})
		}
	}
	return Response{Content: d.content.String(), ToolCalls: d.calls.result(), FinishReason: d.finish, Usage: d.usage}, nil
}

// failure tells apart why a request stopped: the idle timer, the caller
// going away (its own error, so it is not counted against the provider), or
// the provider (otherwise).
func (c *Client) failure(ctx context.Context, err error, otherwise error) error {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errIdle):
		return &ProviderError{Timeout: true, Detail: fmt.Sprintf("nothing for %s", c.idle)}
	case cause != nil:
		return fmt.Errorf("AI request stopped: %w", cause)
	}
	return otherwise
}

// streamFailure sorts an error of the decoder: the caller's own (from
// onContent) as is, anything about the stream as a *ProviderError.
func streamFailure(err error) error {
	var se *sinkError
	if errors.As(err, &se) {
		return se.err
	}
	var pe *ProviderError
	if errors.As(err, &pe) {
		return pe
	}
	return &ProviderError{Detail: err.Error()}
}

// bodyDetail is the message of an error response, for the log.
func bodyDetail(raw []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && len(e.Error) > 0 {
		return errorDetail(e.Error)
	}
	return fmt.Sprintf("%.300s", bytes.TrimSpace(raw))
}
