package agent

import (
	"fmt"
	"strings"
)

// maxOfflineExcerpt bounds each passage quoted in an offline answer.
const maxOfflineExcerpt = 700

// OfflineLabel starts every offline answer, so nobody mistakes one for a
// language model's.
const OfflineLabel = "Offline answer: no language model is configured on this site, so this reply is composed from the knowledge base."

// offline answers without a language model: it quotes the passages the
// search found, with their titles and sources, in the same stream of
// content events a model's answer would use. It never pretends to be more.
func (a *Agent) offline(query string, passages []Passage, send Emit) error {
	if len(passages) == 0 {
		return send(Event{Content: fmt.Sprintf("%s\n\nThe knowledge base has nothing that matches “%s”. Try other words, "+
			"or ask rUv directly: book a session at %s/booking or write to %s.",
			OfflineLabel, clip(query, 120), a.site.BaseURL, a.site.Site.Contact.Email)})
	}
	found := "this passage"
	if len(passages) > 1 {
		found = fmt.Sprintf("these %d passages", len(passages))
	}
	if err := send(Event{Content: fmt.Sprintf("%s\n\nThe search for “%s” found %s:", OfflineLabel, clip(query, 120), found)}); err != nil {
		return err
	}
	for i, p := range passages {
		text := fmt.Sprintf("\n\n**%d. %s** (source: %s)\n%s", i+1, p.Title, sourceLabel(p.Source, a.site.BaseURL),
			clip(p.Content, maxOfflineExcerpt))
		if err := send(Event{Content: text}); err != nil {
			return err
		}
	}
	return send(Event{Content: fmt.Sprintf("\n\nFor anything these passages do not answer, book a session at %s/booking or write to %s.",
		a.site.BaseURL, a.site.Site.Contact.Email)})
}

// sourceLabel says where a passage came from: a page or file of the site as
// a link, or a document the owner wrote.
func sourceLabel(source, baseURL string) string {
	switch {
	case source == "" || source == "manual":
		return "a knowledge-base document"
	case strings.HasPrefix(source, "/"):
		return baseURL + source
	default:
		return source
	}
}
