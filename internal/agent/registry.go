package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"tribe/internal/access"
	"tribe/internal/errs"
)

// Who says who may call a tool, in the words of the HTTP routes.
type Who int

const (
	// Anyone may call the tool, signed in or not.
	Anyone Who = iota
	// Member is any signed-in person (as the routes' "member"; tribe access
	// itself is decided by the domain from the Viewer).
	Member
	// Admin is a signed-in admin.
	Admin
)

// Allows reports whether v may call a tool of this kind.
func (w Who) Allows(v access.Viewer) bool {
	switch w {
	case Anyone:
		return true
	case Member:
		return !v.Anonymous()
	case Admin:
		return !v.Anonymous() && v.Admin
	default:
		return false
	}
}

// String is the word the routes use: anyone, member or admin.
func (w Who) String() string {
	switch w {
	case Anyone:
		return "anyone"
	case Member:
		return "member"
	case Admin:
		return "admin"
	default:
		return fmt.Sprintf("Who(%d)", int(w))
	}
}

// Tool is one capability offered to a language model (and to MCP clients).
// InputSchema and OutputSchema are JSON Schemas; Call checks arguments
// against InputSchema before Run sees them, so Run may decode them without
// checking types again. Run returns a value that encodes as JSON matching
// OutputSchema, or an error: an *errs.Error is shown to the caller as is,
// anything else is internal.
type Tool struct {
	Name         string
	Title        string
	Description  string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	ReadOnly     bool
	Who          Who
	// Scope, when set, is the OAuth scope a member's assistant needs to
	// call the tool (oauth.ScopeRead, oauth.ScopeWrite). Such tools are
	// for assistants a member connected over MCP: the chat neither lists
	// nor calls them, since it has no step where the person confirms a
	// write.
	Scope string
	Run   func(ctx context.Context, v access.Viewer, args json.RawMessage) (any, error)

	input *schema // InputSchema, parsed by NewRegistry
}

// Registry is a fixed set of tools. It is safe for concurrent use.
type Registry struct {
	tools []Tool
}

// NewRegistry checks the tools (unique names, a Run, input schemas this
// package can enforce) and returns them as a registry, in the order given.
func NewRegistry(tools ...Tool) (*Registry, error) {
	r := &Registry{}
	for _, t := range tools {
		if t.Name == "" || t.Run == nil {
			return nil, fmt.Errorf("tool %q: a name and a Run function are required", t.Name)
		}
		if slices.ContainsFunc(r.tools, func(o Tool) bool { return o.Name == t.Name }) {
			return nil, fmt.Errorf("tool %q is registered twice", t.Name)
		}
		s, err := parseSchema(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("tool %q: input schema: %w", t.Name, err)
		}
		if s.Type != "object" {
			return nil, fmt.Errorf("tool %q: input schema must describe an object", t.Name)
		}
		if len(t.OutputSchema) > 0 && !json.Valid(t.OutputSchema) {
			return nil, fmt.Errorf("tool %q: output schema is not valid JSON", t.Name)
		}
		t.input = s
		r.tools = append(r.tools, t)
	}
	return r, nil
}

// List returns the tools v may call in the chat, in registration order:
// the tools without a Scope.
func (r *Registry) List(v access.Viewer) []Tool {
	var out []Tool
	for _, t := range r.tools {
		if t.Who.Allows(v) && t.Scope == "" {
			out = append(out, t)
		}
	}
	return out
}

// ListForAssistant returns the tools v may call through a member's
// assistant, in registration order: the chat's and the scoped ones,
// whatever scopes were granted, so a tool outside them is seen and its
// refusal names the scope to grant.
func (r *Registry) ListForAssistant(v access.Viewer) []Tool {
	var out []Tool
	for _, t := range r.tools {
		if t.Who.Allows(v) {
			out = append(out, t)
		}
	}
	return out
}

// Get returns the tool called name.
func (r *Registry) Get(name string) (Tool, bool) {
	for _, t := range r.tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// Errors of Call, in the words the console has always used.
var (
	errToolSignIn = errs.New(errs.Unauthorized, "Sign in to use this tool.")
	errToolAdmin  = errs.New(errs.Forbidden, "This tool is only available to admins.")
)

// Call runs the tool called name for v with args (a JSON object; empty means
// no arguments). An unknown tool is errs.NotFound, a tool v may not call
// errs.Unauthorized or errs.Forbidden, arguments that do not match the
// input schema errs.Invalid naming the argument.
func (r *Registry) Call(ctx context.Context, v access.Viewer, name string, args json.RawMessage) (any, error) {
	t, ok := r.Get(name)
	if !ok || t.Scope != "" {
		return nil, errs.New(errs.NotFound, "Unknown tool: "+name)
	}
	return r.call(ctx, t, v, args)
}

// CallScoped runs the tool called name for v through an assistant granted
// scopes: as Call, and a scoped tool outside them is refused with
// errs.InsufficientScope naming the scope.
func (r *Registry) CallScoped(ctx context.Context, v access.Viewer, scopes []string, name string, args json.RawMessage) (any, error) {
	t, ok := r.Get(name)
	if !ok {
		return nil, errs.New(errs.NotFound, "Unknown tool: "+name)
	}
	if t.Scope != "" && !slices.Contains(scopes, t.Scope) {
		return nil, errs.New(errs.InsufficientScope, "The tool "+name+" needs the "+t.Scope+
			" scope, which the member did not grant this assistant. Ask them to connect it again and allow "+t.Scope+".")
	}
	return r.call(ctx, t, v, args)
}

// call checks who may call t and its arguments, then runs it.
func (r *Registry) call(ctx context.Context, t Tool, v access.Viewer, args json.RawMessage) (any, error) {
	if !t.Who.Allows(v) {
		if v.Anonymous() {
			return nil, errToolSignIn
		}
		return nil, errToolAdmin
	}
	args = bytes.TrimSpace(args)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		args = json.RawMessage("{}")
	}
	if err := t.input.check(args); err != nil {
		return nil, err
	}
	return run(ctx, t, v, args)
}

// run calls the tool's Run. A panic in it becomes an error: the chat and
// the MCP server run tools on goroutines of their own, where a panic would
// stop the whole program.
func run(ctx context.Context, t Tool, v access.Viewer, args json.RawMessage) (out any, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("tool %s panicked: %v", t.Name, p)
		}
	}()
	out, err = t.Run(ctx, v, args)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	return out, nil
}
