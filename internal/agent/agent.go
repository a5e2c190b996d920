package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/kb"
)

// Limits of one answer.
const (
	MaxMessages     = 20   // messages in a conversation
	MaxMessageChars = 4000 // characters in one message
	MaxToolRounds   = 4    // rounds of tool calls before the model must answer
	// MaxAnswerTokens caps the output tokens of one answer, over all its
	// rounds: each request to the model may use what the earlier ones left.
	MaxAnswerTokens = 1500
	// MaxAnswerTime bounds one answer from the first search to the last token.
	MaxAnswerTime = 3 * time.Minute
	// MaxAnswerBytes caps the text and tool calls one answer relays to the
	// page, whatever the model sends: max_tokens asks the model for
	// MaxAnswerTokens (about 6 KB of English, 12 KB at worst), but a model
	// that ignores it pushed 38.6 MB through. Past it the answer ends with
	// msgAnswerTooLong.
	MaxAnswerBytes = 32 << 10

	retrievalResults = 5           // passages placed in the system prompt
	maxToolResult    = 12 << 10    // bytes of one tool result given to the model
	retrievalID      = "kb_search" // the tool_status id of the search made for every answer
)

// Outcomes of an answer, for the metrics.
const (
	OutcomeOK        = "ok"
	OutcomeError     = "error"
	OutcomeCancelled = "cancelled" // the person went away
)

// ProviderOffline names the offline answers in metrics and in the stream's
// model field.
const ProviderOffline = "offline"

// Purpose is what a person asks the agent for: an answer to a question
// (the default) or a step-by-step plan for reaching a goal.
type Purpose string

// The purposes a chat request may name.
const (
	PurposeAnswer Purpose = ""
	PurposeGoal   Purpose = "goal"
)

// msgAnswerTooLong ends an answer cut at MaxAnswerBytes.
const msgAnswerTooLong = "The answer was longer than this site allows and was stopped here."

// errAnswerTooLong stops an answer at MaxAnswerBytes.
var errAnswerTooLong = errs.New(errs.TooLarge, msgAnswerTooLong)

// msgPurpose refuses a purpose the server does not know.
const msgPurpose = `The purpose must be "goal" or left out.`

// CheckPurpose returns the purpose a request named, or an *errs.Error for
// any other value.
func CheckPurpose(s string) (Purpose, error) {
	switch p := Purpose(s); p {
	case PurposeAnswer, PurposeGoal:
		return p, nil
	default:
		return "", errs.Field("purpose", msgPurpose)
	}
}

// Messages of CheckMessages; the page shows them as they are.
const (
	msgPrompt   = "Please enter a prompt"
	msgTooMany  = "A conversation may hold at most 20 messages. Clear the history to go on."
	msgTooLong  = "Each message may be at most 4,000 characters."
	msgRole     = "Each message's role must be user or assistant."
	msgLastUser = "The last message must be the question, from the user."
)

