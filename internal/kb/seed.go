package kb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"reflect"
	"strings"

	"tribe/internal/content"
	"tribe/internal/plural"
	"tribe/internal/store"
)

// Categories of seeded documents: one per content file, and community for
// the tribe's facts.
const (
	CategoryAbout     = "about"
	CategoryServices  = "services"
	CategoryProjects  = "projects"
	CategoryStack     = "stack"
	CategoryContact   = "contact"
	CategoryCommunity = "community"
)

// seedVersion changes when the way seeded documents are built or chunked
// changes, so the next start re-seeds even though the content did not.
const seedVersion = "kb-seed-1"

// SeedDoc is one document built from the content files. Key names its
// origin and stays the same across re-seeds, so a changed fact replaces its
// document instead of adding another.
type SeedDoc struct {
	Key      string
	Content  string
	Metadata Metadata
}

// FromContent builds the seeded documents from the loaded content: every
// entry of the site's search index (about, services, projects, stack,
// contact) and the tribe's facts as community documents, with capacity the
// configured member cap (TRIBE_CAPACITY) rather than the content file's.
func FromContent(site *content.Site, capacity int) []SeedDoc {
	var docs []SeedDoc
	keys := map[string]int{}
	add := func(category, typ, source, title, text string, tags []string) {
		key := category + "/" + slug(title)
		if keys[key]++; keys[key] > 1 {
			key += fmt.Sprintf("-%d", keys[key])
		}
		docs = append(docs, SeedDoc{Key: key, Content: strings.TrimSpace(text), Metadata: Metadata{
			Title: title, Category: category, Type: typ, Source: source, Tags: append([]string{}, tags...),
		}})
	}
	tribe := site.Services.Tribe
	for _, it := range site.Index.Items {
		category := strings.TrimSuffix(path.Base(it.URI), ".json")
		if category == CategoryServices && it.Title == tribe.Name {
			continue // the community documents below say it, with the configured cap
		}
		typ := category
		if len(it.Tags) > 0 {
			typ = it.Tags[0]
		}
		add(category, typ, it.URI, it.Title, it.Text, it.Tags)
	}
	for _, d := range communityDocs(site, capacity) {
		add(CategoryCommunity, d.typ, "/tribe", d.title, d.text, d.tags)
	}
	return docs
}

// allPlaces names every place of the tribe: "all 50 places are", "the 1 place is".
func allPlaces(capacity int) string {
	if capacity == 1 {
		return "the 1 place is"
	}
	return "all " + plural.Count(capacity, "place", "places") + " are"
}

type communityDoc struct {
	title, typ, text string
	tags             []string
}

