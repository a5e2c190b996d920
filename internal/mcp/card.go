package mcp

import (
	"net"
	"net/url"
	"slices"
	"strings"
)

// CardPath is where the server card is published (the draft's well-known
// path for MCP server cards).
const CardPath = "/.well-known/mcp/server-card.json"

// Card is the MCP server card: what a client can learn about the server
// before it connects. It follows the draft's shape (name, title, version,
// description, websiteUrl, remotes) and, like the earlier draft, also lists
// the tools, resources and prompts, so a directory can show them without
// connecting.
type Card struct {
	Name              string                 `json:"name"`
	Title             string                 `json:"title"`
	Version           string                 `json:"version"`
	Description       string                 `json:"description"`
	WebsiteURL        string                 `json:"websiteUrl"`
	Remotes           []Remote               `json:"remotes"`
	Authentication    Authentication         `json:"authentication"`
	Capabilities      CardCapabilities       `json:"capabilities"`
	Tools             []CardTool             `json:"tools"`
	Resources         []CardResource         `json:"resources"`
	ResourceTemplates []CardResourceTemplate `json:"resourceTemplates"`
	Prompts           []CardPrompt           `json:"prompts"`
}

// Remote is one address the server answers at.
type Remote struct {
	Type                      string   `json:"type"`
	URL                       string   `json:"url"`
	SupportedProtocolVersions []string `json:"supportedProtocolVersions"`
}

// Authentication says what a client must present: nothing, here.
type Authentication struct {
	Required bool     `json:"required"`
	Schemes  []string `json:"schemes"`
}

// CardCapabilities names the MCP features the server offers.
type CardCapabilities struct {
	Tools     bool `json:"tools"`
	Resources bool `json:"resources"`
	Prompts   bool `json:"prompts"`
}

// Card returns the server card, built from the same registrations clients
// see when they connect.
func (s *Server) Card() Card {
	a := s.site.About
	return Card{
		Name:    cardName(s.baseURL),
		Title:   a.Handle + " (" + a.Name + ")",
		Version: s.version,
		Description: "Read-only MCP server of " + a.Handle + "'s site (" + a.Title + "): search the knowledge base, " +
			"services with prices and booking links, the published JSON content, and prompts to plan a coaching session. " +
			"Anonymous; no account or key needed.",
		WebsiteURL: s.baseURL + "/",
		Remotes: []Remote{{
			Type:                      Transport,
			URL:                       s.Endpoint(),
			SupportedProtocolVersions: ProtocolVersions(),
		}},
		Authentication:    Authentication{Required: false, Schemes: []string{}},
		Capabilities:      CardCapabilities{Tools: true, Resources: true, Prompts: true},
		Tools:             s.Tools(),
		Resources:         s.Resources(),
		ResourceTemplates: s.ResourceTemplates(),
		Prompts:           s.Prompts(),
	}
}

// CardJSON encodes the card as served.
func (s *Server) CardJSON() ([]byte, error) { return encodeDocument(s.Card(), "MCP server card") }

// cardName is the server's name in reverse-DNS form, as registries name
// servers: https://ruv.io gives io.ruv/mcp. An address without a domain
// (localhost, an IP address) is used as it is.
func cardName(baseURL string) string {
	host := baseURL
	if u, err := url.Parse(baseURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	if host == "localhost" || net.ParseIP(host) != nil {
		return host + Path
	}
	labels := strings.Split(host, ".")
	slices.Reverse(labels)
	return strings.Join(labels, ".") + Path
}
