// Package content loads the site's JSON content (about, services, projects,
// stack, contact and the MCP resource list), checks every field the site
// relies on, and derives the search index from it. The files are the one
// source of truth for prices and facts: pages, the console and the MCP tools
// all read them, so a bad file stops the server at start instead of showing
// a broken page.
package content

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	contentfiles "tribe/content"
)

// The content files, named relative to the content directory.
const (
	AboutFile     = "about.json"
	ServicesFile  = "services.json"
	ProjectsFile  = "projects.json"
	StackFile     = "stack.json"
	ContactFile   = "contact.json"
	ResourcesFile = "mcp/resources.json"
)

// The site paths where the files and the generated index are published.
const (
	ContentPrefix   = "/content/"
	ResourcesPath   = "/mcp/resources.json"
	SearchIndexPath = "/mcp/search-index.json"
)

// PublicFiles lists the files published under /content/, in display order.
func PublicFiles() []string {
	return []string{AboutFile, ServicesFile, ProjectsFile, StackFile, ContactFile}
}

// Site is the loaded, checked content plus what is derived from it.
type Site struct {
	About     About
	Services  Services
	Projects  Projects
	Stack     Stack
	Contact   Contact
	Resources Resources
	Index     SearchIndex

	raw       map[string][]byte
	indexJSON []byte
	source    string
}

// Raw returns a file's bytes exactly as read, so what is served is what the
// owner wrote (including fields this program does not know).
func (s *Site) Raw(name string) ([]byte, bool) {
	b, ok := s.raw[name]
	return b, ok
}

// IndexJSON is the search index as published at SearchIndexPath and in the
// starter kit, encoded once so every copy is the same bytes. HTML escaping is
// off: the index is data, and "&" in a title should read as "&" to clients.
func (s *Site) IndexJSON() []byte { return s.indexJSON }

// Source says where the content came from: "embedded" or the directory.
func (s *Site) Source() string { return s.source }

// Load reads the content from dir, or the embedded defaults when dir is
// empty (TRIBE_CONTENT_DIR unset).
func Load(dir string) (*Site, error) {
	if dir == "" {
		site, err := LoadFS(contentfiles.FS(), "content")
		if site != nil {
			site.source = "embedded"
		}
		return site, err
	}
	return LoadFS(os.DirFS(dir), dir)
}

// LoadFS reads and checks every content file in fsys. label prefixes file
// names in errors so they point at the file the owner has to edit. The error,
// if any, is a Problems value listing everything wrong, not just the first.
func LoadFS(fsys fs.FS, label string) (*Site, error) {
	s := &Site{raw: map[string][]byte{}, source: label}
	var probs Problems
	checks := []struct {
		name  string
		v     any
		check func(c *checker, raw []byte)
	}{
		{AboutFile, &s.About, func(c *checker, _ []byte) { checkAbout(c, &s.About) }},
		{ServicesFile, &s.Services, func(c *checker, raw []byte) { checkServices(c, &s.Services, raw) }},
		{ProjectsFile, &s.Projects, func(c *checker, _ []byte) { checkProjects(c, &s.Projects) }},
		{StackFile, &s.Stack, func(c *checker, _ []byte) { checkStack(c, &s.Stack) }},
		{ContactFile, &s.Contact, func(c *checker, _ []byte) { checkContact(c, &s.Contact) }},
		{ResourcesFile, &s.Resources, func(c *checker, _ []byte) { checkResources(c, &s.Resources) }},
	}
	for _, f := range checks {
		file := filepath.Join(label, filepath.FromSlash(f.name))
		b, err := fs.ReadFile(fsys, f.name)
		if err != nil {
			probs = append(probs, Problem{File: file, Message: "cannot read the file (" + unwrapPathError(err).Error() + ")"})
			continue
		}
		if err := json.Unmarshal(b, f.v); err != nil {
			probs = append(probs, jsonProblem(file, b, err))
			continue
		}
		s.raw[f.name] = b
		c := &checker{file: file}
		f.check(c, b)
		probs = append(probs, c.problems...)
	}
	if len(probs) > 0 {
		return nil, probs
	}
	s.Index = buildIndex(s)
	if err := s.encodeIndex(); err != nil {
		return nil, err
	}
	return s, nil
}

// Problem is one thing wrong in a content file. Field is a JSON path such as
// sessions[1].price, or a line and column for invalid JSON, or empty when
// the problem is the whole file.
type Problem struct {
	File    string
	Field   string
	Message string
}

func (p Problem) Error() string {
	if p.Field == "" {
		return p.File + ": " + p.Message
	}
	return p.File + ": " + p.Field + ": " + p.Message
}

