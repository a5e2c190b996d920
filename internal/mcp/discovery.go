// Package mcp is the site's Model Context Protocol side: the MCP server at
// /mcp (Streamable HTTP, over the agent's tool registry, the published
// content and the knowledge base), the discovery document served at
// /mcp.json and /.well-known/mcp.json, the server card at
// /.well-known/mcp/server-card.json, and the rule for which browser origins
// the endpoint answers.
package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"

	"tribe/internal/content"
)

// DiscoveryVersion is the version value the original site's discovery
// document carried; clients built against it compare this string.
const DiscoveryVersion = "2025-01-18"

// Discovery is the discovery document.
type Discovery struct {
	Version      string       `json:"version"`
	Name         string       `json:"name"`
	Description  string       `json:"description"`
	Capabilities Capabilities `json:"capabilities"`
	// Servers lists the MCP server endpoints this program serves: its own,
	// at Path.
	Servers   []DiscoveryServer `json:"servers"`
	Tools     []Tool            `json:"tools"`
	Resources []Resource        `json:"resources"`
}

// Capabilities says which MCP features the site offers.
type Capabilities struct {
	Tools     bool `json:"tools"`
	Resources bool `json:"resources"`
}

// DiscoveryServer is one MCP server endpoint.
type DiscoveryServer struct {
	Name      string `json:"name"`
	URL       string `json:"url"`
	Transport string `json:"transport"`
}

// Tool is one tool a client can call.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Resource is one readable resource; URI is a path on this site.
type Resource struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// NewDiscovery builds the discovery document from the loaded content, so
// the name and description follow the owner's about.json; endpoint is the
// MCP endpoint's absolute URL.
func NewDiscovery(site *content.Site, endpoint string) Discovery {
	a := site.About
	return Discovery{
		Version: DiscoveryVersion,
		Name:    a.Handle + " (" + a.Name + ")",
		Description: fmt.Sprintf("Public content of %s's site (%s): who %s is, services and pricing, projects and contact details, "+
			"readable as JSON resources and searchable through one index.", a.Handle, a.Title, a.Handle),
		Capabilities: Capabilities{Tools: true, Resources: true},
		Servers:      []DiscoveryServer{{Name: a.Handle, URL: endpoint, Transport: Transport}},
		Tools: []Tool{
			{Name: "search", Description: "Search the site's content by keywords; matches come from " + content.SearchIndexPath + " and each names the resource URI that holds the full record."},
			{Name: "resources/list", Description: "List the readable resources with their URI, media type, title and description (" + content.ResourcesPath + ")."},
			{Name: "resources/read", Description: "Read one resource by its URI, for example " + content.ContentPrefix + content.ServicesFile + "."},
		},
		Resources: []Resource{
			{URI: content.ContentPrefix + content.AboutFile, Name: "About Information"},
			{URI: content.ContentPrefix + content.ServicesFile, Name: "Services & Pricing"},
			{URI: content.ContentPrefix + content.ProjectsFile, Name: "Featured Projects"},
			{URI: content.ContentPrefix + content.ContactFile, Name: "Contact Information"},
		},
	}
}

// JSON encodes the document as served.
func (d Discovery) JSON() ([]byte, error) { return encodeDocument(d, "MCP discovery document") }

// encodeDocument encodes a published document: indented for people reading
// it in a browser, and without HTML escaping so "&" stays "&".
func encodeDocument(v any, what string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode %s: %w", what, err)
	}
	return b.Bytes(), nil
}
