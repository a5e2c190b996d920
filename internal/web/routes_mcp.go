package web

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/mcp"
	"tribe/internal/ratelimit"
)

// MCP endpoint limits; docs/api.md ("MCP server") documents them.
const (
	// A client address may send mcpBurst requests at once and one more every
	// mcpInterval after that: an assistant's turn makes a handful of calls,
	// a script is held to ten a second.
	mcpBurst    = 60
	mcpInterval = 100 * time.Millisecond
)

// mcpRequestHeaders are the request headers a browser-based MCP client may
// send (the CORS preflight lists them): the body's type, what it accepts, and
// the transport's own headers.
const mcpRequestHeaders = "Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID"

var errNoEventStream = errs.New(errs.MethodNotAllowed,
	"This MCP endpoint is stateless and opens no event stream: POST JSON-RPC messages to it.")

// mcpAPI mounts the MCP server (internal/mcp) on the site: the origin rule,
// CORS, the rate limit and the body limit are applied here, the protocol is
// the SDK's.
type mcpAPI struct {
	*server
	mcp     *mcp.Server
	origins mcp.OriginPolicy
	perIP   *ratelimit.Limiter
}

// registerMCP adds the MCP endpoint at /mcp (POST for JSON-RPC, OPTIONS for
// CORS preflights, GET for the page or the transport's 405) and the server
// card.
func (s *server) registerMCP(mux *http.ServeMux) error {
	// The very tools the AI chat offers (registerAI runs first), so both
	// answer from the same registry.
	if s.tools == nil {
		return errors.New("register MCP: the AI tools are not built yet")
	}
	srv, err := mcp.New(mcp.Options{
		Tools: s.tools, Site: s.Content, Documents: s.kb, BaseURL: s.Config.BaseURL, Version: s.Version, Logger: s.Logger,
	})
	if err != nil {
		return err
	}
	origins, err := mcp.NewOriginPolicy(s.Config.BaseURL)
	if err != nil {
		return err
	}
	card, err := srv.CardJSON()
	if err != nil {
		return err
	}
	m := &mcpAPI{server: s, mcp: srv, origins: origins, perIP: ratelimit.New(mcpBurst, mcpInterval)}
	s.route(mux, "POST "+mcp.Path, anyone, m.serve)
	s.route(mux, "OPTIONS "+mcp.Path, anyone, m.preflight)
	s.route(mux, "GET "+mcp.Path, anyone, m.page)
	s.handle(mux, "GET "+mcp.CardPath, anyone, newDocument(card, jsonType))
	return nil
}

// allowCORS lets pages on other origins read the answer. Never with
// credentials: the endpoint reads no cookie, and "*" keeps browsers from
// sending one along.
func allowCORS(h http.Header) {
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "Retry-After")
}

// serve answers one JSON-RPC POST.
func (m *mcpAPI) serve(w http.ResponseWriter, r *http.Request) {
	if err := m.origins.Check(r); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	allowCORS(w.Header())
	if ok, wait := m.perIP.Allow(clientIP(r, m.Config.TrustedProxies)); !ok {
		tooMany(w, r, wait, "Too many requests to the MCP endpoint. Please wait a moment and try again.")
		return
	}
	body, err := httpx.ReadRaw(w, r, m.mcp.MaxBody())
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	// A request without Accept (or with */*) accepts any type (RFC 9110); the
	// SDK insists on the two the transport names, so curl works as it is.
	if accept := r.Header.Get("Accept"); accept == "" || strings.Contains(accept, "*/*") {
		r.Header.Set("Accept", "application/json, text/event-stream")
	}
	m.mcp.ServeHTTP(w, r)
}

// preflight answers a browser's CORS preflight for the endpoint.
func (m *mcpAPI) preflight(w http.ResponseWriter, r *http.Request) {
	if err := m.origins.Check(r); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	h := w.Header()
	allowCORS(h)
	h.Set("Access-Control-Allow-Methods", "POST, GET, OPTIONS")
	h.Set("Access-Control-Allow-Headers", mcpRequestHeaders)
	h.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
}

// page answers GET /mcp. An MCP client asking for an event stream (and not
// for HTML) learns that this stateless endpoint has none, with the 405 the
// transport specifies; everyone else, browsers first, gets the /mcp page.
func (m *mcpAPI) page(w http.ResponseWriter, r *http.Request) {
	accept := r.Header.Get("Accept")
	if !strings.Contains(accept, "text/event-stream") || strings.Contains(accept, "text/html") {
		m.app.ServeHTTP(w, r)
		return
	}
	if err := m.origins.Check(r); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	allowCORS(w.Header())
	w.Header().Set("Allow", "POST")
	httpx.WriteError(w, r, errNoEventStream)
}
