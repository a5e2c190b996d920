package oauth

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/errs"
	"tribe/internal/netguard"
	"tribe/internal/store"
)

// Limits on what a client may register.
const (
	maxRedirectURIs = 10
	maxURILength    = 2000
	maxClientName   = 200
)

// Client ID Metadata Documents are fetched with these bounds, and kept this
// long so an authorization and its token request fetch once.
const (
	metadataTimeout  = 5 * time.Second
	metadataMaxBytes = 16 << 10
	metadataCacheTTL = 5 * time.Minute
	metadataCacheMax = 1000
)

// Client is an OAuth client as the server knows it.
type Client struct {
	ID           string
	Name         string
	RedirectURIs []string
	// Metadata is true for a client named by its metadata document's URL.
	Metadata bool
}

// RegisterInput is an RFC 7591 registration request: only what a public
// client of this server can use is read; other fields are ignored.
type RegisterInput struct {
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	Scope                   string   `json:"scope"`
}

// Registration is the RFC 7591 answer: the client as registered.
type Registration struct {
	ClientID                string   `json:"client_id"`
	ClientIDIssuedAt        int64    `json:"client_id_issued_at"`
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	Scope                   string   `json:"scope"`
}

// grantTypes are the grants a client may use here.
var grantTypes = []string{"authorization_code", "refresh_token"}

// Register keeps a new public client (RFC 7591). The caller rate-limits
// it: anyone may register.
func (s *Service) Register(ctx context.Context, in RegisterInput) (*Registration, error) {
	name := strings.TrimSpace(in.ClientName)
	if name == "" {
		name = "Unnamed assistant"
	}
	if utf8.RuneCountInString(name) > maxClientName || !utf8.ValidString(name) {
		return nil, errs.New(errs.InvalidRequest, "client_name is too long.")
	}
	if len(in.RedirectURIs) == 0 || len(in.RedirectURIs) > maxRedirectURIs {
		return nil, errs.New(errs.InvalidRedirectURI, fmt.Sprintf("Give between 1 and %d redirect_uris.", maxRedirectURIs))
	}
	for _, u := range in.RedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return nil, err
		}
	}
	for _, g := range in.GrantTypes {
		if !slices.Contains(grantTypes, g) {
			return nil, errs.New(errs.InvalidClientMetadata, "grant_types may hold authorization_code and refresh_token only.")
		}
	}
	for _, r := range in.ResponseTypes {
		if r != "code" {
			return nil, errs.New(errs.InvalidClientMetadata, "response_types may hold code only.")
		}
	}
	// Only public clients: a secret kept by an assistant on a member's
	// computer would be no secret, and PKCE protects the code instead.
	if m := in.TokenEndpointAuthMethod; m != "" && m != "none" {
		return nil, errs.New(errs.InvalidClientMetadata, "token_endpoint_auth_method must be none: this server registers public clients with PKCE.")
	}
	scope := strings.Join(Scopes, " ")
	if in.Scope != "" {
		asked, ok := parseScopes(in.Scope)
		if !ok || len(asked) == 0 {
			return nil, errs.New(errs.InvalidClientMetadata, "scope may hold "+strings.Join(Scopes, " and ")+".")
		}
		scope = strings.Join(asked, " ")
	}
	uris, _ := json.Marshal(in.RedirectURIs)
	now := s.now()
	id := "tribe-" + newSecret()[:32]
	if _, err := s.db.Write.ExecContext(ctx,
		`INSERT INTO oauth_clients (id, name, redirect_uris, kind, created_at) VALUES ($1, $2, $3, 'registered', $4)`,
		id, name, string(uris), store.At(now)); err != nil {
		return nil, fmt.Errorf("register oauth client: %w", err)
	}
	return &Registration{
		ClientID: id, ClientIDIssuedAt: now.Unix(), ClientName: name, RedirectURIs: in.RedirectURIs,
		GrantTypes: grantTypes, ResponseTypes: []string{"code"}, TokenEndpointAuthMethod: "none", Scope: scope,
	}, nil
}

