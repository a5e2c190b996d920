package mcp

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"tribe/internal/access"
	"tribe/internal/agent"
	"tribe/internal/errs"
)

// memberInstructions is added to the instructions a token holder reads.
const memberInstructions = " You are connected for one member of the tribe: the my_* tools, search_tribe, " +
	"rsvp_session and post_question act for that member only. Confirm with the member before a write " +
	"(an RSVP, a post); you never pay for anything."

// anyMember is a signed-in viewer with no rights beyond that, used only to
// ask the registry which tools members may call.
var anyMember = access.Viewer{UserID: "member"}

// addMember builds srv as the server token holders get: the anonymous
// server's resources and prompts, the anonymous tools, and the member tools
// of the registry, each called as the token's member with its scopes.
func (s *Server) addMember(srv *sdk.Server) error {
	// addResources and addPrompts register on s.sdk and fill the lists the
	// server card reads; run them on srv and keep the anonymous lists.
	anon, sources, template, prompts := s.sdk, s.sources, s.template, s.prompts
	s.sdk, s.sources = srv, nil
	err := s.addResources()
	if err == nil {
		s.addPrompts()
	}
	s.sdk, s.sources, s.template, s.prompts = anon, sources, template, prompts
	if err != nil {
		return err
	}
	anonymousTools := map[string]bool{}
	for _, t := range s.exposed {
		anonymousTools[t.registry.Name] = true
		srv.AddTool(t.mcp, s.callMemberTool(t))
	}
	s.memberOnly = map[string]bool{}
	for _, t := range s.tools.ListForAssistant(anyMember) {
		if anonymousTools[t.Name] || t.Who == agent.Admin {
			continue
		}
		tool, err := mcpTool(t, exposure{name: t.Name})
		if err != nil {
			return err
		}
		// Member tools answer from rows that change; only the anonymous
		// site reads are idempotent in the SDK's sense.
		tool.Annotations.IdempotentHint = false
		e := exposedTool{mcp: tool, registry: t}
		s.memberOnly[t.Name] = true
		srv.AddTool(tool, s.callMemberTool(e))
	}
	s.member = srv
	return nil
}

// serverFor picks the server of a request: the member's when the web layer
// verified a bearer token and put its TokenInfo in the context.
func (s *Server) serverFor(r *http.Request) *sdk.Server {
	if s.member != nil && auth.TokenInfoFromContext(r.Context()) != nil {
		return s.member
	}
	return s.sdk
}

// NeedsToken reports whether m calls a tool only token holders may call,
// so the web layer answers 401 with the resource metadata instead of an
// unknown-tool error: that 401 is how a client learns to sign in.
func (s *Server) NeedsToken(m Messages) bool {
	for _, name := range m.tools {
		if s.memberOnly[name] {
			return true
		}
	}
	return false
}

// callMemberTool runs t for the member behind the request's token, with the
// scopes the member granted. The member comes from the token alone: no
// argument can name another member.
func (s *Server) callMemberTool(t exposedTool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		info := req.Extra.TokenInfo
		if info == nil || info.UserID == "" {
			return errorResult("This tool needs the member's sign-in: connect the assistant to the site first."), nil
		}
		args := req.Params.Arguments
		if t.require != "" && !hasArgument(args, t.require) {
			return errorResult("Argument " + t.require + " is required."), nil
		}
		v, err := s.viewerOf(ctx, info.UserID)
		if err != nil {
			return nil, err
		}
		out, err := s.tools.CallScoped(ctx, v, info.Scopes, t.registry.Name, args)
		if err != nil {
			if errs.CodeOf(err) == errs.Internal {
				s.logger.Error("MCP tool failed", "tool", t.mcp.Name, "err", err)
			}
			return errorResult(errs.MessageOf(err)), nil
		}
		return s.toolResult(out)
	}
}
