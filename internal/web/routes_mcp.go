package web

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"time"

	"tribe/internal/config"
	"tribe/internal/errs"
	"tribe/internal/gaps"
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
	opts    mcp.Options
	cfg     *config.Config
	app     http.Handler // the web app, which serves the /mcp page
	perIP   *ratelimit.Limiter
	mcp     *mcp.Server      // set by register
	origins mcp.OriginPolicy // set by register
}

// newMCPAPI serves the very tools the AI chat offers, so both answer from
// the same registry, and the knowledge base's documents as resources.
func newMCPAPI(cfg *config.Config, opts mcp.Options, app http.Handler, share shareLimit) *mcpAPI {
	return &mcpAPI{opts: opts, cfg: cfg, app: app, perIP: ratelimit.New(mcpBurst, mcpInterval, share("mcp-ip"))}
}

// register adds the MCP endpoint at /mcp (POST for JSON-RPC, OPTIONS for
// CORS preflights, GET for the page or the transport's 405) and the server
// card.
func (m *mcpAPI) register(g *registrar) error {
	srv, err := mcp.New(m.opts)
	if err != nil {
		return err
	}
	origins, err := mcp.NewOriginPolicy(m.cfg.BaseURL)
	if err != nil {
		return err
	}
	card, err := srv.CardJSON()
	if err != nil {
		return err
	}
	m.mcp, m.origins = srv, origins
	g.route("POST "+mcp.Path, anyone, m.serve)
	g.route("OPTIONS "+mcp.Path, anyone, m.preflight)
	g.route("GET "+mcp.Path, anyone, m.page)
	g.handle("GET "+mcp.CardPath, anyone, newDocument(card, jsonType))
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
func (m *mcpAPI) serve(w http.ResponseWriter, r *http.Request) error {
	if err := m.origins.Check(r); err != nil {
		return err
	}
	allowCORS(w.Header())
	if ok, wait := m.perIP.Allow(clientKey(r, m.cfg.TrustedProxies)); !ok {
		return tooMany(wait, "Too many requests to the MCP endpoint. Please wait a moment and try again.")
	}
	body, err := httpx.ReadRaw(w, r, m.mcp.MaxBody())
	if err != nil {
		return err
	}
	if httpx.HasNUL(body) {
		mcp.ErrNUL.WriteTo(w)
		return nil
	}
	msgs, rpcErr := mcp.ReadMessages(body)
	if rpcErr != nil {
		rpcErr.WriteTo(w)
		return nil
	}
	// Each call of a batch counts, not only the request that carries it.
	if ok, wait := m.perIP.AllowN(clientKey(r, m.cfg.TrustedProxies), msgs.Count-1); !ok {
		return tooMany(wait, "Too many requests to the MCP endpoint. Please wait a moment and try again.")
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	// A request without Accept (or with */*) accepts any type (RFC 9110); the
	// SDK insists on the two the transport names, so curl works as it is.
	if accept := r.Header.Get("Accept"); accept == "" || strings.Contains(accept, "*/*") {
		r.Header.Set("Accept", "application/json, text/event-stream")
	}
	// The search tool's weak answers count against this client's knowledge-gap allowance.
	r = r.WithContext(gaps.WithClient(r.Context(), clientKey(r, m.cfg.TrustedProxies)))
	m.mcp.ServeMessages(w, r, msgs)
	return nil
}

// preflight answers a browser's CORS preflight for the endpoint.
func (m *mcpAPI) preflight(w http.ResponseWriter, r *http.Request) error {
	if err := m.origins.Check(r); err != nil {
		return err
	}
	h := w.Header()
	allowCORS(h)
	h.Set("Access-Control-Allow-Methods", "POST, GET, OPTIONS")
	h.Set("Access-Control-Allow-Headers", mcpRequestHeaders)
	h.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// page answers GET /mcp. An MCP client asking for an event stream (and not
// for HTML) learns that this stateless endpoint has none, with the 405 the
// transport specifies; everyone else, browsers first, gets the /mcp page.
func (m *mcpAPI) page(w http.ResponseWriter, r *http.Request) error {
	accept := r.Header.Get("Accept")
	if !strings.Contains(accept, "text/event-stream") || strings.Contains(accept, "text/html") {
		m.app.ServeHTTP(w, r)
		return nil
	}
	if err := m.origins.Check(r); err != nil {
		return err
	}
	allowCORS(w.Header())
	w.Header().Set("Allow", "POST")
	return errNoEventStream
}
