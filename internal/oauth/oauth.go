// Package oauth is the site's small OAuth 2.1 authorization server for the
// MCP endpoint: public clients registered by RFC 7591 or named by a Client ID
// Metadata Document, the authorization code grant with PKCE S256, refresh
// tokens rotated on every use with reuse detection, RFC 8707 resource
// indicators and RFC 7009 revocation. It owns the oauth_* tables. Every
// secret (codes, access and refresh tokens) is random, handed out once and
// kept as its SHA-256 only, so a copy of the database gives no one a token.
// docs/architecture.md ("Assistants") says why this is ours and not a
// library's.
package oauth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"tribe/internal/clock"
	"tribe/internal/netguard"
	"tribe/internal/store"
)

// The scopes a member can grant an assistant.
const (
	ScopeRead  = "tribe:read"
	ScopeWrite = "tribe:write"
)

// Scopes lists every scope, in the order the consent page shows them.
var Scopes = []string{ScopeRead, ScopeWrite}

// Lifetimes of what the server hands out.
const (
	// CodeTTL is how long an authorization code may be exchanged: the
	// client redeems it in the same second it arrives.
	CodeTTL = 60 * time.Second
	// AccessTTL is an access token's life: short, so a leaked one is worth
	// little, and revocation is immediate anyway because Verify reads the
	// grant.
	AccessTTL = time.Hour
	// RefreshTTL is a refresh token's life; each use hands out a new one,
	// so an assistant used at least monthly stays connected.
	RefreshTTL = 30 * 24 * time.Hour
)

// Paths of the server's endpoints on the site.
const (
	AuthorizePath        = "/oauth/authorize"
	ConsentPath          = "/oauth/consent"
	TokenPath            = "/oauth/token"
	RegisterPath         = "/oauth/register"
	RevokePath           = "/oauth/revoke"
	MetadataPath         = "/.well-known/oauth-authorization-server"
	ResourceMetadataPath = "/.well-known/oauth-protected-resource"
)

// Options shape the service.
type Options struct {
	// BaseURL is TRIBE_BASE_URL: the issuer, and with ResourcePath the one
	// resource tokens are for.
	BaseURL string
	// ResourcePath is the protected resource's path (the MCP endpoint).
	ResourcePath string
	// Clock is the time codes and tokens expire by (nil: time.Now).
	Clock clock.Clock
	// AllowPrivate lets Client ID Metadata Documents be fetched from
	// loopback and private addresses over plain http (tests only).
	AllowPrivate bool
	// Fetch, when set, replaces the SSRF-guarded client for metadata
	// documents (tests).
	Fetch  *http.Client
	Logger *slog.Logger
}

// Service is the authorization server. It is safe for concurrent use; build
// one per process.
type Service struct {
	db           *store.DB
	now          clock.Clock
	issuer       string
	resource     string
	allowPrivate bool
	fetch        *http.Client
	logger       *slog.Logger

	mu       sync.Mutex
	metadata map[string]cachedClient // Client ID Metadata Documents by URL
}

// New returns the service over db.
func New(db *store.DB, o Options) *Service {
	s := &Service{
		db:           db,
		now:          o.Clock,
		issuer:       strings.TrimRight(o.BaseURL, "/"),
		allowPrivate: o.AllowPrivate,
		fetch:        o.Fetch,
		logger:       o.Logger,
		metadata:     map[string]cachedClient{},
	}
	s.resource = s.issuer + o.ResourcePath
	if s.now == nil {
		s.now = time.Now
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	if s.fetch == nil {
		s.fetch = netguard.Client(netguard.ClientOptions{
			AllowPrivate: o.AllowPrivate,
			Timeout:      metadataTimeout,
			// A metadata document is at its client id; a redirect would
			// make the id name someone else's document.
			MaxRedirects: 0,
		})
	}
	return s
}

// Issuer is the authorization server's identifier (RFC 8414): the site's
// address.
func (s *Service) Issuer() string { return s.issuer }

// Resource is the one protected resource tokens are for: the MCP endpoint's
// absolute URL.
func (s *Service) Resource() string { return s.resource }

// ResourceMetadataURL is where the protected resource's metadata (RFC 9728)
// is published.
func (s *Service) ResourceMetadataURL() string { return s.issuer + ResourceMetadataPath }

// newSecret returns 32 random bytes, base64url without padding: 256 bits,
// beyond guessing, and safe in a URL query and a form.
func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hash is how a secret is kept: its SHA-256 in hex. The secrets are 256
// random bits, so a fast hash is enough; no password stretching is needed.
func hash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// parseScopes splits a space-separated scope list, refusing none; ok is
// false when a scope is unknown.
func parseScopes(raw string) (scopes []string, ok bool) {
	for _, f := range strings.Fields(raw) {
		if !slices.Contains(Scopes, f) {
			return nil, false
		}
		if !slices.Contains(scopes, f) {
			scopes = append(scopes, f)
		}
	}
	// Kept in the one order, so equal sets read the same.
	slices.SortFunc(scopes, func(a, b string) int { return slices.Index(Scopes, a) - slices.Index(Scopes, b) })
	return scopes, true
}

// HasScope reports whether a space-separated scope list holds scope.
func HasScope(scopes []string, scope string) bool { return slices.Contains(scopes, scope) }