// CheckMessages checks a conversation sent by a person and returns what the
// model will see. System messages are dropped, never obeyed: the server
// writes the only system prompt. Empty messages are dropped too. The error
// is an *errs.Error naming the message.
func CheckMessages(in []ChatMessage) ([]ChatMessage, error) {
	if len(in) > MaxMessages {
		return nil, errs.Field("messages", msgTooMany)
	}
	out := make([]ChatMessage, 0, len(in))
	for i, m := range in {
		field := fmt.Sprintf("messages[%d]", i)
		switch m.Role {
		case "user", "assistant":
		case "system":
			continue
		default:
			return nil, errs.Field(field+".role", msgRole)
		}
		if utf8.RuneCountInString(m.Content) > MaxMessageChars {
			return nil, errs.Field(field+".content", msgTooLong)
		}
		if strings.TrimSpace(m.Content) == "" {
			continue
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, errs.Field("messages", msgPrompt)
	}
	if out[len(out)-1].Role != "user" {
		return nil, errs.Field("messages", msgLastUser)
	}
	return out, nil
}

// Options configures an Agent.
type Options struct {
	Client *Client   // nil: offline answers from the knowledge base
	Tools  *Registry // must hold search_knowledge_base
	Site   SiteDeps  // the facts of the system prompt
	Logger *slog.Logger
}

// Agent answers conversations. It is safe for concurrent use.
type Agent struct {
	client *Client
	tools  *Registry
	site   SiteDeps
	facts  string
	logger *slog.Logger
}

// New returns an agent.
func New(o Options) *Agent {
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Agent{client: o.Client, tools: o.Tools, site: o.Site, facts: siteFacts(o.Site), logger: o.Logger}
}

// Provider is the model that answers, or ProviderOffline.
func (a *Agent) Provider() string {
	if a.client == nil {
		return ProviderOffline
	}
	return a.client.Model()
}

// Event is one thing an answer tells the page: a piece of text, a tool's
// status, the tool calls the model made, or an error that ends the answer.
// Exactly one field is set.
type Event struct {
	Content    string
	ToolStatus *ToolStatus
	ToolCalls  []ToolCall
	Error      string // for a person
}

// Emit receives the events of an answer in order. An error from it (the
// person went away) stops the answer.
type Emit func(Event) error

// Summary is what an answer cost and how it ended.
type Summary struct {
	Provider         string
	Outcome          string // OutcomeOK, OutcomeError or OutcomeCancelled
	PromptTokens     int
	CompletionTokens int
	ToolRounds       int
	Err              error // why, when Outcome is OutcomeError (for the log)
}

// emitError marks an error of Emit, so the answer ends as cancelled.
type emitError struct{ err error }

func (e emitError) Error() string { return "emit: " + e.err.Error() }
func (e emitError) Unwrap() error { return e.err }

// Answer answers the last message of msgs (checked by CheckMessages) for
// viewer v, for purpose p, emitting events as they happen. It searches the knowledge base
// for that message first (reported as a search_knowledge_base tool status),
// then either lets the model answer with the passages in its system prompt
// and the tools v may call, or, offline, composes the answer from the
// passages. For PurposeGoal the model is told to write a plan; offline,
// the answer says that planning needs a model and offers the coaching
// sessions instead. A failure is emitted as an Error event and reported in the
// Summary; Answer itself never fails.
func (a *Agent) Answer(ctx context.Context, v access.Viewer, msgs []ChatMessage, p Purpose, emit Emit) Summary {
	outer := ctx
	ctx, cancel := context.WithTimeout(ctx, MaxAnswerTime)
	defer cancel()
	sum := Summary{Provider: a.Provider()}
	relayed := 0 // bytes of text and tool calls sent so far
	send := func(e Event) error {
		size := len(e.Content)
		for _, c := range e.ToolCalls {
			size += len(c.ID) + len(c.Function.Name) + len(c.Function.Arguments)
		}
		over := relayed+size > MaxAnswerBytes
		if over {
			if e.Content == "" {
				return fmt.Errorf("%w (more than %d bytes)", errAnswerTooLong, MaxAnswerBytes)
			}
			e = Event{Content: cutUTF8(e.Content, MaxAnswerBytes-relayed)}
		}
		relayed += len(e.Content)
		if e.Content != "" || !over {
			if err := emit(e); err != nil {
				return emitError{err}
			}
		}
		if over {
			return fmt.Errorf("%w (more than %d bytes)", errAnswerTooLong, MaxAnswerBytes)
		}
		return nil
	}

	err := a.answer(ctx, v, msgs, p, send, &sum)
	var ee emitError
	switch {
	case err == nil:
		sum.Outcome = OutcomeOK
	case outer.Err() != nil || errors.As(err, &ee):
		sum.Outcome = OutcomeCancelled
	default:
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("%w (%v)", errs.New(errs.Unavailable, "The answer took too long and was stopped. Please try a shorter question."), err)
		}
		sum.Outcome, sum.Err = OutcomeError, err
		_ = emit(Event{Error: errs.MessageOf(err)})
	}
	return sum
}

