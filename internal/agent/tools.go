package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"tribe/internal/access"
	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/kb"
)

// The site's tools.
const (
	ToolSearch       = "search_knowledge_base"
	ToolReadResource = "read_resource"
	ToolListServices = "list_services"
)

// KnowledgeBase is the search the tools use; *kb.Service is one.
type KnowledgeBase interface {
	Search(ctx context.Context, query string, limit int) (kb.Results, error)
}

// SiteDeps is what the site's tools read.
type SiteDeps struct {
	KB       KnowledgeBase
	Site     *content.Site
	BaseURL  string // TRIBE_BASE_URL, for absolute links to the site's pages
	Capacity int    // TRIBE_CAPACITY, the tribe's member cap
	// Booking, when set, adds find_available_slots.
	Booking Slots
	// Gaps, when set, is told every search whose best match was weak
	// (kb.Results.Weak): the question the knowledge base cannot answer.
	Gaps GapRecorder
}

// GapRecorder keeps a question the knowledge base answered weakly; it never
// fails the search (*gaps.Service is one).
type GapRecorder interface {
	Record(ctx context.Context, question string)
}

// SiteTools returns the site's tools: knowledge-base search, reading the
// published content files, and the services with prices and booking links.
// All are read-only and open to anyone, like the pages they come from.
func SiteTools(d SiteDeps) []Tool {
	tools := siteTools(d)
	if d.Booking != nil {
		tools = append(tools, slotsTool(d.Booking))
	}
	return tools
}

func siteTools(d SiteDeps) []Tool {
	return []Tool{
		{
			Name:  ToolSearch,
			Title: "Search the knowledge base",
			Description: "Search rUv's knowledge base (about, services and prices, projects, technology stack, " +
				"contact, the tribe community, and documents the site owner added). Returns the best passages with " +
				"their titles and sources.",
			InputSchema: json.RawMessage(`{
				"type": "object",
				"properties": {
					"query": {"type": "string", "minLength": 1, "maxLength": ` + strconv.Itoa(kb.MaxQueryLength) + `, "description": "What to look for, in words"},
					"limit": {"type": "integer", "minimum": 1, "maximum": ` + strconv.Itoa(kb.MaxResults) + `, "description": "Most passages to return (default ` + strconv.Itoa(kb.DefaultResults) + `)"}
				},
				"required": ["query"],
				"additionalProperties": false
			}`),
			OutputSchema: json.RawMessage(`{
				"type": "object",
				"properties": {
					"query": {"type": "string"},
					"ranking": {"type": "string", "description": "full_text or hybrid"},
					"results": {"type": "array", "items": {"type": "object", "properties": {
						"title": {"type": "string"}, "category": {"type": "string"}, "source": {"type": "string"},
						"content": {"type": "string"}, "similarity": {"type": "number"},
						"document_id": {"type": "string", "description": "The knowledge-base document the passage comes from"}
					}}}
				}
			}`),
			ReadOnly: true,
			Who:      Anyone,
			Run:      d.search,
		},
		{
			Name:  ToolReadResource,
			Title: "Read a site resource",
			Description: "Read one of the site's published JSON files: " + strings.Join(resourceURIs(), ", ") +
				". With path (such as sessions[1].price or tribe.price_monthly), return only the value there.",
			InputSchema: json.RawMessage(`{
				"type": "object",
				"properties": {
					"uri": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Resource URI, e.g. /content/services.json"},
					"path": {"type": "string", "maxLength": 200, "description": "Dot/bracket path inside the file, e.g. sessions[1].price"}
				},
				"required": ["uri"],
				"additionalProperties": false
			}`),
			OutputSchema: json.RawMessage(`{
				"type": "object",
				"properties": {"uri": {"type": "string"}, "path": {"type": "string"}, "value": {}}
			}`),
			ReadOnly: true,
			Who:      Anyone,
			Run:      d.readResource,
		},
		{
			Name:  ToolListServices,
			Title: "List services and prices",
			Description: "List what can be booked or joined: one-to-one sessions, Neural Trader training and the tribe " +
				"membership, each with its price and booking link.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {}, "additionalProperties": false}`),
			OutputSchema: json.RawMessage(`{
				"type": "object",
				"properties": {
					"currency": {"type": "string"},
					"sessions": {"type": "array"}, "training": {"type": "array"},
					"tribe": {"type": "object"}, "booking_page": {"type": "string"}
				}
			}`),
			ReadOnly: true,
			Who:      Anyone,
			Run:      d.listServices,
		},
	}
}

// SearchOutput answers search_knowledge_base.
type SearchOutput struct {
	Query   string    `json:"query"`
	Ranking string    `json:"ranking"`
	Results []Passage `json:"results"`
}

// Passage is one knowledge-base document found: its best-matching text.
type Passage struct {
	Title      string  `json:"title"`
	Category   string  `json:"category"`
	Source     string  `json:"source"`
	Content    string  `json:"content"`
	Similarity float64 `json:"similarity"`
	// DocumentID names the whole document, so a client that wants more than
	// the passage can read it (the MCP server's kb:// resources).
	DocumentID string `json:"document_id,omitempty"`
}

