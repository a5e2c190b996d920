// Package inbox is the members' notification centre: notifications (one
// row per member and notice, reactions folded per thread while unread),
// each member's channel per kind (in the centre only, and push, or and
// mail), live delivery over the events stream so the bell's count rises
// without a reload, and the push outbox, drained by a worker on every
// instance under leases so that each push goes out once between them.
// Mail goes through the mail outbox in the same transaction as the
// notification, with the one-click unsubscribe of internal/notify.
package inbox

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/clock"
	"tribe/internal/errs"
	"tribe/internal/events"
	"tribe/internal/mail"
	"tribe/internal/push"
	"tribe/internal/store"
)

// Notice is one notification for one member, as the code that has news
// (the forum, levels, reminders) gives it.
type Notice struct {
	MemberID string // who receives it
	Kind     string // see Kinds
	Title    string
	Body     string
	Link     string // a path on the site: "/members/community/{id}#reply-{id}"
	GroupKey string // notices with one key fold into one unread entry ("reaction:{threadID}"); "" for none
}

// The kinds of notification.
const (
	KindMention      = "mention"
	KindReply        = "reply"
	KindAccepted     = "accepted"
	KindReaction     = "reaction"
	KindAnnouncement = "announcement"
	KindLevel        = "level"
	KindReminder     = "reminder"
	KindReplay       = "replay"
)

// Kinds lists every kind, in the order the settings show them.
var Kinds = []string{KindMention, KindReply, KindAccepted, KindReaction, KindAnnouncement, KindLevel, KindReminder, KindReplay}

// The channels a member chooses per kind.
const (
	ChannelApp  = "app"
	ChannelPush = "push"
	ChannelMail = "mail"
)

// defaults is each kind's channel until the member chooses: what is
// addressed to them personally or from the owner reaches their devices;
// reactions, levels and reminders stay in the centre (level and reminder
// mail are the notification settings' own).
var defaults = map[string]string{
	KindMention: ChannelPush, KindReply: ChannelPush, KindAccepted: ChannelPush, KindReaction: ChannelApp,
	KindAnnouncement: ChannelPush, KindLevel: ChannelApp, KindReminder: ChannelApp, KindReplay: ChannelPush,
}

// mailLabels name the kinds inbox mails, for the mail's footer and the
// unsubscribe page ("You get this because mentions are on").
var mailLabels = map[string]string{
	KindMention: "mentions", KindReply: "replies to your threads", KindAccepted: "accepted answers",
	KindReaction: "reactions", KindAnnouncement: "announcements", KindReplay: "new replays",
}

// mailable reports whether members may choose mail for kind.
func mailable(kind string) bool { _, ok := mailLabels[kind]; return ok }

// optOutKind is the unsubscribe kind of kind's mail.
func optOutKind(kind string) string { return "inbox_" + kind }

// Limits of a notification as stored.
const (
	maxTitle = 200
	maxBody  = 500
	maxLink  = 500
	pageSize = 30
)

// Mailer composes a mail a member may stop in one click (notify.Service).
type Mailer interface {
	OptOut(ctx context.Context, userID, kind string, c mail.Content) (mail.Message, error)
	AddOptOut(kind, label string, off func(ctx context.Context, userID string) error)
}

// Pusher sends to a member's browsers (push.Service).
type Pusher interface {
	Send(ctx context.Context, userID string, m push.Message) (push.Result, error)
}

// Service is the notification centre. Build one per process with New.
type Service struct {
	db      *store.DB
	hub     *events.Hub
	push    Pusher
	mailer  Mailer
	baseURL string
	now     clock.Clock
	logger  *slog.Logger
	wake    chan struct{}
}

// Options shape New. DB and Hub are required.
type Options struct {
	Hub     *events.Hub
	Push    Pusher // nil: no push
	Mailer  Mailer // nil: no mail
	BaseURL string // the start of links in mail
	Clock   clock.Clock
	Logger  *slog.Logger
}

// New builds the centre over db and registers its kinds of mail with the
// mailer's one-click unsubscribe.
func New(db *store.DB, o Options) *Service {
	s := &Service{db: db, hub: o.Hub, push: o.Push, mailer: o.Mailer, baseURL: strings.TrimRight(o.BaseURL, "/"),
		now: o.Clock, logger: o.Logger, wake: make(chan struct{}, 1)}
	if s.now == nil {
		s.now = time.Now
	}
	if s.logger == nil {
		s.logger = slog.Default()
	}
	if s.mailer != nil {
		for _, kind := range Kinds {
			if mailable(kind) {
				s.mailer.AddOptOut(optOutKind(kind), mailLabels[kind], func(ctx context.Context, userID string) error {
					return s.setChannel(ctx, userID, kind, ChannelApp)
				})
			}
		}
	}
	return s
}

