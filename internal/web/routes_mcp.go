package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"tribe/internal/access"
	authsvc "tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/config"
	"tribe/internal/errs"
	"tribe/internal/gaps"
	"tribe/internal/httpx"
	"tribe/internal/mcp"
	"tribe/internal/oauth"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
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
const mcpRequestHeaders = "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID"

var errNoEventStream = errs.New(errs.MethodNotAllowed,
	"This MCP endpoint is stateless and opens no event stream: POST JSON-RPC messages to it.")

// mcpAPI mounts the MCP server (internal/mcp) on the site: the origin rule,
// CORS, the rate limit and the body limit are applied here, the protocol is
// the SDK's.
type mcpAPI struct {
	opts    mcp.Options
	oauth   *oauth.Service
	bearer  func(http.Handler) http.Handler // the go-sdk's RequireBearerToken over oauth.Verify
	cfg     *config.Config
	app     http.Handler // the web app, which serves the /mcp page
	perIP   *ratelimit.Limiter
	mcp     *mcp.Server      // set by register
	origins mcp.OriginPolicy // set by register
}

// newMCPAPI serves the very tools the AI chat offers, so both answer from
// the same registry, and the knowledge base's documents as resources.
func newMCPAPI(cfg *config.Config, opts mcp.Options, svc *oauth.Service, app http.Handler, share shareLimit) *mcpAPI {
	m := &mcpAPI{opts: opts, oauth: svc, cfg: cfg, app: app, perIP: ratelimit.New(mcpBurst, mcpInterval, share("mcp-ip"))}
	m.bearer = auth.RequireBearerToken(m.verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: svc.ResourceMetadataURL(),
		// oauth.Verify has checked the expiry by the site's clock (which
		// tests set); the SDK's own check reads the wall clock, so the
		// token info carries no expiry for it to compare.
		AllowMissingExpiration: true,
	})
	return m
}

// verify is the SDK's TokenVerifier over the authorization server's tokens.
func (m *mcpAPI) verify(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	info, err := m.oauth.Verify(ctx, token)
	if errs.Is(err, errs.Unauthorized) {
		return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, errs.MessageOf(err))
	}
	if err != nil {
		return nil, err
	}
	return &auth.TokenInfo{UserID: info.UserID, Scopes: info.Scopes, Extra: map[string]any{"client_id": info.ClientID}}, nil
}

// memberViewer is the Viewer of the member behind an access token, decided
// as for a browser session: admin from the account, tribe access by billing.
func memberViewer(db *store.DB, accounts *authsvc.Service) func(ctx context.Context, userID string) (access.Viewer, error) {
	return func(ctx context.Context, userID string) (access.Viewer, error) {
		u, err := accounts.User(ctx, userID)
		if err != nil {
			return access.Viewer{}, err
		}
		if u == nil {
			return access.Viewer{}, errs.New(errs.Unauthorized, "The member behind this token no longer exists.")
		}
		return billing.ViewerOf(ctx, db, userID, u.IsAdmin)
	}
}

// errMemberTool answers a member tool called without a token.
var errMemberTool = errs.New(errs.Unauthorized, "This tool acts for a member of the tribe: connect the assistant to your account first (OAuth).")

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
	h.Set("Access-Control-Expose-Headers", "Retry-After, WWW-Authenticate")
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
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { m.mcp.ServeMessages(w, r, msgs) })
	switch {
	case r.Header.Get("Authorization") != "":
		// A request that brings a token must bring a valid one: 401 with
		// the resource metadata otherwise, even for anonymous tools, so a
		// client learns its token is gone rather than seeing fewer tools.
		m.bearer(serve).ServeHTTP(w, r)
	case m.mcp.NeedsToken(msgs):
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+m.oauth.ResourceMetadataURL()+`"`)
		return errMemberTool
	default:
		serve(w, r)
	}
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
