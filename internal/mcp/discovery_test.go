package mcp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"tribe/internal/content"
)

func TestDiscoveryDocument(t *testing.T) {
	site, err := content.Load("")
	if err != nil {
		t.Fatal(err)
	}
	body, err := NewDiscovery(site, "https://ruv.example/mcp").JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version      string `json:"version"`
		Name         string `json:"name"`
		Description  string `json:"description"`
		Capabilities struct {
			Tools     *bool `json:"tools"`
			Resources *bool `json:"resources"`
		} `json:"capabilities"`
		Servers   []DiscoveryServer `json:"servers"`
		Tools     []Tool            `json:"tools"`
		Resources []Resource        `json:"resources"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
	if doc.Version != "2025-01-18" {
		t.Errorf("version %q", doc.Version)
	}
	if !strings.Contains(doc.Name, "rUv") || !strings.Contains(doc.Description, "rUv") {
		t.Errorf("name %q description %q should come from about.json", doc.Name, doc.Description)
	}
	if doc.Capabilities.Tools == nil || !*doc.Capabilities.Tools || doc.Capabilities.Resources == nil || !*doc.Capabilities.Resources {
		t.Error("capabilities tools and resources must be true")
	}
	if want := []DiscoveryServer{{Name: "rUv", URL: "https://ruv.example/mcp", Transport: "streamable-http"}}; !slices.Equal(doc.Servers, want) {
		t.Errorf("servers %+v, want the site's own endpoint %+v", doc.Servers, want)
	}
	var tools []string
	for _, tool := range doc.Tools {
		if tool.Description == "" {
			t.Errorf("tool %s has no description", tool.Name)
		}
		tools = append(tools, tool.Name)
	}
	if !slices.Equal(tools, []string{"search", "resources/list", "resources/read"}) {
		t.Errorf("tools %v", tools)
	}
	want := []Resource{
		{"/content/about.json", "About Information"},
		{"/content/services.json", "Services & Pricing"},
		{"/content/projects.json", "Featured Projects"},
		{"/content/contact.json", "Contact Information"},
	}
	if !slices.Equal(doc.Resources, want) {
		t.Errorf("resources %v", doc.Resources)
	}
	// Every listed resource must be a file the site publishes.
	for _, r := range doc.Resources {
		if _, ok := site.Raw(strings.TrimPrefix(r.URI, content.ContentPrefix)); !ok {
			t.Errorf("resource %s is not a content file", r.URI)
		}
	}
	if strings.Contains(string(body), `\u0026`) {
		t.Error("& must not be HTML-escaped")
	}
}
