package agent

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"tribe/internal/agent/aitest"
	"tribe/internal/errs"
)

// stream runs one completion against the fake and collects the deltas.
func stream(t *testing.T, fake *aitest.Server, o ClientOptions, req Request) (Response, []string, error) {
	t.Helper()
	o.BaseURL, o.Model = fake.URL, "test-model"
	c := NewClient(o)
	var deltas []string
	resp, err := c.Stream(context.Background(), req, func(s string) error { deltas = append(deltas, s); return nil })
	return resp, deltas, err
}

var hello = Request{Messages: []Message{{Role: "user", Content: "Hello"}}, MaxTokens: 100}

func TestClientContent(t *testing.T) {
	fake := aitest.Start(t, aitest.Turns(aitest.Text("Hel", "lo ", "there.")))
	reg := siteRegistry(t, &fakeKB{})
	req := hello
	req.Tools = reg.List(anonymous)
	resp, deltas, err := stream(t, fake, ClientOptions{APIKey: "sk-test"}, req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "Hello there." || !reflect.DeepEqual(deltas, []string{"Hel", "lo ", "there."}) || resp.FinishReason != "stop" {
		t.Errorf("%+v %q", resp, deltas)
	}
	if resp.Usage == nil || resp.Usage.PromptTokens != 100 {
		t.Errorf("usage %+v", resp.Usage)
	}
	got := fake.Requests()[0]
	if got.Model != "test-model" || !got.Stream || got.MaxTokens != 100 || got.Header.Get("Authorization") != "Bearer sk-test" ||
		got.Header.Get("Accept") != "text/event-stream" {
		t.Errorf("request %+v", got)
	}
	if names := got.ToolNames(); !reflect.DeepEqual(names, []string{ToolSearch, ToolReadResource, ToolListServices}) {
		t.Errorf("tools offered: %v", names)
	}
	if !strings.Contains(string(got.Tools[0].Function.Parameters), `"query"`) {
		t.Errorf("the search tool's schema was not sent: %s", got.Tools[0].Function.Parameters)
	}
}

func TestClientNoKeyNoAuthorization(t *testing.T) {
	fake := aitest.Start(t, aitest.Turns(aitest.Text("ok")))
	if _, _, err := stream(t, fake, ClientOptions{}, hello); err != nil {
		t.Fatal(err)
	}
	if h := fake.Requests()[0].Header.Get("Authorization"); h != "" {
		t.Errorf("Authorization %q without a key (Ollama needs none)", h)
	}
}

func TestClientLinesSplitAcrossReads(t *testing.T) {
	turn := aitest.Text("Lines ", "cut ", "anywhere ", "still ", "read.")
	for _, n := range []int{5, 13, 64} {
		fake := aitest.Start(t, aitest.Turns(aitest.Split(turn, n)))
		resp, _, err := stream(t, fake, ClientOptions{}, hello)
		if err != nil || resp.Content != "Lines cut anywhere still read." {
			t.Errorf("writes of %d bytes: %q, %v", n, resp.Content, err)
		}
	}
}

func TestClientToolCallsSplitAcrossChunks(t *testing.T) {
	turn := aitest.Calls(
		aitest.Call{ID: "call_1", Name: ToolSearch, Args: `{"query": "tribe price", "limit": 3}`},
		aitest.Call{ID: "call_2", Name: ToolReadResource, Args: `{"uri": "/content/services.json", "path": "sessions[0]"}`},
	)
	fake := aitest.Start(t, aitest.Turns(aitest.Split(turn, 23)))
	resp, _, err := stream(t, fake, ClientOptions{}, hello)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ToolCalls) != 2 || resp.ToolCalls[0].Function.Arguments != `{"query": "tribe price", "limit": 3}` ||
		resp.ToolCalls[1].ID != "call_2" || resp.ToolCalls[1].Function.Name != ToolReadResource ||
		!json.Valid([]byte(resp.ToolCalls[1].Function.Arguments)) || resp.FinishReason != "tool_calls" {
		t.Fatalf("%+v", resp)
	}
}

func TestClientOllamaIndexReuse(t *testing.T) {
	fake := aitest.Start(t, aitest.Turns(aitest.OllamaCalls(
		aitest.Call{ID: "call_a", Name: ToolSearch, Args: `{"query":"agents"}`},
		aitest.Call{ID: "call_b", Name: ToolListServices, Args: `{}`},
	)))
	resp, _, err := stream(t, fake, ClientOptions{}, hello)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ToolCalls) != 2 || resp.ToolCalls[0].Function.Arguments != `{"query":"agents"}` || resp.ToolCalls[1].Function.Name != ToolListServices {
		t.Fatalf("two calls at index 0 must stay two: %+v", resp.ToolCalls)
	}
}