// communityDocs are the tribe's facts: price, cap, cadence, what members get
// and build, how it works and the levels of the progression dialog.
func communityDocs(site *content.Site, capacity int) []communityDoc {
	t := site.Services.Tribe
	price := content.FormatPrice(t.PriceMonthly, t.Currency)
	name := t.Name
	if name == "" {
		name = "The Tribe"
	}
	list := func(items []string) string { return strings.Join(items, "; ") }
	return []communityDoc{
		{
			title: name + ": membership, price and capacity",
			typ:   "membership",
			text: fmt.Sprintf("%s is the paid community of %s. %s\n\n"+
				"Membership costs %s per month. %s. Members meet in %s live group sessions of %s with %s, "+
				"work in cohorts of about %s builders, and the tribe is capped at %s so that every member gets attention. "+
				"When %s taken the Tribe page shows At Capacity, and you can join the wait list there: "+
				"you get a confirmation e-mail and are told when a spot opens.",
				name, site.About.Handle, t.Summary, price, strings.TrimSuffix(t.Billing, "."), t.SessionCadence, t.SessionLength,
				site.About.Handle, t.CohortSize, plural.Count(capacity, "member", "members"), allPlaces(capacity)),
			tags: []string{"tribe", "community", "membership", "pricing", "capacity"},
		},
		{
			title: "What tribe members get",
			typ:   "benefits",
			text: fmt.Sprintf("Tribe members get: %s.\n\n"+
				"In the members area every member sees the live-session schedule (upcoming and archive, in the session's time zone and their own), "+
				"can add sessions to a calendar, create or join a cohort of up to 5 members, and keep a profile. "+
				"Active subscribers also get the Join Session button with the meeting details and the invitation to the members' group chat.",
				list(t.Features)),
			tags: []string{"tribe", "community", "benefits", "members area", "sessions", "cohorts"},
		},
		{
			title: "What you will build in the tribe",
			typ:   "curriculum",
			text:  fmt.Sprintf("In the tribe you build real agentic AI projects: %s.", list(t.WhatYouWillBuild)),
			tags:  []string{"tribe", "community", "projects", "agents", "build"},
		},
		{
			title: "How the tribe works",
			typ:   "how it works",
			text: fmt.Sprintf("How the tribe works, in three steps.\n\n"+
				"1. Find your tribe: join a cohort of about %s builders who work on similar problems, or start one.\n\n"+
				"2. Meet and build together: %s live sessions of %s with %s, with code reviews and architecture feedback.\n\n"+
				"3. Ship and iterate: take what you build to production and bring the results back to the group.\n\n"+
				"To join, open the Tribe page (/tribe): Join Wait List while the tribe is full, or sign in with Login. "+
				"Members sign in at /auth and find everything in the members area at /members. "+
				"The membership is %s per month and can be cancelled anytime.",
				t.CohortSize, t.SessionCadence, t.SessionLength, site.About.Handle, price),
			tags: []string{"tribe", "community", "how it works", "join", "wait list", "cohort"},
		},
		{
			title: "Tribal levels",
			typ:   "progression",
			text: "Tribe members progress through five tribal levels. Apprentice: join the tribe (every member starts here). " +
				"Contributor: attend 3 sessions and make 1 contribution. Builder: attend 8 sessions and share 3 projects. " +
				"Expert: attend 15 sessions, share 5 projects and mentor 2 members. " +
				"Master: attend 25 sessions, share 10 projects and lead a workshop.",
			tags: []string{"tribe", "community", "levels", "progression"},
		},
	}
}

// slug turns a title into a stable key part: "Deep Dive (30 minutes)"
// becomes "deep-dive-30-minutes".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if isWordRune(r) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// seedHash identifies a set of seeded documents (and the way they are built).
func seedHash(docs []SeedDoc) string {
	h := sha256.New()
	_, _ = h.Write([]byte(seedVersion))
	enc := json.NewEncoder(h)
	for _, d := range docs {
		_ = enc.Encode([]any{d.Key, d.Content, d.Metadata})
	}
	return hex.EncodeToString(h.Sum(nil))
}

const seedHashKey = "seed_hash"

// Seed makes the seeded documents exactly docs, in one transaction: a new
// key adds a document, a changed one is rewritten (and re-chunked), an
// unchanged one is left alone (keeping its vectors), and a seeded document
// whose key is gone is removed. Documents written by admins are never
// touched. Seeding twice gives the same documents.
func (s *Service) Seed(ctx context.Context, docs []SeedDoc) (SeedResult, error) {
	return s.seed(ctx, docs, false)
}

// SeedIfChanged seeds only when docs differ from what was last seeded (the
// stored hash), as serve does at start; changed reports whether it did.
func (s *Service) SeedIfChanged(ctx context.Context, docs []SeedDoc) (res SeedResult, changed bool, err error) {
	var stored string
	err = s.db.Read.QueryRowContext(ctx, `SELECT value FROM kb_meta WHERE key = $1`, seedHashKey).Scan(&stored)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return SeedResult{}, false, fmt.Errorf("read seed hash: %w", err)
	}
	if stored == seedHash(docs) {
		return summarize(docs), false, nil
	}
	res, err = s.seed(ctx, docs, true)
	return res, err == nil, err
}