type searchArgs struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// Search searches the knowledge base for v and tells gaps (when not nil) a
// query whose best match was weak (kb.Results.Weak). Every search a person
// or an agent makes goes through it: the AI chat and MCP tool, and the
// console's search command (POST /api/search). The passages of replays'
// transcripts (kb.CategoryReplay) are paid content: only viewers who see
// it (tribe members and admins) get them.
func Search(ctx context.Context, base KnowledgeBase, gaps GapRecorder, v access.Viewer, query string, limit int) (kb.Results, error) {
	res, err := base.Search(ctx, query, limit)
	if err != nil {
		return res, err
	}
	if !v.SeesPaidContent() {
		kept := res.Results[:0:0]
		for _, r := range res.Results {
			if r.Metadata.Category != kb.CategoryReplay {
				kept = append(kept, r)
			}
		}
		res.Results = kept
	}
	if gaps != nil && res.Weak() {
		gaps.Record(ctx, query)
	}
	return res, nil
}

func (d SiteDeps) search(ctx context.Context, v access.Viewer, raw json.RawMessage) (any, error) {
	var a searchArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("decode checked arguments: %w", err)
	}
	res, err := Search(ctx, d.KB, d.Gaps, v, a.Query, a.Limit)
	if err != nil {
		return nil, err
	}
	out := SearchOutput{Query: a.Query, Ranking: res.Ranking, Results: make([]Passage, 0, len(res.Results))}
	for _, r := range res.Results {
		out.Results = append(out.Results, Passage{
			Title: r.Metadata.Title, Category: r.Metadata.Category, Source: r.Metadata.Source,
			Content: r.Content, Similarity: r.Similarity, DocumentID: r.DocumentID,
		})
	}
	return out, nil
}

// ResourceOutput answers read_resource.
type ResourceOutput struct {
	URI   string `json:"uri"`
	Path  string `json:"path,omitempty"`
	Value any    `json:"value"`
}

type resourceArgs struct {
	URI  string `json:"uri"`
	Path string `json:"path"`
}

// resourceURIs are the files read_resource serves, as the site publishes them.
func resourceURIs() []string {
	var uris []string
	for _, f := range content.PublicFiles() {
		uris = append(uris, content.ContentPrefix+f)
	}
	return append(uris, content.ResourcesPath, content.SearchIndexPath)
}

// resource returns the bytes the site serves at uri.
func (d SiteDeps) resource(uri string) ([]byte, bool) {
	switch uri {
	case content.ResourcesPath:
		return d.Site.Raw(content.ResourcesFile)
	case content.SearchIndexPath:
		return d.Site.IndexJSON(), true
	}
	name, ok := strings.CutPrefix(uri, content.ContentPrefix)
	if !ok {
		return nil, false
	}
	for _, f := range content.PublicFiles() {
		if f == name {
			return d.Site.Raw(f)
		}
	}
	return nil, false
}

func (d SiteDeps) readResource(_ context.Context, _ access.Viewer, raw json.RawMessage) (any, error) {
	var a resourceArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("decode checked arguments: %w", err)
	}
	// Accept the forms people and models write: with or without the leading
	// slash, or as an absolute URL on this site.
	uri := strings.TrimSpace(a.URI)
	if d.BaseURL != "" {
		uri = strings.TrimPrefix(uri, d.BaseURL)
	}
	if !strings.HasPrefix(uri, "/") {
		uri = "/" + uri
	}
	b, ok := d.resource(uri)
	if !ok {
		return nil, errs.New(errs.NotFound, "Resource not found: "+uri+" (the resources are "+strings.Join(resourceURIs(), ", ")+")")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // numbers stay exactly as the file writes them
	var value any
	if err := dec.Decode(&value); err != nil {
		return nil, fmt.Errorf("decode %s: %w", uri, err)
	}
	value, err := valueAtPath(value, a.Path)
	if err != nil {
		return nil, err
	}
	return ResourceOutput{URI: uri, Path: a.Path, Value: value}, nil
}

// pathKey is one step of a JSON path: an object key or a list index.
type pathKey struct {
	key   string
	index int
	isIdx bool
}

