package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"tribe/internal/agent"
	"tribe/internal/errs"
)

// exposure is how one registry tool appears to MCP clients. The tools are
// defined once, in internal/agent; this table only renames them to the names
// the site has always promised (the console and the starter kit call the
// knowledge-base search "search"), and adds read_json_path, the kit's name
// for read_resource with a path.
type exposure struct {
	name string
	// require names an argument the registry tool has as optional and this
	// name demands (read_json_path without a path would be read_resource).
	require     string
	title       string // "" keeps the registry tool's
	description string // "" keeps the registry tool's
}

// exposures maps registry tool names to their MCP names. A registry tool not
// listed here keeps its own name.
var exposures = map[string][]exposure{
	agent.ToolSearch: {{name: "search"}},
	agent.ToolReadResource: {
		{name: "read_resource"},
		{
			name:    "read_json_path",
			require: "path",
			title:   "Read a value from a site resource",
			description: "Read one value out of one of the site's published JSON files by a dot/bracket path, " +
				"for example uri /content/services.json with path sessions[1].price.",
		},
	},
}

// exposedTool is a tool as listed to clients, with the registry tool behind it.
type exposedTool struct {
	mcp      *sdk.Tool
	registry agent.Tool
	require  string
}

// CardTool describes an exposed tool for the server card.
type CardTool struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	ReadOnly    bool   `json:"readOnlyHint"`
}

// Tools lists the exposed tools in the order clients see them.
func (s *Server) Tools() []CardTool {
	out := make([]CardTool, 0, len(s.exposed))
	for _, t := range s.exposed {
		out = append(out, CardTool{Name: t.mcp.Name, Title: t.mcp.Title, Description: t.mcp.Description, ReadOnly: t.mcp.Annotations.ReadOnlyHint})
	}
	return out
}

// addTools registers every registry tool an anonymous caller may use and
// that only reads: the endpoint takes no credentials, so a tool that writes
// or needs a member must never appear here, whoever adds it to the registry.
func (s *Server) addTools() error {
	for _, t := range s.tools.List(anonymous) {
		if !t.ReadOnly {
			continue
		}
		list, ok := exposures[t.Name]
		if !ok {
			list = []exposure{{name: t.Name}}
		}
		for _, e := range list {
			tool, err := mcpTool(t, e)
			if err != nil {
				return err
			}
			s.exposed = append(s.exposed, exposedTool{mcp: tool, registry: t, require: e.require})
		}
	}
	for name := range exposures {
		if _, ok := s.tools.Get(name); !ok {
			return fmt.Errorf("mcp: the name table names %q, which the agent registry does not have", name)
		}
	}
	for _, t := range s.exposed {
		s.sdk.AddTool(t.mcp, s.callTool(t))
	}
	return nil
}

// mcpTool describes registry tool t under exposure e.
func mcpTool(t agent.Tool, e exposure) (*sdk.Tool, error) {
	tool := &sdk.Tool{
		Name:        e.name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: t.InputSchema,
		Annotations: &sdk.ToolAnnotations{
			Title:        t.Title,
			ReadOnlyHint: t.ReadOnly,
			// Reading the same published files twice gives the same answer,
			// and nothing outside this site is touched.
			IdempotentHint: true,
			OpenWorldHint:  new(false),
		},
	}
	if len(t.OutputSchema) > 0 {
		tool.OutputSchema = t.OutputSchema
	}
	if e.title != "" {
		tool.Title, tool.Annotations.Title = e.title, e.title
	}
	if e.description != "" {
		tool.Description = e.description
	}
	if e.require != "" {
		schema, err := requireArgument(t.InputSchema, e.require)
		if err != nil {
			return nil, fmt.Errorf("mcp: tool %s: %w", e.name, err)
		}
		tool.InputSchema = schema
	}
	return tool, nil
}

// requireArgument returns the object schema raw with name added to its
// required list.
func requireArgument(raw json.RawMessage, name string) (json.RawMessage, error) {
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	props, _ := schema["properties"].(map[string]any)
	if _, ok := props[name]; !ok {
		return nil, fmt.Errorf("input schema has no property %q to require", name)
	}
	var required []any
	if list, ok := schema["required"].([]any); ok {
		required = list
	}
	if !slices.Contains(required, any(name)) {
		required = append(required, name)
	}
	schema["required"] = required
	return json.Marshal(schema)
}

// callTool runs an exposed tool through the registry, which checks the
// arguments against the schema before the tool sees them. A refusal (bad
// arguments, nothing found) is a tool result with isError set, so the model
// reads the message and can correct itself; the JSON-RPC error is kept for
// calls to tools that do not exist, which the SDK answers itself.
func (s *Server) callTool(t exposedTool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		args := req.Params.Arguments
		if t.require != "" && !hasArgument(args, t.require) {
			return errorResult("Argument " + t.require + " is required."), nil
		}
		out, err := s.tools.Call(ctx, anonymous, t.registry.Name, args)
		if err != nil {
			if errs.CodeOf(err) == errs.Internal {
				s.logger.Error("MCP tool failed", "tool", t.mcp.Name, "err", err)
			}
			return errorResult(errs.MessageOf(err)), nil
		}
		return s.toolResult(out)
	}
}

// toolResult is a tool's output as text and structured content, with a
// link to each knowledge-base document a search found.
func (s *Server) toolResult(out any) (*sdk.CallToolResult, error) {
	b, err := jsonText(out)
	if err != nil {
		return nil, err
	}
	res := &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}
	switch found := out.(type) {
	case agent.SearchOutput:
		res.Content = append(res.Content, s.documentLinks(found)...)
	case agent.SearchTribeOutput:
		res.Content = append(res.Content, s.documentLinks(found.Knowledge)...)
	}
	return res, nil
}

// hasArgument reports whether the arguments object sets name to something
// other than null or "".
func hasArgument(raw json.RawMessage, name string) bool {
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return true // not an object: the registry's check says so in its words
	}
	v, ok := args[name]
	return ok && string(v) != "null" && string(v) != `""`
}

func errorResult(msg string) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
}

// documentLinks points at the knowledge-base document behind each passage
// found, so a client can read the whole document through the kb:// template.
func (s *Server) documentLinks(found agent.SearchOutput) []sdk.Content {
	var links []sdk.Content
	for _, p := range found.Results {
		if p.DocumentID == "" {
			continue
		}
		links = append(links, &sdk.ResourceLink{
			URI:      DocumentURI(p.DocumentID),
			Name:     "kb-document-" + p.DocumentID,
			Title:    p.Title,
			MIMEType: jsonMIME,
		})
	}
	return links
}
