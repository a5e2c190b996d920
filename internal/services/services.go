// Package services builds the domain services the program runs on, once per
// process, from the configuration. It is the one place this wiring is
// written: `tribe serve` and the other subcommands call New, and so do the
// HTTP tests, so they exercise the production wiring.
package services

import (
	"log/slog"

	"tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/community"
	"tribe/internal/config"
	"tribe/internal/events"
	"tribe/internal/kb"
	"tribe/internal/store"
)

// Set holds one of each service. Every field is set by New; the HTTP
// handler (web.Options) takes the whole set and builds none of them itself.
type Set struct {
	// Hub carries live updates: the HTTP streams and the knowledge base's
	// worker share it, and on PostgreSQL it links the instances.
	Hub *events.Hub
	// KB is the knowledge base: full-text search, plus vectors when an
	// embedding model is configured. The HTTP routes, the AI tools, the MCP
	// server and the embeddings worker share its in-memory vector index.
	KB *kb.Service
	// Billing is paid membership; online payment is on when the Stripe
	// settings are.
	Billing *billing.Service
	// Auth is accounts and sessions, with its bound on concurrent password
	// hashing.
	Auth *auth.Service
	// Avatars renders uploaded avatars with a bounded number of decoders and
	// holds each account's upload allowance.
	Avatars *community.Avatars
}

// New builds every service over db as cfg describes. Nothing connects or
// starts here: the hub listens on PostgreSQL only while someone subscribes,
// and the knowledge base's worker runs when the caller starts it.
func New(cfg *config.Config, db *store.DB, logger *slog.Logger) *Set {
	hub := events.New(db, logger)
	bill := billing.New(db, cfg, billing.WithLogger(logger))
	avatars := community.NewAvatars(community.AvatarDir(cfg.DataDir), community.DefaultAvatarDecodes)
	return &Set{
		Hub:     hub,
		KB:      newKnowledgeBase(cfg, db, hub, logger),
		Billing: bill,
		Auth: auth.New(db, auth.Config{
			BaseURL:     cfg.BaseURL,
			AdminEmails: cfg.AdminEmails,
			AdminDomain: cfg.AdminDomain,
		},
			// When the owner of an address takes over an account someone
			// else made with it, what that person left goes with the reset.
			auth.WithTakeover(community.ClearSquatter(avatars.Dir()), bill.ReleaseOnTakeover)),
		Avatars: avatars,
	}
}

// Close ends the hub's streams and its PostgreSQL listener.
func (s *Set) Close() { s.Hub.Close() }

// newKnowledgeBase builds the knowledge base the configuration describes:
// full-text search, plus vector similarity when AI_BASE_URL and
// AI_EMBEDDING_MODEL are set.
func newKnowledgeBase(cfg *config.Config, db *store.DB, hub *events.Hub, logger *slog.Logger) *kb.Service {
	o := kb.Options{Hub: hub, Logger: logger}
	if cfg.EmbeddingsEnabled() {
		o.Embedder = kb.NewOpenAIEmbedder(cfg.AIBaseURL, cfg.AIAPIKey, cfg.AIEmbeddingModel, nil)
	}
	return kb.New(db, o)
}
