package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"tribe/internal/access"
	"tribe/internal/agent"
	"tribe/internal/content"
	"tribe/internal/kb"
)

// Path is where the site serves its MCP endpoint (Streamable HTTP). It is the
// address of the /mcp page too: browsers asking for HTML get the page, MCP
// clients POST JSON-RPC messages to it.
const Path = "/mcp"

// Transport is the discovery documents' name for the endpoint's transport.
const Transport = "streamable-http"

// ServerName is the implementation name the server reports to clients.
const ServerName = "ruv-site"

// Documents is the part of the knowledge base the server reads; *kb.Service
// is one.
type Documents interface {
	Get(ctx context.Context, id string) (kb.Document, error)
}

// Options is what the server is built from.
type Options struct {
	// Tools is the agent's registry; the server exposes the tools in it that
	// anonymous callers may use and that only read.
	Tools *agent.Registry
	// Site is the loaded content: the resources, the prompts' offers and the
	// server's name and description.
	Site *content.Site
	// Documents are the knowledge-base documents behind the kb:// resource
	// template.
	Documents Documents
	// BaseURL is TRIBE_BASE_URL: resource URIs and the endpoint's address.
	BaseURL string
	// Version is the program's version, reported as the server's version.
	Version string
	// MaxBody bounds a request body; 0 means DefaultMaxBody.
	MaxBody int64
	Logger  *slog.Logger
	// ViewerOf, when set, turns the member behind a verified access token
	// into the Viewer the tools take (billing.ViewerOf with the admin
	// flag): a request whose context carries the token's auth.TokenInfo is
	// then served the member tools too. Without it the endpoint is
	// anonymous only.
	ViewerOf func(ctx context.Context, userID string) (access.Viewer, error)
}

// DefaultMaxBody bounds an MCP request body. The largest honest request is a
// tools/call with a 1,000-character query, a few hundred bytes of JSON; 64 KB
// leaves room for clients that pad their _meta and still stops a flood.
const DefaultMaxBody = 64 << 10

// Server is the site's MCP server: the agent's tools, the published content
// and the knowledge base, for anonymous, read-only use. It is safe for
// concurrent use; build one per process.
type Server struct {
	sdk      *sdk.Server
	member   *sdk.Server // the same plus the member tools, for token holders; nil without ViewerOf
	viewerOf func(ctx context.Context, userID string) (access.Viewer, error)
	// memberOnly names the tools only token holders are served.
	memberOnly map[string]bool
	http       *sdk.StreamableHTTPHandler
	tools      *agent.Registry
	docs       Documents
	site       *content.Site
	baseURL    string
	version    string
	maxBody    int64
	logger     *slog.Logger
	exposed    []exposedTool
	sources    []siteResource
	template   *sdk.ResourceTemplate
	prompts    []*sdk.Prompt
}

