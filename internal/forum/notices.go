package forum

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"tribe/internal/access"
	"tribe/internal/billing"
)

// What the community tells members happens here: who is told of a
// change, in what words, with which link. Every notice is addressed
// after the change committed; the notification centre delivers it.
// Nobody is told of their own doing, a member who muted a thread is told
// nothing more of it, and free members are told of announcements only.

func threadLink(id string) string { return "/members/community/" + id }

func replyLink(threadID, replyID string) string { return threadLink(threadID) + "#reply-" + replyID }

// nameOf is a member's name as their profile gives it.
func (s *Service) nameOf(ctx context.Context, id string) string {
	var name string
	if err := s.db.ReadRow(ctx, `SELECT COALESCE(full_name, '') FROM profiles WHERE id = $1`, id).Scan(&name); err != nil || strings.TrimSpace(name) == "" {
		return "A member"
	}
	return name
}

// maxMentions bounds how many "@" of one body are looked up: no real post
// mentions more people than that, and a body full of "@" costs no more.
const maxMentions = 50

// mentionKeys is what a body's mentions look up: for each "@" (up to
// maxMentions), the word right after it (letters and digits, "@Ada
// Lovelace," gives "Ada"), distinct. A mentioned member's name starts
// with one of them; only those names are read, never the directory.
func mentionKeys(body string) []string {
	seen := map[string]bool{}
	var out []string
	for from, n := 0, 0; n < maxMentions; n++ {
		i := strings.IndexByte(body[from:], '@')
		if i < 0 {
			break
		}
		from += i + 1
		word := body[from:]
		if end := strings.IndexFunc(word, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }); end >= 0 {
			word = word[:end]
		}
		if k := strings.ToLower(word); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, word)
		}
	}
	return out
}

// named is a member the directory lists under a name.
type named struct{ id, name string }