// known reports whether kind is a kind of notification.
func known(kind string) bool { _, ok := defaults[kind]; return ok }

// clip trims s and cuts it to at most n characters.
func clip(s string, n int) string {
	s = strings.TrimSpace(strings.ToValidUTF8(s, ""))
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// safeLink keeps a link only when it is a path on this site: a push or a
// mail opens it, so it must never lead elsewhere.
func safeLink(link string) string {
	link = strings.TrimSpace(link)
	if !strings.HasPrefix(link, "/") || strings.HasPrefix(link, "//") || strings.ContainsAny(link, "\\\r\n\t ") ||
		len(link) > maxLink {
		return ""
	}
	return link
}

type recipient struct {
	email     string
	name      string
	confirmed bool
	channels  map[string]string
}

// Notify records each notice for its member, tells their open tabs, queues
// a push for members who chose push for that kind and queues a mail for
// those who chose mail, all in one transaction. Notices of unknown kinds,
// without a title or for accounts that do not exist are left out.
func (s *Service) Notify(ctx context.Context, notices []Notice) error {
	var todo []Notice
	for _, n := range notices {
		n.Kind = strings.TrimSpace(n.Kind)
		n.Title = clip(n.Title, maxTitle)
		n.Body = clip(n.Body, maxBody)
		n.Link = safeLink(n.Link)
		n.GroupKey = clip(n.GroupKey, 200)
		if n.MemberID == "" || !known(n.Kind) || n.Title == "" {
			s.logger.Warn("notification left out", "member", n.MemberID, "kind", n.Kind)
			continue
		}
		todo = append(todo, n)
	}
	if len(todo) == 0 {
		return nil
	}
	people, err := s.recipients(ctx, todo)
	if err != nil {
		return err
	}
	// Mail is composed before the transaction: its unsubscribe link reads
	// (and on first use writes) the signing key.
	mails := make([]*mail.Message, len(todo))
	for i, n := range todo {
		rc, ok := people[n.MemberID]
		if !ok || s.mailer == nil || !rc.confirmed || rc.channels[n.Kind] != ChannelMail || !mailable(n.Kind) {
			continue
		}
		c := mail.Content{To: rc.email, Subject: n.Title, Heading: n.Title, Paragraphs: []string{"Hi " + firstName(rc.name) + ","}}
		if n.Body != "" {
			c.Paragraphs = append(c.Paragraphs, n.Body)
		}
		link := s.baseURL + "/members"
		if n.Link != "" {
			link = s.baseURL + n.Link
		}
		c.Button = &mail.Link{Label: "Open it", URL: link}
		m, err := s.mailer.OptOut(ctx, n.MemberID, optOutKind(n.Kind), c)
		if err != nil {
			return fmt.Errorf("compose notification mail: %w", err)
		}
		mails[i] = &m
	}
	now := s.now()
	touched := map[string]bool{}
	queuedPush := false
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		for i, n := range todo {
			rc, ok := people[n.MemberID]
			if !ok {
				continue
			}
			var id string
			var count int
			err := tx.QueryRowContext(ctx, `INSERT INTO notifications (id, user_id, kind, title, body, link, group_key, created_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
				ON CONFLICT (user_id, group_key) WHERE group_key <> '' AND read_at IS NULL
				DO UPDATE SET group_count = notifications.group_count + 1, title = excluded.title, body = excluded.body,
				    link = excluded.link, kind = excluded.kind, created_at = excluded.created_at
				RETURNING id, group_count`,
				store.NewID(), n.MemberID, n.Kind, n.Title, n.Body, n.Link, n.GroupKey, store.At(now)).Scan(&id, &count)
			if err != nil {
				return fmt.Errorf("record notification: %w", err)
			}
			touched[n.MemberID] = true
			switch rc.channels[n.Kind] {
			case ChannelPush:
				if s.push == nil {
					continue
				}
				res, err := tx.ExecContext(ctx, `INSERT INTO push_outbox (id, notification_id, user_id, created_at, next_attempt_at)
					SELECT $1, $2, $3, $4, $4 WHERE EXISTS (SELECT 1 FROM push_subscriptions WHERE user_id = $3)`,
					store.NewID(), id, n.MemberID, store.At(now))
				if err != nil {
					return fmt.Errorf("queue push: %w", err)
				}
				if k, _ := res.RowsAffected(); k > 0 {
					queuedPush = true
				}
			case ChannelMail:
				if mails[i] != nil {
					if _, err := mail.EnqueueOnce(ctx, tx, fmt.Sprintf("inbox-%s-%d", id, count), *mails[i]); err != nil {
						return fmt.Errorf("queue notification mail: %w", err)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for member := range touched {
		s.changed(ctx, member)
	}
	if queuedPush {
		s.Kick()
	}
	return nil
}

// changed tells member's open tabs that their notifications changed. The
// change is made; a notice that fails is logged, never returned.
func (s *Service) changed(ctx context.Context, member string) {
	if s.hub == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := s.hub.Publish(ctx, events.Event{Topic: events.TopicNotifications, UserID: member}); err != nil {
		s.logger.Warn("live update not sent", "topic", events.TopicNotifications, "err", err)
	}
}

func firstName(name string) string {
	name = strings.TrimSpace(name)
	if f, _, ok := strings.Cut(name, " "); ok {
		return f
	}
	if name == "" {
		return "there"
	}
	return name
}

// recipients reads, for each member named in notices, their address and
// their channels.
func (s *Service) recipients(ctx context.Context, notices []Notice) (map[string]*recipient, error) {
	out := map[string]*recipient{}
	for _, n := range notices {
		if _, done := out[n.MemberID]; done {
			continue
		}
		rc := &recipient{}
		err := s.db.ReadRow(ctx, `SELECT u.email, COALESCE(p.full_name, ''), u.email_confirmed_at IS NOT NULL
			FROM users u LEFT JOIN profiles p ON p.id = u.id WHERE u.id = $1`, n.MemberID).Scan(&rc.email, &rc.name, &rc.confirmed)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read recipient: %w", err)
		}
		ch, err := s.Channels(ctx, n.MemberID)
		if err != nil {
			return nil, err
		}
		rc.channels = ch
		out[n.MemberID] = rc
	}
	return out, nil
}

// Channels is the member's channel for every kind, the defaults where they
// chose none.
func (s *Service) Channels(ctx context.Context, userID string) (Channels, error) {
	out := Channels{}
	for k, v := range defaults {
		out[k] = v
	}
	rows, err := s.db.ReadRows(ctx, `SELECT kind, channel FROM notification_channels WHERE user_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("read notification channels: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var kind, ch string
		if err := rows.Scan(&kind, &ch); err != nil {
			return nil, fmt.Errorf("read notification channels: %w", err)
		}
		if known(kind) {
			out[kind] = ch
		}
	}
	return out, rows.Err()
}

// CheckChannels reports the first bad choice in in: an unknown kind or
// channel, or mail for a kind whose mail is a notification setting.
func CheckChannels(in Channels) error {
	for kind, ch := range in {
		field := "channels." + kind
		if !known(kind) {
			return errs.Field(field, fmt.Sprintf("There is no kind of notification called %q.", clip(kind, 40)))
		}
		switch ch {
		case ChannelApp, ChannelPush:
		case ChannelMail:
			if !mailable(kind) {
				return errs.Field(field, "Mail for this kind is its own setting above; choose app or push here.")
			}
		default:
			return errs.Field(field, "Choose app, push or mail.")
		}
	}
	return nil
}

// SetChannels saves the member's choices in in (the kinds it names) and
// returns all of them.
func (s *Service) SetChannels(ctx context.Context, userID string, in Channels) (Channels, error) {
	if err := CheckChannels(in); err != nil {
		return nil, err
	}
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		for kind, ch := range in {
			if err := upsertChannel(ctx, tx, userID, kind, ch); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.Channels(ctx, userID)
}

func (s *Service) setChannel(ctx context.Context, userID, kind, ch string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error { return upsertChannel(ctx, tx, userID, kind, ch) })
}

func upsertChannel(ctx context.Context, tx *sql.Tx, userID, kind, ch string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO notification_channels (user_id, kind, channel)
		SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM users WHERE id = $1)
		ON CONFLICT (user_id, kind) DO UPDATE SET channel = excluded.channel`, userID, kind, ch)
	if err != nil {
		return fmt.Errorf("save notification channel: %w", err)
	}
	return nil
}

// cursor is where a page of the list ends: the last entry's time and id.
func encodeCursor(at time.Time, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(at.UTC().Format(time.RFC3339Nano) + "|" + id))
}

func decodeCursor(c string) (time.Time, string, error) {
	bad := errs.Field("cursor", "This cursor is not one the list gave; start from the first page.")
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(c) > 200 {
		return time.Time{}, "", bad
	}
	ts, id, ok := strings.Cut(string(raw), "|")
	at, err := time.Parse(time.RFC3339Nano, ts)
	if !ok || err != nil || id == "" {
		return time.Time{}, "", bad
	}
	return at, id, nil
}

// List is a page of userID's notifications, newest first, and how many are
// unread.
func (s *Service) List(ctx context.Context, userID string, unreadOnly bool, cursor string) (List, error) {
	out := List{Notifications: []Notification{}}
	q := `SELECT id, kind, title, body, link, group_count, created_at, read_at FROM notifications WHERE user_id = $1`
	args := []any{userID}
	if unreadOnly {
		q += ` AND read_at IS NULL`
	}
	if cursor != "" {
		at, id, err := decodeCursor(cursor)
		if err != nil {
			return out, err
		}
		q += ` AND (created_at < $2 OR (created_at = $2 AND id < $3))`
		args = append(args, store.At(at), id)
	}
	q += fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT %d`, pageSize+1)
	rows, err := s.db.ReadRows(ctx, q, args...)
	if err != nil {
		return out, fmt.Errorf("list notifications: %w", err)
	}
	for rows.Next() {
		var (
			n    Notification
			at   store.Time
			read store.NullTime
		)
		if err := rows.Scan(&n.ID, &n.Kind, &n.Title, &n.Body, &n.Link, &n.Count, &at, &read); err != nil {
			_ = rows.Close()
			return out, fmt.Errorf("list notifications: %w", err)
		}
		n.CreatedAt = at.UTC()
		if read.Valid {
			t := read.Time.UTC()
			n.ReadAt = &t
		}
		out.Notifications = append(out.Notifications, n)
	}
	if err := rows.Close(); err != nil {
		return out, fmt.Errorf("list notifications: %w", err)
	}
	if len(out.Notifications) > pageSize {
		out.Notifications = out.Notifications[:pageSize]
		last := out.Notifications[pageSize-1]
		out.NextCursor = encodeCursor(last.CreatedAt, last.ID)
	}
	out.Unread, err = s.Unread(ctx, userID)
	return out, err
}

// Unread is how many of userID's notifications are unread.
func (s *Service) Unread(ctx context.Context, userID string) (int, error) {
	var n int
	if err := s.db.ReadRow(ctx, `SELECT COUNT(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL`, userID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count unread notifications: %w", err)
	}
	return n, nil
}

// maxReadIDs bounds one "mark read" request.
const maxReadIDs = 200

// MarkRead marks some of userID's notifications read, or all of them. Ids
// of other members' notifications, unknown or already read, change
// nothing.
func (s *Service) MarkRead(ctx context.Context, userID string, in ReadInput) (ReadResult, error) {
	if !in.All && len(in.IDs) == 0 {
		return ReadResult{}, errs.Field("ids", `Give the ids of the notifications to mark read, or "all": true.`)
	}
	if in.All && len(in.IDs) > 0 {
		return ReadResult{}, errs.Field("ids", `Give ids or "all": true, not both.`)
	}
	if len(in.IDs) > maxReadIDs {
		return ReadResult{}, errs.Field("ids", fmt.Sprintf("Mark at most %d notifications at once.", maxReadIDs))
	}
	now := store.At(s.now())
	var marked int64
	if in.All {
		res, err := s.db.Write.ExecContext(ctx, `UPDATE notifications SET read_at = $1 WHERE user_id = $2 AND read_at IS NULL`, now, userID)
		if err != nil {
			return ReadResult{}, fmt.Errorf("mark notifications read: %w", err)
		}
		marked, _ = res.RowsAffected()
	} else {
		err := s.db.Tx(ctx, func(tx *sql.Tx) error {
			for _, id := range in.IDs {
				if len(id) > 64 {
					return errs.Field("ids", "These are not notification ids.")
				}
				res, err := tx.ExecContext(ctx, `UPDATE notifications SET read_at = $1 WHERE id = $2 AND user_id = $3 AND read_at IS NULL`, now, id, userID)
				if err != nil {
					return fmt.Errorf("mark notification read: %w", err)
				}
				n, _ := res.RowsAffected()
				marked += n
			}
			return nil
		})
		if err != nil {
			return ReadResult{}, err
		}
	}
	if marked > 0 {
		s.changed(ctx, userID)
	}
	unread, err := s.Unread(ctx, userID)
	return ReadResult{Marked: int(marked), Unread: unread}, err
}