// New builds the server: every tool, resource and prompt is registered here,
// once, so a bad tool schema stops the program at start rather than failing
// a client later.
func New(o Options) (*Server, error) {
	if o.Tools == nil || o.Site == nil || o.Documents == nil {
		return nil, errors.New("mcp: Tools, Site and Documents are required")
	}
	s := &Server{
		tools:   o.Tools,
		docs:    o.Documents,
		site:    o.Site,
		baseURL: strings.TrimRight(o.BaseURL, "/"),
		version: o.Version,
		maxBody: o.MaxBody,
		logger:  o.Logger,
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBody
	}
	if s.logger == nil {
		s.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.version == "" {
		s.version = "dev"
	}
	sdkLog := slog.New(minLevel{Handler: s.logger.Handler(), min: slog.LevelWarn})
	a := o.Site.About
	newSDK := func(text string) *sdk.Server {
		srv := sdk.NewServer(&sdk.Implementation{
			Name:       ServerName,
			Title:      a.Handle + " (" + a.Name + ")",
			Version:    s.version,
			WebsiteURL: s.baseURL + "/",
		}, &sdk.ServerOptions{
			Instructions: text,
			Logger:       sdkLog,
			// Nothing here changes while the process runs, so no list-changed
			// notices are promised; logging (deprecated in 2026-07-28) is left out.
			Capabilities: &sdk.ServerCapabilities{
				Tools:     &sdk.ToolCapabilities{},
				Resources: &sdk.ResourceCapabilities{},
				Prompts:   &sdk.PromptCapabilities{},
			},
		})
		srv.AddReceivingMiddleware(s.sitePaths)
		return srv
	}
	text := instructions(a.Handle, hasTool(o.Tools, agent.ToolFindSlots))
	s.sdk = newSDK(text)
	if err := s.addTools(); err != nil {
		return nil, err
	}
	if err := s.addResources(); err != nil {
		return nil, err
	}
	s.addPrompts()
	if o.ViewerOf != nil {
		s.viewerOf = o.ViewerOf
		if err := s.addMember(newSDK(text + memberInstructions)); err != nil {
			return nil, err
		}
	}
	s.http = sdk.NewStreamableHTTPHandler(s.serverFor, &sdk.StreamableHTTPOptions{
		// Protocol 2026-07-28 is only served statelessly, and nothing here
		// needs a session: every request carries all it needs.
		Stateless: true,
		// One JSON answer per request: no tool streams progress, and a plain
		// response is cheaper for both sides than a one-event stream.
		JSONResponse: true,
		// The SDK refuses a loopback connection with a public Host header,
		// which is exactly what a same-host reverse proxy sends; the web
		// layer checks Origin and Host itself (see CheckOrigin).
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        s.maxBody,
		// A client that hangs up stops its tool call.
		PropagateRequestCancellation: true,
		Logger:                       sdkLog,
	})
	return s, nil
}

func instructions(handle string, slots bool) string {
	text := "Public, read-only information about " + handle + ": who " + handle + " is, services and prices " +
		"with booking links, the tribe community, projects and a searchable knowledge base. Use search for " +
		"questions, list_services for prices and booking links, and read_resource or read_json_path for " +
		"exact values from the published JSON files."
	if slots {
		text += " Use " + agent.ToolFindSlots + " for free times to book a session (at most 14 days per call, " +
			"in the person's time zone); each time comes with its own booking link. Never guess a free time."
	}
	return text
}

func hasTool(r *agent.Registry, name string) bool {
	_, ok := r.Get(name)
	return ok
}

// ServeMessages answers one Streamable HTTP request whose body, already
// read by ReadMessages, holds m. The caller has decided the request may be
// served (origin, rate limit, size). The protocol's refusals are JSON-RPC
// error objects, and a batch's answer is held to MaxBatchAnswer.
func (s *Server) ServeMessages(w http.ResponseWriter, r *http.Request, m Messages) {
	var id json.RawMessage
	if !m.Batch && len(m.ids) == 1 {
		id = validID(m.ids[0])
	}
	pe := &plainErrors{ResponseWriter: w, id: id}
	defer pe.finish()
	if !m.Batch {
		s.http.ServeHTTP(pe, r)
		return
	}
	ba := &batchAnswer{ResponseWriter: pe}
	s.http.ServeHTTP(ba, r)
	ba.finish(m.ids)
}

// Endpoint is the endpoint's absolute URL.
func (s *Server) Endpoint() string { return s.baseURL + Path }

// MaxBody is the largest request body the endpoint reads.
func (s *Server) MaxBody() int64 { return s.maxBody }

// ProtocolVersions are the protocol versions the endpoint speaks, newest
// first.
func ProtocolVersions() []string { return sdk.SupportedProtocolVersions() }

// resourceURI is the URI of a site path (such as /content/services.json) as
// the server lists it: the absolute URL where the site publishes it.
func (s *Server) resourceURI(path string) string { return s.baseURL + path }

// sitePaths lets clients read a resource by its site path, the form the
// discovery document, the starter kit and the console use
// (/content/services.json), as well as by its absolute URL.
func (s *Server) sitePaths(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if rr, ok := req.(*sdk.ReadResourceRequest); ok && rr.Params != nil && strings.HasPrefix(rr.Params.URI, "/") {
			rr.Params.URI = s.resourceURI(rr.Params.URI)
		}
		return next(ctx, method, req)
	}
}

// minLevel passes on records of at least min. The SDK logs a session opening
// and closing at info level, which in stateless mode is three lines for
// every request next to the request log's one; its warnings and errors
// still reach the site's log.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{Handler: h.Handler.WithAttrs(attrs), min: h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: h.Handler.WithGroup(name), min: h.min}
}

// anonymous is who every MCP caller is: the endpoint takes no credentials.
var anonymous = access.Viewer{}

// jsonText encodes v for a text content block and structured content.
func jsonText(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return b, nil
}