// Problems is every problem found while loading; its message is one line so
// the server can stop at start with a single readable line.
type Problems []Problem

func (ps Problems) Error() string {
	const shown = 3
	parts := make([]string, 0, shown+1)
	for i, p := range ps {
		if i == shown {
			parts = append(parts, fmt.Sprintf("and %d more", len(ps)-shown))
			break
		}
		parts = append(parts, p.Error())
	}
	return strings.Join(parts, "; ")
}

// jsonProblem turns a decoding error into a Problem that names the field or
// the place in the file, in words an owner editing JSON by hand understands.
func jsonProblem(file string, b []byte, err error) Problem {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		// Offset counts the offending byte; the column should point at it.
		line, col := position(b, max(syn.Offset-1, 0))
		return Problem{File: file, Field: fmt.Sprintf("line %d, column %d", line, col), Message: "invalid JSON: " + syn.Error()}
	case errors.As(err, &typ):
		if typ.Field == "" {
			return Problem{File: file, Message: "must hold a JSON object, not " + typ.Value}
		}
		field := pathAt(b, typ.Offset)
		if field == "" {
			field = typ.Field // without list indexes, but still names the field
		}
		return Problem{File: file, Field: field, Message: "must be " + kindName(typ.Type) + ", not " + typ.Value}
	default:
		return Problem{File: file, Message: "invalid JSON: " + err.Error()}
	}
}

// pathAt returns the JSON path (sessions[1].price) of the value that ends,
// or the container that opens, at offset. encoding/json reports type errors
// with a dotted path that drops list indexes, and "sessions.price" does not
// say which of three sessions is wrong.
func pathAt(b []byte, offset int64) string {
	type frame struct {
		array bool
		index int
		key   string
	}
	var stack []frame
	path := func() string {
		var sb strings.Builder
		for _, f := range stack {
			if f.array {
				fmt.Fprintf(&sb, "[%d]", f.index)
			} else {
				if sb.Len() > 0 {
					sb.WriteByte('.')
				}
				sb.WriteString(f.key)
			}
		}
		return sb.String()
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			expectKey = len(stack) > 0 && !stack[len(stack)-1].array
			continue
		}
		if expectKey {
			stack[len(stack)-1].key, _ = tok.(string)
			expectKey = false
			continue
		}
		// tok starts a value: advance the enclosing list's index.
		if n := len(stack); n > 0 && stack[n-1].array {
			stack[n-1].index++
		}
		if dec.InputOffset() >= offset {
			return path()
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{})
			expectKey = true
		case json.Delim('['):
			stack = append(stack, frame{array: true, index: -1})
		default:
			expectKey = len(stack) > 0 && !stack[len(stack)-1].array
		}
	}
}

// position converts a byte offset into a 1-based line and column.
func position(b []byte, offset int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < offset && i < int64(len(b)); i++ {
		if b[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	default:
		return "an object"
	}
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// SetTribeCapacity makes the tribe's member cap read n everywhere the content
// shows it: the parsed value, the published services.json and the search
// index. TRIBE_CAPACITY is the one source of the cap; the content file's
// number is only its default display, so the pages never promise a cap the
// server does not enforce.
func (s *Site) SetTribeCapacity(n int) error {
	if n < 1 {
		return fmt.Errorf("tribe capacity %d: must be a positive whole number", n)
	}
	if s.Services.Tribe.Capacity == n {
		return nil
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(s.raw[ServicesFile], &doc); err != nil {
		return fmt.Errorf("set tribe capacity: read %s: %w", ServicesFile, err)
	}
	var tribe map[string]json.RawMessage
	if err := json.Unmarshal(doc["tribe"], &tribe); err != nil {
		return fmt.Errorf("set tribe capacity: read %s tribe: %w", ServicesFile, err)
	}
	tribe["capacity"] = json.RawMessage(strconv.Itoa(n))
	var err error
	if doc["tribe"], err = json.Marshal(tribe); err != nil {
		return fmt.Errorf("set tribe capacity: %w", err)
	}
	raw, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("set tribe capacity: %w", err)
	}
	s.raw[ServicesFile] = append(raw, '\n')
	s.Services.Tribe.Capacity = n
	s.Index = buildIndex(s)
	return s.encodeIndex()
}

// encodeIndex encodes the search index once, as published.
func (s *Site) encodeIndex() error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s.Index); err != nil {
		return fmt.Errorf("encode search index: %w", err)
	}
	s.indexJSON = b.Bytes()
	return nil
}