// membersNamed is the members listed in the directory (what the mention
// picker offers) whose full name starts with one of keys, ignoring case.
// A key holds letters and digits only, so it is a LIKE pattern as it is.
// SQLite's lower() folds ASCII only: there, a name whose first letter is
// not ASCII is found when typed in its own case, as the picker writes it.
func (s *Service) membersNamed(ctx context.Context, keys []string) ([]named, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	var a args
	like := make([]string, len(keys))
	for i, k := range keys {
		like[i] = `lower(p.full_name) LIKE lower(` + a.add(k) + `) || '%'`
	}
	rows, err := s.db.ReadRows(ctx, `SELECT p.id, p.full_name FROM profiles p JOIN users u ON u.id = p.id
		WHERE p.in_directory AND u.email_confirmed_at IS NOT NULL AND p.full_name <> ''
		  AND (`+strings.Join(like, ` OR `)+`)`, a...)
	if err != nil {
		return nil, fmt.Errorf("read mentioned members: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []named
	for rows.Next() {
		var m named
		if err := rows.Scan(&m.id, &m.name); err != nil {
			return nil, fmt.Errorf("read mentioned members: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// mentions is the members a body mentions: "@" followed by the full name
// of a member listed in the member directory, ignoring case, not followed
// by another letter or digit. The longest name wins where names overlap
// ("@Ada Lovelace" is not "@Ada"). Only the names that follow an "@" are
// looked up (mentionKeys), so a post costs a few rows whatever the size of
// the tribe.
func (s *Service) mentions(ctx context.Context, body string) []string {
	if !strings.Contains(body, "@") {
		return nil
	}
	members, err := s.lookup(ctx, mentionKeys(body))
	if err != nil {
		s.opts.Logger.Warn("community: mentions not read", "err", err)
		return nil
	}
	for i := range members {
		members[i].name = strings.ToLower(strings.TrimSpace(members[i].name))
	}
	sort.SliceStable(members, func(i, j int) bool { return len(members[i].name) > len(members[j].name) })
	text := strings.ToLower(body)
	var out []string
	for _, m := range members {
		if m.name == "" {
			continue
		}
		needle := "@" + m.name
		for from := 0; ; {
			i := strings.Index(text[from:], needle)
			if i < 0 {
				break
			}
			end := from + i + len(needle)
			next, _ := utf8.DecodeRuneInString(text[end:])
			if end == len(text) || !(unicode.IsLetter(next) || unicode.IsDigit(next)) {
				out = append(out, m.id)
				// Blank it so a shorter name inside it is not mentioned too.
				text = text[:from+i] + strings.Repeat(" ", len(needle)) + text[end:]
				break
			}
			from = end
		}
	}
	return out
}

// deliver hands the notices to the Notifier: one per member (the first
// addressed to them wins), none to actor, none to those who muted the
// thread, and, unless they are announcements, none to members without
// tribe access.
func (s *Service) deliver(ctx context.Context, actor, threadID string, notices []Notice) {
	if s.opts.Notifier == nil || len(notices) == 0 {
		return
	}
	muted := map[string]bool{}
	if threadID != "" {
		if rows, err := s.db.ReadRows(ctx, `SELECT user_id FROM forum_mutes WHERE thread_id = $1`, threadID); err == nil {
			func() {
				defer func() { _ = rows.Close() }()
				for rows.Next() {
					var id string
					if rows.Scan(&id) == nil {
						muted[id] = true
					}
				}
			}()
		} else {
			s.opts.Logger.Warn("community: mutes not read; notices not sent", "thread", threadID, "err", err)
			return
		}
	}
	seen := map[string]bool{actor: true}
	var out []Notice
	for _, n := range notices {
		if seen[n.MemberID] || muted[n.MemberID] {
			continue
		}
		seen[n.MemberID] = true
		if n.Kind != KindAnnouncement {
			ok, err := s.member(ctx, n.MemberID)
			if err != nil {
				s.opts.Logger.Warn("community: access not read; notice dropped", "member", n.MemberID, "err", err)
				continue
			}
			if !ok {
				continue
			}
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return
	}
	if err := s.opts.Notifier.Notify(ctx, out); err != nil {
		s.opts.Logger.Error("community: notices not delivered", "thread", threadID, "notices", len(out), "err", err)
	}
}

// member reports whether a member may read the community now: tribe
// access (billing's one rule) or admin rights.
func (s *Service) member(ctx context.Context, id string) (bool, error) {
	admin := false
	if s.opts.IsAdmin != nil {
		var err error
		if admin, err = s.opts.IsAdmin(ctx, id); err != nil {
			return false, err
		}
	}
	v, err := billing.ViewerOf(ctx, s.db, id, admin)
	if err != nil {
		return false, err
	}
	return v.SeesPaidContent(), nil
}

// noticeThread tells of a new thread: every member of an announcement,
// the members a thread mentions.
func (s *Service) noticeThread(ctx context.Context, d *ThreadDetail) {
	actor := s.nameOf(ctx, d.Author.ID)
	var notices []Notice
	if d.Category == CategoryAnnouncement {
		rows, err := s.db.ReadRows(ctx, `SELECT id FROM users WHERE email_confirmed_at IS NOT NULL AND id <> $1 ORDER BY id`, d.Author.ID)
		if err != nil {
			s.opts.Logger.Error("community: members not read; announcement not told", "thread", d.ID, "err", err)
			return
		}
		func() {
			defer func() { _ = rows.Close() }()
			for rows.Next() {
				var id string
				if rows.Scan(&id) == nil {
					notices = append(notices, Notice{MemberID: id, Kind: KindAnnouncement, Title: "Announcement: " + d.Title,
						Body: excerpt(d.Body, 140), Link: threadLink(d.ID)})
				}
			}
		}()
		s.deliver(ctx, d.Author.ID, "", notices)
		return
	}
	for _, id := range s.mentions(ctx, d.Body) {
		notices = append(notices, Notice{MemberID: id, Kind: KindMention, Title: actor + " mentioned you in “" + d.Title + "”",
			Body: excerpt(d.Body, 140), Link: threadLink(d.ID)})
	}
	s.deliver(ctx, d.Author.ID, d.ID, notices)
}

// noticeReply tells of a new reply: those it mentions, the thread's
// author, and those who replied to the thread before.
func (s *Service) noticeReply(ctx context.Context, r *Reply) {
	var title, asker string
	if err := s.db.ReadRow(ctx, `SELECT title, user_id FROM forum_threads WHERE id = $1`, r.ThreadID).Scan(&title, &asker); err != nil {
		s.opts.Logger.Warn("community: thread not read; reply not told", "thread", r.ThreadID, "err", err)
		return
	}
	actor := s.nameOf(ctx, r.Author.ID)
	link, body := replyLink(r.ThreadID, r.ID), excerpt(r.Body, 140)
	var notices []Notice
	for _, id := range s.mentions(ctx, r.Body) {
		notices = append(notices, Notice{MemberID: id, Kind: KindMention, Title: actor + " mentioned you in “" + title + "”", Body: body, Link: link})
	}
	notices = append(notices, Notice{MemberID: asker, Kind: KindReply, Title: actor + " replied to your thread “" + title + "”", Body: body, Link: link})
	rows, err := s.db.ReadRows(ctx, `SELECT DISTINCT user_id FROM forum_replies WHERE thread_id = $1 AND id <> $2 ORDER BY user_id`, r.ThreadID, r.ID)
	if err != nil {
		s.opts.Logger.Warn("community: repliers not read", "thread", r.ThreadID, "err", err)
	} else {
		func() {
			defer func() { _ = rows.Close() }()
			for rows.Next() {
				var id string
				if rows.Scan(&id) == nil {
					notices = append(notices, Notice{MemberID: id, Kind: KindReply, Title: actor + " replied in “" + title + "”", Body: body, Link: link})
				}
			}
		}()
	}
	s.deliver(ctx, r.Author.ID, r.ThreadID, notices)
}

// noticeReaction tells a post's author of a new "🔥"; the notification
// centre groups them per thread.
func (s *Service) noticeReaction(ctx context.Context, v access.Viewer, threadID, title, author, replyID string) {
	what, link := "your thread", threadLink(threadID)
	if replyID != "" {
		what, link = "your reply in", replyLink(threadID, replyID)
	}
	s.deliver(ctx, v.UserID, threadID, []Notice{{MemberID: author, Kind: KindReaction,
		Title: s.nameOf(ctx, v.UserID) + " gave 🔥 to " + what + " “" + title + "”", Link: link, GroupKey: "reaction:" + threadID}})
}

// noticeAccepted tells a reply's author it is the accepted answer.
func (s *Service) noticeAccepted(ctx context.Context, v access.Viewer, d *ThreadDetail, replyID, author string) {
	s.deliver(ctx, v.UserID, d.ID, []Notice{{MemberID: author, Kind: KindAccepted,
		Title: "Your answer to “" + d.Title + "” was accepted", Body: s.nameOf(ctx, v.UserID) + " marked it as the answer.",
		Link: replyLink(d.ID, replyID)}})
}

// noticeMentions tells the members an edit mentions who its text before
// did not: an edit never tells anyone twice.
func (s *Service) noticeMentions(ctx context.Context, v access.Viewer, threadID, title, body, before, link string) {
	had := map[string]bool{}
	for _, id := range s.mentions(ctx, before) {
		had[id] = true
	}
	actor := s.nameOf(ctx, v.UserID)
	var notices []Notice
	for _, id := range s.mentions(ctx, body) {
		if !had[id] {
			notices = append(notices, Notice{MemberID: id, Kind: KindMention, Title: actor + " mentioned you in “" + title + "”",
				Body: excerpt(body, 140), Link: link})
		}
	}
	s.deliver(ctx, v.UserID, threadID, notices)
}