// checkRedirectURI refuses a redirect URI this server will never send a code
// to: https anywhere; http only to the member's own computer (RFC 8252
// loopback redirects); or a private-use scheme in reverse-domain form (RFC
// 8252 §7.1, "com.example.app:/cb"). No fragment, no credentials.
func checkRedirectURI(raw string) error {
	bad := func(why string) error {
		return errs.New(errs.InvalidRedirectURI, "Redirect URI "+quote(raw)+" is refused: "+why)
	}
	if len(raw) > maxURILength {
		return bad("it is too long.")
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() {
		return bad("it is not an absolute URL.")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return bad("it has a fragment.")
	}
	if u.User != nil {
		return bad("it carries credentials.")
	}
	switch u.Scheme {
	case "https":
		if u.Host == "" {
			return bad("it has no host.")
		}
	case "http":
		if !loopback(u) {
			return bad("plain http is only allowed to 127.0.0.1, [::1] or localhost (a native app's loopback address).")
		}
	default:
		// Reverse-domain private-use schemes only: "javascript", "data",
		// "file" and their like have no dot.
		if !strings.Contains(u.Scheme, ".") {
			return bad("use https, a loopback http address or a reverse-domain scheme such as com.example.app.")
		}
	}
	return nil
}

// loopback reports whether u's host is this computer by a literal loopback
// address or the name localhost.
func loopback(u *url.URL) bool {
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// matchRedirect reports whether requested is one of registered: exactly,
// or, for a loopback http address, with any port (RFC 8252 §7.3: a native
// app listens on whatever port the system gives it).
func matchRedirect(registered []string, requested string) bool {
	if slices.Contains(registered, requested) {
		return true
	}
	req, err := url.Parse(requested)
	if err != nil || req.Scheme != "http" || !loopback(req) || req.Fragment != "" || req.User != nil {
		return false
	}
	for _, r := range registered {
		reg, err := url.Parse(r)
		if err != nil || reg.Scheme != "http" || !loopback(reg) {
			continue
		}
		if reg.Hostname() == req.Hostname() && reg.EscapedPath() == req.EscapedPath() && reg.RawQuery == req.RawQuery {
			return true
		}
	}
	return false
}

// IsMetadataClientID reports whether a client id is a URL, which names a
// Client ID Metadata Document the server fetches.
func IsMetadataClientID(id string) bool {
	return strings.HasPrefix(id, "https://") || strings.HasPrefix(id, "http://")
}

var errUnknownClient = errs.New(errs.InvalidClient, "This assistant is not registered here (unknown client_id).")

// client finds the client called id: a registered one in the table, or an
// https id whose metadata document it fetches (or has fetched recently).
func (s *Service) client(ctx context.Context, id string) (*Client, error) {
	if id == "" || len(id) > 512 {
		return nil, errUnknownClient
	}
	if IsMetadataClientID(id) {
		return s.metadataClient(ctx, id)
	}
	var c Client
	var uris string
	err := s.db.ReadRow(ctx, `SELECT id, name, redirect_uris FROM oauth_clients WHERE id = $1 AND kind = 'registered'`, id).
		Scan(&c.ID, &c.Name, &uris)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errUnknownClient
	}
	if err != nil {
		return nil, fmt.Errorf("read oauth client: %w", err)
	}
	if err := json.Unmarshal([]byte(uris), &c.RedirectURIs); err != nil {
		return nil, fmt.Errorf("read oauth client %s redirect uris: %w", id, err)
	}
	return &c, nil
}

type cachedClient struct {
	client *Client
	until  time.Time
}

// metadataDocument is the part of a Client ID Metadata Document this server
// reads.
type metadataDocument struct {
	ClientID                string   `json:"client_id"`
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
}

// metadataClient fetches the Client ID Metadata Document at id through the
// SSRF guard (the same one calendar addresses go through): https only, a
// public address only, no redirect, 16 KB and 5 seconds at most. The
// document must name itself as client_id.
func (s *Service) metadataClient(ctx context.Context, id string) (*Client, error) {
	now := s.now()
	s.mu.Lock()
	if c, ok := s.metadata[id]; ok && now.Before(c.until) {
		s.mu.Unlock()
		return c.client, nil
	}
	s.mu.Unlock()
	bad := func(why string) error {
		return errs.New(errs.InvalidClient, "The assistant's client id "+quote(id)+" is refused: "+why)
	}
	u, err := url.Parse(id)
	if err != nil || u.Host == "" || u.Fragment != "" || u.User != nil {
		return nil, bad("it is not a valid URL.")
	}
	if u.Scheme != "https" && !(s.allowPrivate && u.Scheme == "http") {
		return nil, bad("a client id URL must be https.")
	}
	if u.Path == "" || u.Path == "/" {
		return nil, bad("a client id URL must have a path.")
	}
	if !s.allowPrivate && netguard.LocalHost(u) {
		return nil, bad(netguard.ErrPrivateAddress.Error() + ".")
	}
	ctx, cancel := context.WithTimeout(ctx, metadataTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return nil, bad("it is not a valid URL.")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.fetch.Do(req)
	if err != nil {
		if errors.Is(err, netguard.ErrPrivateAddress) {
			return nil, bad(netguard.ErrPrivateAddress.Error() + ".")
		}
		return nil, bad("its metadata document could not be fetched.")
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, bad(fmt.Sprintf("its metadata document answered HTTP %d.", resp.StatusCode))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, metadataMaxBytes+1))
	if err != nil || len(body) > metadataMaxBytes {
		return nil, bad("its metadata document is too large or was cut off.")
	}
	var doc metadataDocument
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, bad("its metadata document is not JSON.")
	}
	if doc.ClientID != id {
		return nil, bad("its metadata document names another client_id.")
	}
	if m := doc.TokenEndpointAuthMethod; m != "" && m != "none" {
		return nil, bad("only public clients (token_endpoint_auth_method none) are served.")
	}
	if len(doc.RedirectURIs) == 0 || len(doc.RedirectURIs) > maxRedirectURIs {
		return nil, bad("its metadata document lists no usable redirect_uris.")
	}
	for _, r := range doc.RedirectURIs {
		if err := checkRedirectURI(r); err != nil {
			return nil, err
		}
	}
	name := strings.TrimSpace(doc.ClientName)
	if name == "" || utf8.RuneCountInString(name) > maxClientName {
		name = u.Host
	}
	c := &Client{ID: id, Name: name, RedirectURIs: doc.RedirectURIs, Metadata: true}
	s.mu.Lock()
	if len(s.metadata) >= metadataCacheMax {
		clear(s.metadata) // a flood of ids costs fetches, never memory
	}
	s.metadata[id] = cachedClient{client: c, until: now.Add(metadataCacheTTL)}
	s.mu.Unlock()
	return c, nil
}

// keepClient makes sure a metadata client has its row, which grants refer
// to; its name and redirect URIs follow the latest document.
func keepClient(ctx context.Context, tx *sql.Tx, c *Client, now time.Time) error {
	if !c.Metadata {
		return nil
	}
	uris, _ := json.Marshal(c.RedirectURIs)
	_, err := tx.ExecContext(ctx, `INSERT INTO oauth_clients (id, name, redirect_uris, kind, created_at)
		VALUES ($1, $2, $3, 'metadata', $4)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris`,
		c.ID, c.Name, string(uris), store.At(now))
	if err != nil {
		return fmt.Errorf("keep oauth client %s: %w", c.ID, err)
	}
	return nil
}

// quote shows a value a client sent, cut short.
func quote(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return fmt.Sprintf("%q", s)
}