// parsePath splits a path such as sessions[1].price or links['home'] into
// steps, as the starter kit's read_json_path tool does.
func parsePath(path string) ([]pathKey, error) {
	var keys []pathKey
	invalid := errs.Field("path", "Invalid path: "+path)
	for i := 0; i < len(path); {
		if path[i] == '[' {
			rest := path[i+1:]
			switch {
			case rest != "" && rest[0] >= '0' && rest[0] <= '9':
				end := strings.IndexByte(rest, ']')
				if end < 0 {
					return nil, invalid
				}
				n, err := strconv.Atoi(rest[:end])
				if err != nil {
					return nil, invalid
				}
				keys = append(keys, pathKey{index: n, isIdx: true})
				i += 1 + end + 1
			case rest != "" && (rest[0] == '\'' || rest[0] == '"'):
				end := strings.Index(rest[1:], string(rest[0])+"]")
				if end < 0 {
					return nil, invalid
				}
				keys = append(keys, pathKey{key: rest[1 : 1+end]})
				i += 1 + 1 + end + 2
			default:
				return nil, invalid
			}
			continue
		}
		if path[i] == '.' {
			i++
		}
		end := i
		for end < len(path) && !strings.ContainsRune(".[]", rune(path[end])) {
			end++
		}
		if end == i {
			return nil, invalid
		}
		keys = append(keys, pathKey{key: path[i:end]})
		i = end
	}
	return keys, nil
}

// valueAtPath follows path through a decoded JSON value; an empty path
// returns the value itself.
func valueAtPath(v any, path string) (any, error) {
	keys, err := parsePath(path)
	if err != nil {
		return nil, err
	}
	notFound := errs.New(errs.NotFound, "Path not found: "+path)
	for _, k := range keys {
		if k.isIdx {
			list, ok := v.([]any)
			if !ok || k.index >= len(list) {
				return nil, notFound
			}
			v = list[k.index]
			continue
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, notFound
		}
		if v, ok = obj[k.key]; !ok {
			return nil, notFound
		}
	}
	return v, nil
}

// ServicesOutput answers list_services.
type ServicesOutput struct {
	Currency    string         `json:"currency"`
	Sessions    []ServiceOffer `json:"sessions"`
	Training    []ServiceOffer `json:"training"`
	Tribe       TribeOffer     `json:"tribe"`
	BookingPage string         `json:"booking_page"`
}

// ServiceOffer is one session or training option.
type ServiceOffer struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Description   string   `json:"description,omitempty"`
	Duration      string   `json:"duration"`
	Capacity      string   `json:"capacity,omitempty"`
	Price         float64  `json:"price"`
	PriceText     string   `json:"price_text"`
	OriginalPrice float64  `json:"original_price,omitempty"`
	BookingLink   string   `json:"booking_link"`
	Popular       bool     `json:"popular,omitempty"`
	LimitedTime   bool     `json:"limited_time,omitempty"`
	Features      []string `json:"features"`
}

// TribeOffer is the community membership.
type TribeOffer struct {
	Name           string   `json:"name"`
	Summary        string   `json:"summary"`
	PriceMonthly   float64  `json:"price_monthly"`
	PriceText      string   `json:"price_text"`
	Billing        string   `json:"billing"`
	SessionCadence string   `json:"session_cadence"`
	SessionLength  string   `json:"session_length"`
	CohortSize     string   `json:"cohort_size"`
	Capacity       int      `json:"capacity"`
	Features       []string `json:"features"`
	JoinLink       string   `json:"join_link"`
}

func (d SiteDeps) listServices(context.Context, access.Viewer, json.RawMessage) (any, error) {
	return d.services(), nil
}

// services reads the offers from the content files, the one place prices live.
func (d SiteDeps) services() ServicesOutput {
	sv := d.Site.Services
	out := ServicesOutput{Currency: sv.Currency, BookingPage: d.BaseURL + "/booking"}
	for _, s := range sv.Sessions {
		out.Sessions = append(out.Sessions, ServiceOffer{
			ID: s.ID, Name: s.Name, Description: s.Description, Duration: fmt.Sprintf("%d minutes", s.Duration),
			Price: s.Price, PriceText: content.FormatPrice(s.Price, sv.Currency), BookingLink: s.BookAt(d.BaseURL),
			Popular: s.Popular, Features: s.Features,
		})
	}
	for _, t := range sv.Training {
		out.Training = append(out.Training, ServiceOffer{
			ID: t.ID, Name: "Neural Trader " + t.Title, Description: t.Subtitle, Duration: t.Duration, Capacity: t.Capacity,
			Price: t.Price, PriceText: content.FormatPrice(t.Price, sv.Currency), OriginalPrice: t.OriginalPrice,
			BookingLink: t.BookAt(d.BaseURL), Popular: t.IsPopular, LimitedTime: t.IsLimitedTime, Features: t.Features,
		})
	}
	tr := sv.Tribe
	capacity := d.Capacity
	if capacity == 0 {
		capacity = tr.Capacity
	}
	out.Tribe = TribeOffer{
		Name: tr.Name, Summary: tr.Summary, PriceMonthly: tr.PriceMonthly,
		PriceText: content.FormatPrice(tr.PriceMonthly, tr.Currency) + " per month", Billing: tr.Billing,
		SessionCadence: tr.SessionCadence, SessionLength: tr.SessionLength, CohortSize: tr.CohortSize,
		Capacity: capacity, Features: tr.Features, JoinLink: d.BaseURL + "/tribe",
	}
	return out
}
