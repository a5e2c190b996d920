// Package library is the members' library: session recordings, materials
// (PDF, slides, code archives), short Markdown lessons and links to videos
// hosted elsewhere, each member's progress through them, the admins'
// resumable uploads and the transcripts of recordings. It owns the tables
// library_items, library_progress and library_uploads (migration 0027) and
// library_plays (0033, the days members played recordings, for Insights),
// and is the one place of their SQL. Files go only through internal/storage.
//
// Who sees what: tribe members (subscribers and complimentary members, as
// access.Viewer.Member says) open every published item their Tribe Level
// reaches; free members see the titles, locked, and nothing of the media,
// body or transcript; an item whose min_level is above the member's level
// is locked with that requirement; admins see and open everything,
// unpublished items included.
package library

import (
	"context"
	"log/slog"
	"time"

	"tribe/internal/clock"
	"tribe/internal/errs"
	"tribe/internal/levels"
	"tribe/internal/storage"
	"tribe/internal/store"
)

// Limits of an item's fields, in characters unless said otherwise.
const (
	MaxTitle       = 200
	MaxDescription = 5000
	MaxTags        = 20
	MaxTag         = 40
	MaxBody        = 100_000
	MaxChapters    = 200
	MaxURL         = 2000
	MaxQuery       = 200
	// MaxDuration is a day, in seconds: longer than any recording.
	MaxDuration = 24 * 60 * 60
	// CompletedShare is how far in an item counts as finished.
	CompletedShare = 0.9
)

// DefaultMaxUpload is the largest upload when TRIBE_MAX_UPLOAD is unset.
const DefaultMaxUpload int64 = 4 << 30

// Indexer keeps the transcripts of published items in the knowledge base
// (internal/kb), so search and the AI cite them; nil indexes nothing.
type Indexer interface {
	// IndexReplay replaces the passages of item id with these.
	IndexReplay(ctx context.Context, id string, passages []Passage) error
	// RemoveReplay removes the passages of item id.
	RemoveReplay(ctx context.Context, id string) error
	// HasReplay reports whether item id has passages.
	HasReplay(ctx context.Context, id string) (bool, error)
}

// Options are the collaborators of a Service.
type Options struct {
	// Files is where media and upload parts are kept.
	Files storage.Store
	// Clock reads the time; time.Now when nil.
	Clock clock.Clock
	// LevelOf names a member's Tribe Level (internal/levels); nil: every
	// member is at the first level.
	LevelOf func(ctx context.Context, userID string) (string, error)
	// MaxUpload bounds an upload's size; DefaultMaxUpload when 0.
	MaxUpload int64
	// Index keeps transcripts in the knowledge base; nil: not indexed.
	Index Indexer
	// Notify tells members a replay of a session they missed is up (the
	// notification centre); nil tells nobody.
	Notify func(ctx context.Context, n []Notice) error
	Logger *slog.Logger
}

// Notice tells one member that the replay of a session they RSVP'd to and
// did not attend is published.
type Notice struct {
	MemberID, Title, Body, Link string
}

// Service is the library over one database and one file store.
type Service struct {
	db *store.DB
	o  Options
}

// New returns the library over db.
func New(db *store.DB, o Options) *Service {
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.MaxUpload <= 0 {
		o.MaxUpload = DefaultMaxUpload
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, o: o}
}

// MaxUpload is the largest upload the service takes, in bytes.
func (s *Service) MaxUpload() int64 { return s.o.MaxUpload }

// Refusals, as a person reads them.
var (
	ErrForAdmins   = errs.New(errs.Forbidden, "Only admins manage the library.")
	ErrLocked      = errs.New(errs.Forbidden, "This item is for tribe members: subscribe to open it.")
	errNotFound    = errs.New(errs.NotFound, "Library item not found.")
	errNoChange    = errs.New(errs.Invalid, "Send at least one field to change.")
	errNotSignedIn = errs.New(errs.Unauthorized, "Please sign in.")
)

// levelLocked is the refusal of an item above the member's level.
func levelLocked(need int) error {
	return errs.Errorf(errs.Forbidden, "This item opens at the %s level.", levelName(need))
}

// levelName names a rank of the level table ("" for 0).
func levelName(rank int) string {
	if rank < 1 || rank > len(levels.Table) {
		return ""
	}
	return levels.Table[rank-1].Name
}

// reindex puts an item's transcript in the knowledge base while it is
// published and asks for no Tribe Level, and takes it out otherwise: the
// search answers every tribe member alike, so a passage of an item some
// members may not open is not in it. A failure is logged: the item's
// change is made, and the next change of it indexes it again.
func (s *Service) reindex(ctx context.Context, r *row) {
	if s.o.Index == nil || r == nil {
		return
	}
	var err error
	if r.published(s.o.Clock()) && r.minLevel <= 1 && len(r.transcript) > 0 {
		err = s.o.Index.IndexReplay(ctx, r.id, Passages(r.id, r.title, r.transcript))
	} else {
		err = s.o.Index.RemoveReplay(ctx, r.id)
	}
	if err != nil {
		s.o.Logger.Error("replay not indexed", "item", r.id, "err", err)
	}
}
