package mcp

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/kb"
)

const jsonMIME = "application/json"

// DocumentTemplate is the URI template of the knowledge-base documents. kb:
// is a scheme of this server's own: the documents have no page on the site,
// so an http URL would promise an address that answers 404.
const DocumentTemplate = "kb://documents/{id}"

const documentPrefix = "kb://documents/"

// DocumentURI is the resource URI of the knowledge-base document id.
func DocumentURI(id string) string { return documentPrefix + id }

// siteResource is one published file served as a resource.
type siteResource struct {
	path string // the site path, such as /content/services.json
	body []byte
	info *sdk.Resource
}

// CardResource describes a resource for the server card.
type CardResource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType"`
}

// CardResourceTemplate describes a resource template for the server card.
type CardResourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType"`
}

// Resources lists the resources in the order clients see them.
func (s *Server) Resources() []CardResource {
	out := make([]CardResource, 0, len(s.sources))
	for _, r := range s.sources {
		out = append(out, CardResource{URI: r.info.URI, Name: r.info.Name, Title: r.info.Title, Description: r.info.Description, MIMEType: r.info.MIMEType})
	}
	return out
}

// ResourceTemplates lists the resource templates.
func (s *Server) ResourceTemplates() []CardResourceTemplate {
	t := s.template
	return []CardResourceTemplate{{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType}}
}

// addResources registers the five content files and the search index, with
// the titles, descriptions and media types of the owner's resource list
// (mcp/resources.json) where it names them, and the knowledge-base documents
// as a template.
func (s *Server) addResources() error {
	listed := map[string]content.Resource{}
	for _, r := range s.site.Resources.Resources {
		listed[r.URI] = r
	}
	var paths []string
	for _, f := range content.PublicFiles() {
		paths = append(paths, content.ContentPrefix+f)
	}
	paths = append(paths, content.SearchIndexPath)
	for _, p := range paths {
		body, ok := s.published(p)
		if !ok {
			return fmt.Errorf("mcp: %s is not loaded", p)
		}
		name := strings.TrimSuffix(path.Base(p), ".json")
		info := &sdk.Resource{URI: s.resourceURI(p), Name: name, Title: name, MIMEType: jsonMIME, Size: int64(len(body))}
		if r, ok := listed[p]; ok {
			info.Title, info.Description, info.MIMEType = r.Title, r.Description, r.MIME
		}
		res := siteResource{path: p, body: body, info: info}
		s.sources = append(s.sources, res)
		s.sdk.AddResource(info, func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: info.URI, MIMEType: info.MIMEType, Text: string(res.body)}}}, nil
		})
	}

	s.template = &sdk.ResourceTemplate{
		URITemplate: DocumentTemplate,
		Name:        "kb-document",
		Title:       "Knowledge-base document",
		Description: "One whole document of the knowledge base, by the id that search results carry " +
			"(document_id, and a resource link per passage): its title, category, source, tags and full text.",
		MIMEType: jsonMIME,
	}
	s.sdk.AddResourceTemplate(s.template, s.readDocument)
	return nil
}

// published returns the bytes the site serves at path.
func (s *Server) published(p string) ([]byte, bool) {
	if p == content.SearchIndexPath {
		return s.site.IndexJSON(), true
	}
	return s.site.Raw(strings.TrimPrefix(p, content.ContentPrefix))
}

// documentView is a knowledge-base document as a resource: the metadata an
// assistant needs to cite it, and the text.
type documentView struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Category  string    `json:"category"`
	Type      string    `json:"type"`
	Source    string    `json:"source"`
	Tags      []string  `json:"tags"`
	UpdatedAt time.Time `json:"updated_at"`
	Content   string    `json:"content"`
}

// maxDocumentID bounds the id read from a URI before it reaches the database;
// ids are UUIDs.
const maxDocumentID = 64

func (s *Server) readDocument(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id := strings.TrimPrefix(uri, documentPrefix)
	if id == "" || len(id) > maxDocumentID || strings.ContainsAny(id, "/?#") {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	d, err := s.docs.Get(ctx, id)
	// The MCP endpoint is anonymous; a replay's transcript is for members
	// (agent.Search leaves its passages out of the answers, so their ids
	// are not handed out either).
	if errs.Is(err, errs.NotFound) || (err == nil && d.Metadata.Category == kb.CategoryReplay) {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	if err != nil {
		s.logger.Error("MCP: read knowledge-base document", "id", id, "err", err)
		return nil, fmt.Errorf("the document could not be read; please try again")
	}
	b, err := jsonText(viewOf(d))
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: jsonMIME, Text: string(b)}}}, nil
}

func viewOf(d kb.Document) documentView {
	tags := d.Metadata.Tags
	if tags == nil {
		tags = []string{}
	}
	return documentView{
		ID: d.ID, Title: d.Metadata.Title, Category: d.Metadata.Category, Type: d.Metadata.Type,
		Source: d.Metadata.Source, Tags: tags, UpdatedAt: d.UpdatedAt, Content: d.Content,
	}
}
