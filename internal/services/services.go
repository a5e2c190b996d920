// Package services builds the domain services the program runs on, once per
// process, from the configuration. It is the one place this wiring is
// written: `tribe serve` and the other subcommands call New, and so do the
// HTTP tests, so they exercise the production wiring.
package services

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"tribe/internal/access"
	"tribe/internal/agent"
	"tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/booking"
	"tribe/internal/clock"
	"tribe/internal/community"
	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/events"
	"tribe/internal/forum"
	"tribe/internal/gaps"
	"tribe/internal/inbox"
	"tribe/internal/inquiries"
	"tribe/internal/kb"
	"tribe/internal/levels"
	"tribe/internal/library"
	"tribe/internal/notify"
	"tribe/internal/oauth"
	"tribe/internal/push"
	"tribe/internal/ratelimit"
	"tribe/internal/storage"
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
	// Files is where the uploaded files are kept: the data directory, or
	// the S3-compatible bucket of TRIBE_STORAGE_URL, shared by the
	// instances.
	Files storage.Store
	// Avatars renders uploaded avatars with a bounded number of decoders and
	// holds each account's upload allowance.
	Avatars *community.Avatars
	// Booking is calls booked on the site: its payments go through Billing's
	// Stripe client, and Billing hands it their webhook events.
	Booking *booking.Service
	// Inquiries is the enterprise inquiry form's store and mail; the owner
	// it mails is booking's.
	Inquiries *inquiries.Service
	// Levels counts each member's progress from the rows and keeps the
	// awards that count towards it.
	Levels *levels.Service
	// Gaps keeps the questions the knowledge base answered weakly (the AI
	// tools' search records them; the admins read them; a worker sweeps
	// them after 90 days).
	Gaps *gaps.Service
	// Notify keeps members' mail settings and plans their reminders,
	// digests and congratulations; it also records when they were last seen.
	Notify *notify.Service
	// Forum is the community's threads and replies. It tells members what
	// happened through the notification centre (forumNotices).
	Forum *forum.Service
	// Push keeps the site's VAPID keys and members' browsers, and sends
	// Web Push.
	Push *push.Service
	// Inbox is the notification centre: what other services have to tell
	// a member lands there, live, and on their devices or by mail as they
	// chose; its worker drains the push outbox.
	Inbox *inbox.Service
	// Library is the members' recordings, materials, lessons and links,
	// with progress, resumable uploads into Files and transcripts indexed
	// in KB.
	Library *library.Service
	// OAuth is the authorization server of the MCP endpoint: members'
	// assistants, their grants and tokens.
	OAuth *oauth.Service
	// Clock is the time of the members area's rules that hang on it (RSVPs
	// close at the start, a join counts from 15 minutes before): time.Now,
	// or a test's clock given with WithClock. Handlers that pass the time to
	// a domain function read it here.
	Clock clock.Clock
}

// Option changes how New builds the set.
type Option func(*options)

type options struct{ now clock.Clock }

// WithClock sets the clock of the members area's rules (tests).
func WithClock(c clock.Clock) Option { return func(o *options) { o.now = c } }