// cutUTF8 is the longest prefix of s of at most n bytes that ends on a
// character boundary.
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:max(n, 0)]
}

func (a *Agent) answer(ctx context.Context, v access.Viewer, msgs []ChatMessage, p Purpose, send Emit, sum *Summary) error {
	query := retrievalQuery(msgs)
	passages, err := a.retrieve(ctx, v, query, send)
	if err != nil {
		var ee emitError
		if a.client == nil || errors.As(err, &ee) || ctx.Err() != nil {
			return err
		}
		// The model can still answer from the site facts and search itself.
		a.logger.Warn("AI chat: knowledge-base search failed; answering without passages", "err", err)
	}
	if a.client == nil {
		if p == PurposeGoal {
			return a.offlineGoal(passages, send)
		}
		return a.offline(query, passages, send)
	}
	return a.online(ctx, v, msgs, p, passages, send, sum)
}

// ContextHeader starts the block of passages the console appends to a
// question (web/src/features/console/commands.ts, questionWithContext): the
// passages it found and showed, numbered as it showed them, so a model can
// refer to them as the visitor sees them. The block is context, not part of
// what is asked.
const ContextHeader = "Passages a search of the site found:"

// question is what a message asks: its text without an appended block of
// passages (ContextHeader). A message that is only such a block is asked
// whole.
func question(message string) string {
	if i := strings.Index(message, "\n\n"+ContextHeader+"\n"); i >= 0 {
		if q := strings.TrimSpace(message[:i]); q != "" {
			return q
		}
	}
	return strings.TrimSpace(message)
}

// retrievalQuery is the question of the last user message, cut to what
// search accepts. Passages a client appended are left out: searching with
// them would find them again and bury the question.
func retrievalQuery(msgs []ChatMessage) string {
	q := question(msgs[len(msgs)-1].Content)
	if utf8.RuneCountInString(q) > kb.MaxQueryLength {
		q = string([]rune(q)[:kb.MaxQueryLength])
	}
	return q
}

// retrieve runs search_knowledge_base for query, reporting it as a tool.
func (a *Agent) retrieve(ctx context.Context, v access.Viewer, query string, send Emit) ([]Passage, error) {
	status := ToolStatus{ID: retrievalID, Name: ToolSearch, Query: query, Status: StatusRunning}
	if err := send(Event{ToolStatus: &status}); err != nil {
		return nil, err
	}
	args, _ := json.Marshal(searchArgs{Query: query, Limit: retrievalResults})
	out, err := a.tools.Call(ctx, v, ToolSearch, args)
	done := status
	done.Status = StatusCompleted
	if serr := send(Event{ToolStatus: &done}); serr != nil {
		return nil, serr
	}
	if err != nil {
		return nil, err
	}
	res, ok := out.(SearchOutput)
	if !ok {
		return nil, fmt.Errorf("%s answered %T, not SearchOutput", ToolSearch, out)
	}
	return res.Results, nil
}

