package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"tribe/internal/agent"
	"tribe/internal/config"
	"tribe/internal/errs"
	"tribe/internal/gaps"
	"tribe/internal/httpx"
	"tribe/internal/metrics"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
)

// AI chat limits; docs/api.md ("AI chat") documents them.
const (
	// aiHeartbeat keeps proxies from closing a stream while a tool or the
	// model's first token takes a while.
	aiHeartbeat = 15 * time.Second
	// maxAIChatBody fits 20 messages of 4,000 characters, even multi-byte
	// and escaped; CheckMessages enforces the real limits with clear words.
	maxAIChatBody = 512 << 10
	// At most this many answers stream at once for one person (an account,
	// or an address when signed out), and in all on this server.
	aiStreamsPerCaller = 3
	aiStreamsTotal     = 500
)

var (
	errTooManyAIStreams = errs.New(errs.TooManyStreams, "You already have answers streaming. Wait for them to finish, then ask again.")
	errAIBusy           = errs.New(errs.Unavailable, "The assistant is busy right now. Please try again in a minute.")
)

// msgAIRestarting ends an answer cut short by a shutdown.
const msgAIRestarting = "The server is restarting. Please ask again in a moment."

// aiAPI serves the AI chat.
type aiAPI struct {
	db      *store.DB // the viewer's rights
	cfg     *config.Config
	logger  *slog.Logger
	metrics *metrics.Metrics
	agent   *agent.Agent
	streams *httpx.Streams
	// Questions per person: tighter for anonymous visitors (per address)
	// than for signed-in members (per account), since each answer costs
	// the site a model call.
	anonymousIP *ratelimit.Limiter
	account     *ratelimit.Limiter
	open        *ratelimit.Slots
}

// newAIAPI builds the chat over the site's tools (the registry the MCP
// server shares) with the language model the configuration names, or the
// offline answers from the knowledge base without one.
func newAIAPI(cfg *config.Config, db *store.DB, site agent.SiteDeps, tools *agent.Registry, m *metrics.Metrics, logger *slog.Logger, heartbeat time.Duration, share shareLimit) *aiAPI {
	var client *agent.Client
	if cfg.AIEnabled() {
		client = agent.NewClient(agent.ClientOptions{BaseURL: cfg.AIBaseURL, APIKey: cfg.AIAPIKey, Model: cfg.AIModel})
	} else {
		logger.Info("AI chat answers offline from the knowledge base; set AI_BASE_URL and AI_MODEL to use a language model")
	}
	return &aiAPI{
		db:          db,
		cfg:         cfg,
		logger:      logger,
		metrics:     m,
		agent:       agent.New(agent.Options{Client: client, Tools: tools, Site: site, Logger: logger}),
		streams:     httpx.NewStreams(heartbeat, 0),
		anonymousIP: ratelimit.New(20, 15*time.Second, share("ai-anonymous-ip")),
		account:     ratelimit.New(40, 5*time.Second, share("ai-account")),
		open:        ratelimit.NewSlots(aiStreamsPerCaller, aiStreamsTotal),
	}
}

func (a *aiAPI) register(g *registrar) error {
	g.route("POST /api/ai/chat", anyone, a.chat)
	return nil
}

// chat answers a conversation as a stream of chat.completion.chunk lines.
// Everything that can be refused is refused before the stream starts, as
// a JSON error; a failure after that ends the stream with an "AI Error"
// chunk.
func (a *aiAPI) chat(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	key, limiter := "ip:"+clientKey(r, a.cfg.TrustedProxies), a.anonymousIP
	if !v.Anonymous() {
		key, limiter = "user:"+v.UserID, a.account
	}
	if err := limited(limitCheck{limiter, key}); err != nil {
		return err
	}
	var in AIChatRequest
	if err := httpx.ReadJSONLimit(w, r, &in, maxAIChatBody); err != nil {
		return err
	}
	msgs, err := agent.CheckMessages(in.Messages)
	if err != nil {
		return err
	}
	purpose, err := agent.CheckPurpose(in.Purpose)
	if err != nil {
		return err
	}
	release, refused := a.open.Acquire(key)
	switch refused {
	case ratelimit.SlotsKeyFull:
		return errTooManyAIStreams
	case ratelimit.SlotsTotalFull:
		return errAIBusy
	}
	defer release()

	stream, err := a.streams.Open(w, r)
	if err != nil {
		return nil // Open answered a shutdown itself; anything else is a client gone
	}
	defer stream.Close()
	client := clientKey(r, a.cfg.TrustedProxies)
	sum := a.relay(r, stream, func(ctx context.Context, emit agent.Emit) agent.Summary {
		// The chat's searches count against this client's knowledge-gap allowance.
		return a.agent.Answer(gaps.WithClient(ctx, client), v, msgs, purpose, emit)
	})
	a.metrics.AIRequest(sum.Provider, sum.Outcome, sum.PromptTokens, sum.CompletionTokens)
	if sum.Err != nil {
		a.logger.Warn("AI chat failed", "provider", sum.Provider, "rounds", sum.ToolRounds, "err", sum.Err)
	}
	return nil
}

// relay runs an answer in its own goroutine and writes each of its events
// to the stream as a chunk, flushed at once, with a keep-alive comment
// whenever the heartbeat ticks (a long tool run or a slow first token);
// then the final chunk and [DONE]. The answer's context is the stream's,
// so a person leaving or the server stopping cancels the model's request.
func (a *aiAPI) relay(r *http.Request, stream *httpx.Stream, answer func(context.Context, agent.Emit) agent.Summary) agent.Summary {
	ctx := stream.Context()
	id, model, created := chunkID(), a.agent.Provider(), time.Now().Unix()
	events := make(chan agent.Event)
	done := make(chan agent.Summary, 1)
	go func() {
		// This goroutine is outside the handler's panic recovery: a panic
		// here would stop the server, so it ends this answer instead.
		defer func() {
			if p := recover(); p != nil {
				done <- agent.Summary{Provider: model, Outcome: agent.OutcomeError, Err: fmt.Errorf("AI chat panicked: %v", p)}
			}
		}()
		done <- answer(ctx, func(e agent.Event) error {
			select {
			case events <- e:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	broken := false   // a write failed: the person is gone
	reported := false // an error chunk was sent
	send := func(err error) {
		if err != nil && !broken {
			broken = true
			stream.Close() // ends ctx, so the answer stops
		}
	}
	for {
		select {
		case e := <-events:
			reported = reported || e.Error != ""
			if !broken {
				send(stream.SendData(e.Chunk(id, model, created)))
			}
		case <-stream.Heartbeat():
			if !broken {
				send(stream.KeepAlive())
			}
		case sum := <-done:
			if broken {
				return sum
			}
			switch {
			case sum.Outcome == agent.OutcomeOK:
				send(stream.SendData(agent.FinalChunk(id, model, created)))
			case sum.Outcome == agent.OutcomeCancelled && r.Context().Err() == nil:
				// The person is still there: the server is shutting down.
				send(stream.SendData(agent.Event{Error: msgAIRestarting}.Chunk(id, model, created)))
			case sum.Outcome == agent.OutcomeCancelled:
				return sum
			case !reported:
				send(stream.SendData(agent.Event{Error: errs.MessageOf(sum.Err)}.Chunk(id, model, created)))
			}
			send(stream.SendDone())
			return sum
		}
	}
}

// chunkID names one answer's chunks, as OpenAI's chatcmpl- ids do.
func chunkID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "chatcmpl-" + hex.EncodeToString(b[:])
}