// New builds every service over db as cfg describes, with the bookable
// types of site. Nothing connects or
// starts here: the hub listens on PostgreSQL only while someone subscribes,
// and the knowledge base's worker runs when the caller starts it.
func New(cfg *config.Config, db *store.DB, site *content.Site, logger *slog.Logger, opts ...Option) *Set {
	o := options{now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	hub := events.New(db, logger, events.WithClock(o.now))
	bill := billing.New(db, cfg, billing.WithLogger(logger))
	files := NewFiles(cfg)
	avatars := community.NewAvatars(files, community.DefaultAvatarDecodes, ratelimit.Shared(db, "avatar-uploads"))
	kbs := newKnowledgeBase(cfg, db, hub, logger)
	bk := newBooking(cfg, db, site, hub, bill, kbs, logger)
	owner := func(ctx context.Context) (string, string, error) {
		st, err := bk.LoadSettings(ctx)
		return st.OwnerName, st.OwnerEmail, err
	}
	lv := levels.New(db, levels.WithClock(o.now))
	au := auth.New(db, auth.Config{
		BaseURL:     cfg.BaseURL,
		AdminEmails: cfg.AdminEmails,
		AdminDomain: cfg.AdminDomain,
	},
		// When the owner of an address takes over an account someone
		// else made with it, what that person left goes with the reset.
		auth.WithTakeover(community.ClearSquatter(files), bill.ReleaseOnTakeover))
	isAdmin := func(ctx context.Context, id string) (bool, error) {
		u, err := au.User(ctx, id)
		return u != nil && u.IsAdmin, err
	}
	nt := notify.New(db, lv, cfg.BaseURL, notify.WithClock(o.now), notify.WithLogger(logger))
	ps := push.New(db, push.Options{AllowPrivate: cfg.PushAllowPrivate, Contact: pushContact(cfg), Clock: o.now, Logger: logger})
	in := inbox.New(db, inbox.Options{Hub: hub, Push: ps, Mailer: nt, BaseURL: cfg.BaseURL, Clock: o.now, Logger: logger})
	nt.SetInApp(func(ctx context.Context, userID, kind, title, body, link string) error {
		return in.Notify(ctx, []inbox.Notice{{MemberID: userID, Kind: kind, Title: title, Body: body, Link: link}})
	})
	return &Set{
		Booking:   bk,
		Inquiries: inquiries.New(db, owner, cfg.BaseURL, inquiries.WithClock(o.now)),
		Hub:       hub,
		KB:        kbs,
		Billing:   bill,
		Auth:      au,
		Files:     files,
		Avatars:   avatars,
		Forum: forum.New(db, o.now, forum.Options{LevelOf: lv.LevelOf, LevelsOfAll: lv.LevelsOfAll,
			DefaultLevel: levels.Compute(levels.Counts{}).Level, IsAdmin: isAdmin, Logger: logger, Notifier: forumNotices{in},
			SuggestContribution: func(ctx context.Context, id, note string) error {
				_, err := lv.Suggest(ctx, access.Viewer{UserID: id, Member: true},
					levels.SuggestionInput{Kind: levels.KindContribution, Note: note})
				return err
			}}),
		Levels: lv,
		Gaps:   gaps.New(db, o.now, logger),
		Notify: nt,
		Push:   ps,
		Inbox:  in,
		Library: library.New(db, library.Options{Files: files, Clock: o.now, LevelOf: lv.LevelOf,
			MaxUpload: cfg.MaxUpload, Index: replayIndex{kbs}, Logger: logger,
			Notify: func(ctx context.Context, notices []library.Notice) error {
				out := make([]inbox.Notice, len(notices))
				for i, n := range notices {
					out[i] = inbox.Notice{MemberID: n.MemberID, Kind: inbox.KindReplay, Title: n.Title, Body: n.Body, Link: n.Link}
				}
				return in.Notify(ctx, out)
			}}),
		OAuth: oauth.New(db, oauth.Options{BaseURL: cfg.BaseURL, ResourcePath: oauthResource, Clock: o.now,
			AllowPrivate: cfg.CalendarAllowPrivate, Logger: logger}),
		Clock: o.now,
	}
}

// oauthResource is the path of the one resource the authorization server
// issues tokens for: the MCP endpoint (mcp.Path, not imported here so the
// wiring does not pull the MCP server into every subcommand).
const oauthResource = "/mcp"

// pushContact is the operator's contact in the VAPID claim (RFC 8292): the
// site's address when it is https, else the first admin's mail address.
func pushContact(cfg *config.Config) string {
	if strings.HasPrefix(cfg.BaseURL, "https://") {
		return cfg.BaseURL
	}
	if len(cfg.AdminEmails) > 0 {
		return cfg.AdminEmails[0]
	}
	return ""
}

// newBooking builds booking over billing's Stripe client and gives billing
// its payment events, and the owner's briefs the knowledge base and the
// model. Owner defaults: the first admin address.
func newBooking(cfg *config.Config, db *store.DB, site *content.Site, hub *events.Hub, bill *billing.Service, kbs *kb.Service, logger *slog.Logger) *booking.Service {
	owner := ""
	if len(cfg.AdminEmails) > 0 {
		owner = cfg.AdminEmails[0]
	}
	opts := []booking.Option{
		booking.WithLogger(logger),
		booking.WithPrivateCalendars(cfg.CalendarAllowPrivate),
		booking.WithChangeNotice(func(ctx context.Context, id string) {
			// The change is made; the notice must not fail or cancel it.
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			defer cancel()
			if err := hub.Publish(ctx, events.Event{Topic: events.TopicBooking, UserID: events.BookingStream(id)}); err != nil {
				logger.Warn("live update not sent", "topic", events.TopicBooking, "err", err)
			}
		}),
	}
	if bill.Enabled() {
		opts = append(opts, booking.WithPayments(bill))
	}
	// The owner's brief before each session reads the knowledge base and,
	// with a model configured, asks it for a summary and questions.
	var brief booking.BriefWriter
	if cfg.AIEnabled() {
		brief = agent.NewBriefWriter(agent.NewClient(agent.ClientOptions{BaseURL: cfg.AIBaseURL, APIKey: cfg.AIAPIKey, Model: cfg.AIModel}))
	}
	opts = append(opts, booking.WithBriefs(kbs, brief))
	bk := booking.New(db, booking.Config{Site: site, OwnerEmail: owner, BaseURL: cfg.BaseURL, Payments: bill.Enabled()}, opts...)
	bill.SetPaymentHandler(bk)
	return bk
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

// NewFiles opens the file store the configuration names: the bucket of
// TRIBE_STORAGE_URL, or the data directory. It makes no request.
func NewFiles(cfg *config.Config) storage.Store {
	if cfg.S3 == nil {
		return storage.NewLocal(cfg.DataDir)
	}
	s3, err := storage.NewS3(storage.S3Options{
		Bucket: cfg.S3.Bucket, Endpoint: cfg.S3.Endpoint, Secure: cfg.S3.Secure, Region: cfg.S3.Region,
		PathStyle: cfg.S3.PathStyle, AccessKeyID: cfg.S3.AccessKeyID, SecretAccessKey: cfg.S3.SecretAccessKey,
	})
	if err != nil {
		// config.Load has checked the endpoint, the only thing NewS3 refuses.
		panic(fmt.Sprintf("TRIBE_STORAGE_URL passed config.Load but: %v", err))
	}
	return s3
}

// forumNotices hands the forum's notices to the notification centre: the
// forum names who is told what, the centre records it and delivers it on
// each member's channels.
type forumNotices struct{ in *inbox.Service }

func (f forumNotices) Notify(ctx context.Context, notices []forum.Notice) error {
	out := make([]inbox.Notice, len(notices))
	for i, n := range notices {
		out[i] = inbox.Notice(n)
	}
	return f.in.Notify(ctx, out)
}

// replayIndex keeps the library's transcripts in the knowledge base: each
// passage a document of its own, so a search result cites the passage's
// time and its source is the link that plays the recording there.
type replayIndex struct{ kb *kb.Service }

func (x replayIndex) IndexReplay(ctx context.Context, id string, passages []library.Passage) error {
	docs := make([]kb.OriginDoc, len(passages))
	for i, p := range passages {
		docs[i] = kb.OriginDoc{Content: p.Text, Metadata: kb.Metadata{Title: p.Title, Category: kb.CategoryReplay,
			Type: "transcript", Source: p.Link, Tags: []string{"replay"}}}
	}
	return x.kb.ReplaceOrigin(ctx, "library:"+id, docs)
}

func (x replayIndex) RemoveReplay(ctx context.Context, id string) error {
	return x.kb.RemoveOrigin(ctx, "library:"+id)
}

func (x replayIndex) HasReplay(ctx context.Context, id string) (bool, error) {
	return x.kb.HasOrigin(ctx, "library:"+id)
}