// online lets the model answer, running the tools it calls for at most
// MaxToolRounds rounds; the last request offers no tools, so it must answer.
func (a *Agent) online(ctx context.Context, v access.Viewer, msgs []ChatMessage, p Purpose, passages []Passage, send Emit, sum *Summary) error {
	handle, email := a.site.Site.About.Handle, a.site.Site.Contact.Email
	prompt := systemPrompt(handle, email, a.site.BaseURL, a.facts, passages)
	if p == PurposeGoal {
		prompt = goalPrompt(handle, email, a.site.BaseURL, a.facts, passages)
	}
	conv := make([]Message, 0, len(msgs)+1)
	conv = append(conv, Message{Role: "system", Content: prompt})
	for _, m := range msgs {
		conv = append(conv, Message{Role: m.Role, Content: m.Content})
	}
	tools := a.tools.List(v)
	onContent := func(s string) error { return send(Event{Content: s}) }
	for round := 0; ; round++ {
		offered := tools
		if round >= MaxToolRounds {
			offered = nil
		}
		resp, err := a.client.Stream(ctx, Request{Messages: conv, Tools: offered, MaxTokens: MaxAnswerTokens - sum.CompletionTokens}, onContent)
		if err != nil {
			return err
		}
		countTokens(sum, conv, resp)
		if len(resp.ToolCalls) == 0 || offered == nil {
			return nil
		}
		if sum.CompletionTokens >= MaxAnswerTokens {
			// The tool results would have nothing left to be answered with.
			return send(Event{Content: "\n\n(This answer reached its length limit.)"})
		}
		if err := send(Event{ToolCalls: resp.ToolCalls}); err != nil {
			return err
		}
		conv = append(conv, Message{Role: "assistant", Content: resp.Content, ToolCalls: resp.ToolCalls})
		for _, call := range resp.ToolCalls {
			result, err := a.runTool(ctx, v, call, send)
			if err != nil {
				return err
			}
			conv = append(conv, Message{Role: "tool", ToolCallID: call.ID, Content: result})
		}
		sum.ToolRounds++
	}
}

// countTokens adds a completion's tokens to the summary: the provider's
// count, or about four characters a token when it gave none.
func countTokens(sum *Summary, conv []Message, resp Response) {
	if resp.Usage != nil {
		sum.PromptTokens += resp.Usage.PromptTokens
		sum.CompletionTokens += resp.Usage.CompletionTokens
		return
	}
	in := 0
	for _, m := range conv {
		in += len(m.Content)
	}
	out := len(resp.Content)
	for _, c := range resp.ToolCalls {
		out += len(c.Function.Name) + len(c.Function.Arguments)
	}
	sum.PromptTokens += in / 4
	sum.CompletionTokens += (out + 3) / 4
}

// runTool runs one call the model made and returns what the model reads:
// the tool's result as JSON, or {"error": message} so it can recover (try
// other arguments, or say it could not find out). Only an error of send
// ends the answer.
func (a *Agent) runTool(ctx context.Context, v access.Viewer, call ToolCall, send Emit) (string, error) {
	status := ToolStatus{ID: call.ID, Name: call.Function.Name, Query: toolQuery(call.Function.Arguments), Status: StatusRunning}
	if err := send(Event{ToolStatus: &status}); err != nil {
		return "", err
	}
	out, err := a.tools.Call(ctx, v, call.Function.Name, json.RawMessage(call.Function.Arguments))
	var result []byte
	if err == nil {
		result, err = json.Marshal(out)
	}
	if err != nil {
		var e *errs.Error
		if !errors.As(err, &e) {
			a.logger.Warn("AI chat: tool failed", "tool", call.Function.Name, "err", err)
		}
		result, _ = json.Marshal(map[string]string{"error": errs.MessageOf(err)})
	}
	if len(result) > maxToolResult {
		// Cut JSON is still readable to a model; say that it was cut.
		result = append(result[:maxToolResult:maxToolResult], []byte(" …(cut: the result was longer; ask for a narrower path or fewer results)")...)
	}
	done := status
	done.Status = StatusCompleted
	if err := send(Event{ToolStatus: &done}); err != nil {
		return "", err
	}
	return string(result), nil
}

// toolQuery is what a tool call looks for, for its status line: the
// search query, or the resource URI and path.
func toolQuery(arguments string) string {
	var a struct {
		Query string `json:"query"`
		URI   string `json:"uri"`
		Path  string `json:"path"`
	}
	if json.Unmarshal([]byte(arguments), &a) != nil {
		return ""
	}
	switch {
	case a.Query != "":
		return a.Query
	case a.Path != "":
		return a.URI + " " + a.Path
	default:
		return a.URI
	}
}
