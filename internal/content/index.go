package content

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"tribe/internal/plural"
)

// SearchIndex is the document served at /mcp/search-index.json. It is
// derived from the loaded files at start rather than kept as a file, so a
// price or a project changed in the content can never be stale in search.
type SearchIndex struct {
	Items []SearchItem `json:"items"`
}

// SearchItem is one searchable piece of content. URI is the resource that
// holds it, so a client can read the full record with resources/read.
type SearchItem struct {
	URI   string   `json:"uri"`
	Title string   `json:"title"`
	Text  string   `json:"text"`
	Tags  []string `json:"tags"`
}

// FormatPrice renders an amount the way the site shows prices: "$3,000",
// "$149.50", or "1,200 EUR" for currencies other than USD.
func FormatPrice(amount float64, currency string) string {
	cents := int64(math.Round(amount * 100))
	whole := strconv.FormatInt(cents/100, 10)
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac := cents % 100; frac != 0 {
		fmt.Fprintf(&b, ".%02d", frac)
	}
	if currency == "" || currency == "USD" {
		return "$" + b.String()
	}
	return b.String() + " " + currency
}

func buildIndex(s *Site) SearchIndex {
	var items []SearchItem
	add := func(file, title, text string, tags ...string) {
		items = append(items, SearchItem{URI: ContentPrefix + file, Title: title, Text: text, Tags: normalizeTags(tags)})
	}

	a := s.About
	add(AboutFile, "About "+a.Handle, strings.TrimSpace(sentence(a.Name+" ("+a.Handle+"), "+a.Title)+" "+a.Summary+" "+a.Approach),
		"about", "bio", "profile", "consultant", "coaching")
	add(AboutFile, "Expertise", "Areas of expertise: "+strings.Join(a.Expertise, "; ")+".",
		"expertise", "skills", "about")
	var pact []string
	for _, p := range a.PACT.Principles {
		pact = append(pact, p.Name+": "+p.Meaning)
	}
	add(AboutFile, "PACT: what agentics means", a.PACT.Summary+" "+strings.Join(pact, " "),
		"pact", "agentics", "philosophy", "methodology")
	var philosophy []string
	for _, p := range a.Philosophy {
		philosophy = append(philosophy, sentence(p.Title)+" "+p.Description)
	}
	add(AboutFile, "Philosophy", strings.Join(philosophy, " "), "philosophy", "principles", "about")
	var clients []string
	for _, c := range a.Clients {
		clients = append(clients, c.Name)
	}
	add(AboutFile, "Clients and institutions", strings.TrimSpace("Clients and institutions: "+strings.Join(clients, ", ")+". "+a.ClientsNote),
		"clients", "experience", "enterprise")
	add(AboutFile, "Biography", strings.Join(a.Biography, " "), "biography", "history", "about")

	sv := s.Services
	for _, se := range sv.Sessions {
		text := fmt.Sprintf("%s: a %d-minute one-to-one session for %s.", se.Name, se.Duration, FormatPrice(se.Price, sv.Currency))
		if se.Popular {
			text += " Most popular."
		}
		text += " " + se.Description + " Includes: " + strings.Join(se.Features, "; ") + "."
		// The index has no base URL; a path on this site reads as one.
		if at := se.BookAt(""); at != "" {
			text += " Book at " + at + "."
		}
		add(ServicesFile, fmt.Sprintf("%s (%d minutes)", se.Name, se.Duration), text,
			"session", "booking", "pricing", "services", fmt.Sprintf("%d min", se.Duration))
	}
	for _, t := range sv.Training {
		text := t.Title
		if t.Subtitle != "" {
			text += " (" + t.Subtitle + ")"
		}
		text += ": " + FormatPrice(t.Price, sv.Currency)
		if t.OriginalPrice > 0 {
			text += " (was " + FormatPrice(t.OriginalPrice, sv.Currency) + ")"
		}
		text += ", " + t.Duration + ", " + t.Capacity + "."
		if t.IsLimitedTime {
			text += " Limited-time offer."
		}
		text += " Includes: " + strings.Join(t.Features, "; ") + "."
		add(ServicesFile, "Neural Trader "+t.Title, text, "neural trader", "training", "trading", "pricing", t.ID)
	}
	nt := sv.NeuralTrader
	add(ServicesFile, "Neural Trader training", strings.TrimSpace(nt.Description+" Every option includes: "+
		strings.Join(nt.IncludedBenefits, "; ")+". "+nt.BookingInfo),
		"neural trader", "training", "trading", "booking")
	tr := sv.Tribe
	tribeText := strings.TrimSpace(sentence(tr.Name+": "+tr.Summary) + " Membership: " + FormatPrice(tr.PriceMonthly, tr.Currency) +
		" per month. " + sentence(tr.Billing))
	tribeText += fmt.Sprintf(" %s live sessions of %s in cohorts of %s, capped at %s.",
		capitalize(tr.SessionCadence), tr.SessionLength, tr.CohortSize, plural.Count(tr.Capacity, "member", "members"))
	if len(tr.Features) > 0 {
		tribeText += " Includes: " + strings.Join(tr.Features, "; ") + "."
	}
	if len(tr.WhatYouWillBuild) > 0 {
		tribeText += " What you will build: " + strings.Join(tr.WhatYouWillBuild, "; ") + "."
	}
	add(ServicesFile, tr.Name, tribeText, "tribe", "community", "membership", "cohort", "pricing")
	var steps []string
	for i, st := range sv.HowItWorks {
		steps = append(steps, fmt.Sprintf("%d. %s: %s", i+1, st.Title, st.Description))
	}
	add(ServicesFile, "How booking works", strings.Join(steps, " "), "booking", "how it works")
	for _, q := range sv.FAQ {
		add(ServicesFile, q.Question, q.Answer, "faq", "booking")
	}

	p := s.Projects
	for _, list := range []struct {
		projects []Project
		tag      string
	}{{p.Featured, "featured"}, {p.Projects, ""}} {
		for _, pr := range list.projects {
			text := pr.Name + ": " + pr.Description + " " + pr.URL
			if pr.Page != "" {
				text += " (showcase page: " + pr.Page + ")"
			}
			tags := append([]string{"project", pr.ID, list.tag}, pr.Tags...)
			add(ProjectsFile, pr.Name, text, tags...)
		}
	}
	add(ProjectsFile, "Open-source repositories",
		fmt.Sprintf("%s repositories on GitHub at %s.", p.Stats.TotalRepositoriesDisplay, p.Stats.GitHubURL),
		"github", "repositories", "open source", "projects")

	for _, cat := range s.Stack.Categories {
		var tools []string
		for _, t := range cat.Tools {
			if t.Description != "" {
				tools = append(tools, t.Name+" ("+t.Description+")")
			} else {
				tools = append(tools, t.Name)
			}
		}
		add(StackFile, "Stack: "+cat.Name, strings.TrimSpace(cat.Description+" "+strings.Join(tools, "; ")+"."),
			"stack", "tools", "tech", cat.ID)
	}

	ct := s.Contact
	l := ct.OnlinePresence.Links
	links := []string{"LinkedIn " + l.LinkedIn, "GitHub " + l.GitHub}
	if l.YouTube != "" {
		links = append(links, "YouTube "+l.YouTube)
	}
	if l.X != "" {
		links = append(links, "X "+l.X)
	}
	add(ContactFile, "Contact", strings.TrimSpace(ct.Message+" E-mail "+ct.Email+". Book a session at "+ct.BookingURL+". "+
		strings.Join(links, ", ")+"."), "contact", "email", "linkedin", "github", "social")
	return SearchIndex{Items: items}
}

// normalizeTags lower-cases tags and drops blanks and repeats, so clients
// can match tags without normalising them again.
func normalizeTags(tags []string) []string {
	out := make([]string, 0, len(tags))
	seen := map[string]bool{}
	for _, t := range tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// sentence ends s with a full stop unless it already ends a sentence.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
