package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"tribe/internal/agent"
	"tribe/internal/errs"
	"tribe/internal/kb"
)

// The prompts.
const (
	PromptPlanSession = "plan_coaching_session"
	PromptAsk         = "ask_knowledge_base"
)

// maxPromptArgument bounds the text a prompt argument carries into the
// message (characters).
const maxPromptArgument = 2000

// CardPrompt describes a prompt for the server card.
type CardPrompt struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
}

// Prompts lists the prompts.
func (s *Server) Prompts() []CardPrompt {
	out := make([]CardPrompt, 0, len(s.prompts))
	for _, p := range s.prompts {
		out = append(out, CardPrompt{Name: p.Name, Title: p.Title, Description: p.Description})
	}
	return out
}

// addPrompts registers the prompts. Both build their text from the same
// tools the server lists (list_services, search), so a prompt never states
// a price or a fact the content does not.
func (s *Server) addPrompts() {
	handle := s.site.About.Handle
	plan := &sdk.Prompt{
		Name:  PromptPlanSession,
		Title: "Plan a coaching session",
		Description: "Describe your goals and get the " + handle + " session that fits them, with its price " +
			"and booking link from the site's services.",
		Arguments: []*sdk.PromptArgument{
			{Name: "goals", Title: "Your goals", Description: "What you want to achieve with agentic AI", Required: true},
			{Name: "experience", Title: "Your experience", Description: "Where you are today (optional)"},
		},
	}
	ask := &sdk.Prompt{
		Name:        PromptAsk,
		Title:       "Ask the knowledge base",
		Description: "Answer a question about " + handle + " from the knowledge base's best passages, citing their sources.",
		Arguments: []*sdk.PromptArgument{
			{Name: "question", Title: "Question", Description: "What you want to know", Required: true},
		},
	}
	s.prompts = []*sdk.Prompt{plan, ask}
	s.sdk.AddPrompt(plan, s.planSession)
	s.sdk.AddPrompt(ask, s.askKnowledgeBase)
}

// promptArgument reads an argument, refusing a missing required one and an
// overlong one with an invalid-params error naming it.
func promptArgument(req *sdk.GetPromptRequest, name string, required bool) (string, error) {
	v := strings.TrimSpace(req.Params.Arguments[name])
	if v == "" && required {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Argument " + name + " is required."}
	}
	if utf8.RuneCountInString(v) > maxPromptArgument {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("Argument %s must be at most %d characters.", name, maxPromptArgument)}
	}
	return v, nil
}

// runTool runs a registry tool for the prompts and returns its result as the
// type the tool returns; a refusal becomes an invalid-params error.
func runTool[T any](ctx context.Context, s *Server, name string, args any) (T, error) {
	var zero T
	raw, err := json.Marshal(args)
	if err != nil {
		return zero, err
	}
	out, err := s.tools.Call(ctx, anonymous, name, raw)
	if err != nil {
		if errs.CodeOf(err) == errs.Internal {
			return zero, err
		}
		return zero, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: errs.MessageOf(err)}
	}
	v, ok := out.(T)
	if !ok {
		return zero, fmt.Errorf("tool %s returned %T", name, out)
	}
	return v, nil
}

func (s *Server) planSession(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
	goals, err := promptArgument(req, "goals", true)
	if err != nil {
		return nil, err
	}
	experience, err := promptArgument(req, "experience", false)
	if err != nil {
		return nil, err
	}
	offers, err := runTool[agent.ServicesOutput](ctx, s, agent.ToolListServices, map[string]any{})
	if err != nil {
		return nil, err
	}
	handle := s.site.About.Handle
	var b strings.Builder
	fmt.Fprintf(&b, "I want to book a coaching session with %s.\n\nMy goals: %s\n", handle, goals)
	if experience != "" {
		fmt.Fprintf(&b, "My experience so far: %s\n", experience)
	}
	fmt.Fprintf(&b, "\nThese are the options, as %s's site lists them:\n\nOne-to-one sessions:\n", handle)
	for _, o := range offers.Sessions {
		writeOffer(&b, o, offers.BookingPage)
	}
	if len(offers.Training) > 0 {
		b.WriteString("\nNeural Trader training:\n")
		for _, o := range offers.Training {
			writeOffer(&b, o, offers.BookingPage)
		}
	}
	t := offers.Tribe
	fmt.Fprintf(&b, "\nCommunity: %s, %s (%s), %s sessions of %s in cohorts of %s; join at %s\n",
		t.Name, t.PriceText, t.Billing, t.SessionCadence, t.SessionLength, t.CohortSize, t.JoinLink)
	b.WriteString("\nPlease:\n" +
		"1. Restate my goals in one sentence. If they are too vague to choose, ask me one question first.\n" +
		"2. Recommend the one option above that fits best, and say why in two or three sentences.\n" +
		"3. Give its price and its booking link exactly as listed.\n" +
		"4. List two or three things I should prepare so the session is worth it.\n" +
		"Use only the options and prices above.")
	return &sdk.GetPromptResult{
		Description: "Plan a coaching session with " + handle,
		Messages:    []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: b.String()}}},
	}, nil
}

func writeOffer(b *strings.Builder, o agent.ServiceOffer, bookingPage string) {
	link := o.BookingLink
	if link == "" {
		link = bookingPage + " (no direct link yet)"
	}
	fmt.Fprintf(b, "- %s: %s, %s", o.Name, o.Duration, o.PriceText)
	if o.Popular {
		b.WriteString(" (most popular)")
	}
	if o.Description != "" {
		fmt.Fprintf(b, ". %s", strings.TrimSuffix(o.Description, "."))
	}
	fmt.Fprintf(b, ". Book: %s\n", link)
}

// askPassages is how many passages the ask prompt carries.
const askPassages = 5

func (s *Server) askKnowledgeBase(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
	question, err := promptArgument(req, "question", true)
	if err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(question) > kb.MaxQueryLength {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("Argument question must be at most %d characters.", kb.MaxQueryLength)}
	}
	found, err := runTool[agent.SearchOutput](ctx, s, agent.ToolSearch, map[string]any{"query": question, "limit": askPassages})
	if err != nil {
		return nil, err
	}
	handle := s.site.About.Handle
	var b strings.Builder
	fmt.Fprintf(&b, "Answer this question about %s using only the passages below from %s's knowledge base. "+
		"Cite the source of each fact in brackets. If the passages do not answer it, say so and suggest "+
		"the search tool with other words, or booking a session at %s/booking.\n\nQuestion: %s\n", handle, handle, s.baseURL, question)
	if len(found.Results) == 0 {
		b.WriteString("\nThe knowledge base found no passages for this question.\n")
	}
	for i, p := range found.Results {
		fmt.Fprintf(&b, "\n[%d] %s (source: %s)\n%s\n", i+1, p.Title, p.Source, p.Content)
	}
	return &sdk.GetPromptResult{
		Description: "Answer from " + handle + "'s knowledge base",
		Messages:    []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: b.String()}}},
	}, nil
}