// seed runs Seed; onlyIfChanged re-checks the hash under the lock, so two
// instances starting together seed once.
func (s *Service) seed(ctx context.Context, docs []SeedDoc, onlyIfChanged bool) (SeedResult, error) {
	for _, d := range docs {
		if d.Key == "" || strings.TrimSpace(d.Content) == "" || d.Metadata.Title == "" || !storable(d.Content) {
			return SeedResult{}, fmt.Errorf("seed document %q: key, title and content are required", d.Key)
		}
	}
	hash := seedHash(docs)
	var added, updated, removed int
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if s.db.Dialect == store.Postgres {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tribe.kb.seed:' || current_schema()))`); err != nil {
				return fmt.Errorf("lock seeding: %w", err)
			}
		}
		if onlyIfChanged {
			var stored string
			err := tx.QueryRowContext(ctx, `SELECT value FROM kb_meta WHERE key = $1`, seedHashKey).Scan(&stored)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("read seed hash: %w", err)
			}
			if stored == hash {
				return nil
			}
		}
		type existing struct {
			id, content string
			md          Metadata
		}
		have := map[string]existing{}
		rows, err := tx.QueryContext(ctx, `SELECT id, seed_key, content, metadata FROM documents WHERE seed_key IS NOT NULL`)
		if err != nil {
			return fmt.Errorf("read seeded documents: %w", err)
		}
		for rows.Next() {
			var (
				e    existing
				key  string
				meta []byte
			)
			if err := rows.Scan(&e.id, &key, &e.content, &meta); err != nil {
				_ = rows.Close()
				return fmt.Errorf("read seeded documents: %w", err)
			}
			e.md = decodeMetadata(meta)
			have[key] = e
		}
		_ = rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("read seeded documents: %w", err)
		}
		now := store.Now()
		for _, d := range docs {
			md := d.Metadata
			if md.Tags == nil {
				md.Tags = []string{}
			}
			e, ok := have[d.Key]
			delete(have, d.Key)
			switch {
			case !ok:
				if err := insertDocument(ctx, s.db.Dialect, tx, store.NewID(), d.Key, d.Content, md, now); err != nil {
					return err
				}
				added++
			case e.content != d.Content || !reflect.DeepEqual(e.md, md):
				if err := updateDocument(ctx, s.db.Dialect, tx, e.id, d.Content, md, now); err != nil {
					return err
				}
				updated++
			}
		}
		for _, e := range have {
			if _, err := tx.ExecContext(ctx, `DELETE FROM documents WHERE id = $1`, e.id); err != nil {
				return fmt.Errorf("remove seeded document: %w", err)
			}
			removed++
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO kb_meta (key, value) VALUES ($1, $2)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, seedHashKey, hash); err != nil {
			return fmt.Errorf("store seed hash: %w", err)
		}
		return nil
	})
	if err != nil {
		return SeedResult{}, fmt.Errorf("seed knowledge base: %w", err)
	}
	if added+updated+removed > 0 {
		s.logger.Info("knowledge base seeded", "documents", len(docs), "added", added, "updated", updated, "removed", removed)
		s.changed(ctx)
	}
	return summarize(docs), nil
}

// summarize counts docs per category.
func summarize(docs []SeedDoc) SeedResult {
	r := SeedResult{Count: len(docs)}
	for _, d := range docs {
		switch d.Metadata.Category {
		case CategoryAbout:
			r.Breakdown.About++
		case CategoryServices:
			r.Breakdown.Services++
		case CategoryProjects:
			r.Breakdown.Projects++
		case CategoryStack:
			r.Breakdown.Stack++
		case CategoryContact:
			r.Breakdown.Contact++
		case CategoryCommunity:
			r.Breakdown.Community++
		}
	}
	r.Message = "Seeded " + plural.Count(r.Count, "document", "documents") + " to knowledge base"
	return r
}
