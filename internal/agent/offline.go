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

// OfflineGoalNotice follows OfflineLabel in an offline goal answer: a plan
// is something only a language model can write, so none is faked.
const OfflineGoalNotice = "Writing a step-by-step plan for a goal needs a language model, and none is configured here, so there is no plan below."

// offlineGoal answers a goal (PurposeGoal) without a language model: it says
// plainly that planning needs one, lists the knowledge-base passages the
// search found as resources, and offers the one-to-one sessions, where the
// plan can be made together, with their prices and booking links from the
// content files.
func (a *Agent) offlineGoal(passages []Passage, send Emit) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s", OfflineLabel, OfflineGoalNotice)
	if len(passages) > 0 {
		b.WriteString("\n\nThe knowledge base has these resources for your goal:\n")
		for _, p := range passages {
			fmt.Fprintf(&b, "\n- **%s** (%s)", p.Title, sourceLabel(p.Source, a.site.BaseURL))
		}
	}
	sv := a.site.services()
	if len(sv.Sessions) > 0 {
		fmt.Fprintf(&b, "\n\nTo plan it together with %s, book a one-to-one session:\n", a.site.Site.About.Handle)
		for _, s := range sv.Sessions {
			link := s.BookingLink
			if link == "" {
				link = sv.BookingPage
			}
			fmt.Fprintf(&b, "\n- **%s** (%s, %s): %s Book: %s", s.Name, s.Duration, s.PriceText, strings.TrimSpace(s.Description), link)
		}
	}
	fmt.Fprintf(&b, "\n\nAll sessions are on %s, or write to %s.", sv.BookingPage, a.site.Site.Contact.Email)
	return send(Event{Content: b.String()})
}
