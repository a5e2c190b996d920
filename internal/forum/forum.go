// Package forum is the tribe's discussion space: threads and replies,
// 🔥 reactions, @mentions, accepted answers, pins, hiding with a reason,
// reports, mutes and full-text search. It owns the forum_* tables
// (migration 0022) and is the one place of their SQL.
//
// Who may do what: subscribers and complimentary members (and admins) read
// and write; free members read announcements only; announcements are for
// admins to post; admins pin, hide and resolve reports. A hidden post is
// seen only by its author (with the admin's reason) and admins.
//
// The package writes no notification itself: after each commit it hands
// the notices of what happened, already addressed to the right members, to
// a Notifier (the notification centre).
package forum

import (
	"context"
	"log/slog"
	"time"

	"tribe/internal/clock"
	"tribe/internal/errs"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
)

// Categories of a thread; CategoryAnnouncement is for admins.
const (
	CategoryQuestion     = "question"
	CategoryWin          = "win"
	CategoryResource     = "resource"
	CategoryGeneral      = "general"
	CategoryAnnouncement = "announcement"
)

// Categories lists every category, in the order the members area offers them.
var Categories = []string{CategoryQuestion, CategoryWin, CategoryResource, CategoryGeneral, CategoryAnnouncement}

// Limits, in characters, and the writing allowance of one member.
const (
	MaxTitle  = 200
	MaxBody   = 20_000
	MaxReply  = 10_000
	MaxReason = 500
	MaxQuery  = 200
	// PageSize is how many threads one page of the list holds.
	PageSize = 20
	// MaxSearchResults is how many threads a search answers.
	MaxSearchResults = 50
	// MaxRanked bounds how many matching posts a search ranks (search.go).
	MaxRanked = 1000
	// ThreadsPerHour and RepliesPerHour are what one member may post.
	ThreadsPerHour = 10
	RepliesPerHour = 30
	// AnnouncementPin is how long an announcement stays pinned.
	AnnouncementPin = 7 * 24 * time.Hour
)

// Kinds of notice.
const (
	KindMention      = "mention"
	KindReply        = "reply"
	KindAccepted     = "accepted"
	KindReaction     = "reaction"
	KindAnnouncement = "announcement"
)

// Notice is one notification for one member (delivered by the notification centre).
type Notice struct {
	MemberID          string // who receives it
	Kind              string // "mention" | "reply" | "accepted" | "reaction" | "announcement"
	Title, Body, Link string // Link like "/members/community/{threadID}#reply-{id}"
	GroupKey          string // reactions are grouped per thread: "reaction:{threadID}"; else ""
}

// Notifier delivers notices; the notification centre implements it.
type Notifier interface {
	Notify(ctx context.Context, notices []Notice) error
}

// Refusals, as a member reads them.
var (
	ErrForMembers       = errs.New(errs.Forbidden, "The community's threads are for tribe members: subscribe to read and take part.")
	ErrAnnouncementOnly = errs.New(errs.Forbidden, "Only admins post announcements.")
	ErrNotAuthor        = errs.New(errs.Forbidden, "Only its author can change this post.")
	ErrNotAuthorOrAdmin = errs.New(errs.Forbidden, "Only its author or an admin can delete this post.")
	ErrNotAsker         = errs.New(errs.Forbidden, "Only the member who asked (or an admin) can accept an answer.")
	ErrForAdmins        = errs.New(errs.Forbidden, "Only admins moderate the community.")
	ErrOwnPost          = errs.New(errs.Conflict, "You cannot react to your own post.")
	ErrHidden           = errs.New(errs.Conflict, "This post was hidden by an admin: it takes no replies or reactions.")
	ErrNotQuestion      = errs.New(errs.Conflict, "Only questions have an accepted answer.")
	errNoChange         = errs.New(errs.Invalid, "Send at least one field to change.")
)

func notFound(what string) error { return errs.New(errs.NotFound, what+" not found.") }

// Options are the optional collaborators of a Service.
type Options struct {
	// Notifier receives the notices of each change; nil drops them.
	Notifier Notifier
	// LevelOf names a member's level (internal/levels); nil leaves it empty.
	LevelOf func(ctx context.Context, userID string) (string, error)
	// LevelsOfAll names the level of every member who has one above
	// DefaultLevel, in a few queries: what a page of many authors reads
	// instead of asking LevelOf for each. Nil: LevelOf for each.
	LevelsOfAll  func(ctx context.Context) (map[string]string, error)
	DefaultLevel string
	// IsAdmin tells whether a member is an admin (internal/auth), so an
	// admin who took part in a thread is told about it; nil: nobody is.
	IsAdmin func(ctx context.Context, userID string) (bool, error)
	// SuggestContribution records an accepted answer as a contribution
	// its author suggests for their level (internal/levels' awards flow),
	// for an admin to accept; nil records nothing.
	SuggestContribution func(ctx context.Context, memberID, note string) error
	Logger              *slog.Logger
}

// Service is the discussion space over one database.
type Service struct {
	db      *store.DB
	now     clock.Clock
	opts    Options
	threads *ratelimit.Limiter
	replies *ratelimit.Limiter
	// lookup finds the members named by a post's mention keys
	// (membersNamed; a test watches what it is asked).
	lookup func(ctx context.Context, keys []string) ([]named, error)
}

// New returns the discussion space over db, its time and its writing
// allowances following now.
func New(db *store.DB, now clock.Clock, o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	s := &Service{
		db:   db,
		now:  now,
		opts: o,
		// Counted in the database on PostgreSQL, so N instances allow what one does.
		threads: ratelimit.New(ThreadsPerHour, time.Hour/ThreadsPerHour, ratelimit.WithClock(now), ratelimit.Shared(db, "forum-threads")),
		replies: ratelimit.New(RepliesPerHour, time.Hour/RepliesPerHour, ratelimit.WithClock(now), ratelimit.Shared(db, "forum-replies")),
	}
	s.lookup = s.membersNamed
	return s
}

// SetNotifier sets who delivers the notices (the notification centre),
// once, before the service serves.
func (s *Service) SetNotifier(n Notifier) { s.opts.Notifier = n }

// allow spends one of a member's allowance, or answers 429 with when to
// try again.
func allow(l *ratelimit.Limiter, userID, what string) error {
	if ok, wait := l.Allow(userID); !ok {
		return errs.New(errs.RateLimited, "You have posted a lot of "+what+" in the last hour: please wait a little before the next.").After(wait)
	}
	return nil
}