func TestClientProviderFailures(t *testing.T) {
	cases := []struct {
		name  string
		turn  aitest.Turn
		check func(*ProviderError) bool
		msg   string
	}{
		{"429", aitest.Status(429, "Rate limit reached for requests"), func(e *ProviderError) bool { return e.Status == 429 && strings.Contains(e.Detail, "Rate limit") }, "too many requests"},
		{"503", aitest.Status(503, "overloaded"), func(e *ProviderError) bool { return e.Status == 503 }, "not available right now (HTTP 503)"},
		{"401", aitest.Status(401, "Incorrect API key"), func(e *ProviderError) bool { return e.Status == 401 }, "refused this site's credentials"},
		{"400", aitest.Status(400, "model not found"), func(e *ProviderError) bool { return e.Status == 400 }, "could not answer this request (HTTP 400)"},
		{"error mid-stream", aitest.Turn{Steps: []aitest.Step{{Write: aitest.ContentChunk("Par")}, {Write: aitest.ErrorChunk("the model crashed")}}},
			func(e *ProviderError) bool { return strings.Contains(e.Detail, "the model crashed") }, "failed while answering"},
		{"cut off", aitest.Turn{Steps: []aitest.Step{{Write: aitest.ContentChunk("Par")}}}, func(e *ProviderError) bool { return e.Cut }, "cut off"},
		{"not JSON", aitest.Turn{Steps: []aitest.Step{{Write: "data: <html>\n\n"}}}, func(e *ProviderError) bool { return strings.Contains(e.Detail, "not JSON") }, "failed while answering"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake := aitest.Start(t, aitest.Turns(c.turn))
			_, _, err := stream(t, fake, ClientOptions{}, hello)
			var pe *ProviderError
			if !errors.As(err, &pe) || !c.check(pe) {
				t.Fatalf("error %#v", err)
			}
			wantErr(t, err, errs.Unavailable, c.msg)
		})
	}
}

func TestClientUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	c := NewClient(ClientOptions{BaseURL: "http://" + addr + "/v1", Model: "m"})
	_, err = c.Stream(context.Background(), hello, nil)
	var pe *ProviderError
	if !errors.As(err, &pe) || !pe.Unreachable {
		t.Fatalf("%v", err)
	}
	wantErr(t, err, errs.Unavailable, "Failed to connect to AI")
}

func TestClientIdleTimeout(t *testing.T) {
	slowFirst := aitest.Turn{Steps: []aitest.Step{{Pause: 2 * time.Second, Write: aitest.ContentChunk("late")}}}
	slowBetween := aitest.Turn{Steps: []aitest.Step{{Write: aitest.ContentChunk("early")}, {Pause: 2 * time.Second, Write: aitest.ContentChunk("late")}}}
	for name, turn := range map[string]aitest.Turn{"before the first chunk": slowFirst, "between chunks": slowBetween} {
		t.Run(name, func(t *testing.T) {
			fake := aitest.Start(t, aitest.Turns(turn))
			start := time.Now()
			_, _, err := stream(t, fake, ClientOptions{IdleTimeout: 150 * time.Millisecond}, hello)
			var pe *ProviderError
			if !errors.As(err, &pe) || !pe.Timeout {
				t.Fatalf("%v", err)
			}
			if took := time.Since(start); took > time.Second {
				t.Errorf("gave up after %s", took)
			}
			wantErr(t, err, errs.Unavailable, "stopped responding")
			select {
			case <-fake.ClientGone():
			case <-time.After(3 * time.Second):
				t.Error("the provider's request was not closed")
			}
		})
	}
}

func TestClientCancelClosesUpstream(t *testing.T) {
	hold := make(chan struct{})
	defer close(hold)
	fake := aitest.Start(t, aitest.Turns(aitest.Turn{Steps: []aitest.Step{{Write: aitest.ContentChunk("thinking")}, {Wait: hold}}}))
	c := NewClient(ClientOptions{BaseURL: fake.URL, Model: "m"})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Stream(ctx, hello, func(string) error { cancel(); return nil })
		errc <- err
	}()
	select {
	case <-fake.ClientGone():
	case <-time.After(3 * time.Second):
		t.Fatal("the provider's request was not cancelled")
	}
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
}

func TestClientContentCallbackErrorStops(t *testing.T) {
	fake := aitest.Start(t, aitest.Turns(aitest.Text("a", "b")))
	c := NewClient(ClientOptions{BaseURL: fake.URL, Model: "m"})
	stop := errors.New("reader gone")
	_, err := c.Stream(context.Background(), hello, func(string) error { return stop })
	if !errors.Is(err, stop) {
		t.Fatalf("%v", err)
	}
	var pe *ProviderError
	if errors.As(err, &pe) {
		t.Fatal("the caller's own error was blamed on the provider")
	}
}

func TestProviderErrorText(t *testing.T) {
	e := &ProviderError{Status: http.StatusTooManyRequests, Detail: "slow down"}
	if e.Error() != "AI provider answered HTTP 429: slow down" {
		t.Errorf("%q", e.Error())
	}
}
