package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	contentfiles "tribe/content"
	"tribe/internal/content"
)

// contentScriptID is the element the web app reads overriding content from
// (web/src/content).
const contentScriptID = "tribe-content"

// ownerContent returns every public content file as one JSON object keyed
// by name without ".json", or nil when the content is the one the web app
// was built with (the usual case: nothing to add or render). Embedded
// content differs from the build only when TRIBE_CAPACITY changed the
// tribe's cap (content.Site.SetTribeCapacity).
func ownerContent(site *content.Site) ([]byte, error) {
	doc := map[string]json.RawMessage{}
	differs := false
	for _, name := range content.PublicFiles() {
		raw, ok := site.Raw(name)
		if !ok {
			return nil, fmt.Errorf("content file %s was not loaded", name)
		}
		built, err := fs.ReadFile(contentfiles.FS(), name)
		if err != nil {
			return nil, fmt.Errorf("read built-in %s: %w", name, err)
		}
		if !bytes.Equal(raw, built) {
			differs = true
		}
		doc[strings.TrimSuffix(name, ".json")] = raw
	}
	if !differs {
		return nil, nil
	}
	// json.Marshal escapes <, > and & inside the raw messages too, so no
	// "</script>" in the owner's text can end the element early.
	body, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("encode content for pages: %w", err)
	}
	return body, nil
}

// contentOverride returns the <script type="application/json"> element
// that carries the owner's content (ownerContent) into a page, or nil for
// no content. rendered says that the page's HTML was rendered from that
// content (renderOwnerContent), so the app hydrates it; without it the app
// renders afresh over the build's text.
func contentOverride(doc []byte, rendered bool) []byte {
	if doc == nil {
		return nil
	}
	var b bytes.Buffer
	b.WriteString(`<script id="` + contentScriptID + `" type="application/json"`)
	if rendered {
		b.WriteString(` data-rendered`)
	}
	b.WriteString(`>`)
	b.Write(doc)
	b.WriteString(`</script>`)
	return b.Bytes()
}
