package forum

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"tribe/internal/access"
	"tribe/internal/community"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// reactions names the table of one kind of post's 🔥 and the column of
// the post it is on.
type reactions struct{ table, post string }

var (
	threadReactions = reactions{table: "forum_thread_reactions", post: "thread_id"}
	replyReactions  = reactions{table: "forum_reply_reactions", post: "reply_id"}
)

// react gives (on) or takes back v's 🔥 on post id in one transaction:
// owner checks inside it that v may react on the post and answers its
// thread and author. Both directions are idempotent (a member counts once
// however often they press); added says whether a 🔥 was new.
func (s *Service) react(ctx context.Context, v access.Viewer, in reactions, id string, on bool,
	owner func(tx *sql.Tx) (thread, author string, err error)) (thread, author string, added bool, err error) {
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		if thread, author, err = owner(tx); err != nil {
			return err
		}
		if author == v.UserID {
			return ErrOwnPost
		}
		if !on {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+in.table+` WHERE `+in.post+` = $1 AND user_id = $2`, id, v.UserID); err != nil {
				return fmt.Errorf("take back 🔥 on %s: %w", id, err)
			}
			return nil
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO `+in.table+` (`+in.post+`, user_id, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (`+in.post+`, user_id) DO NOTHING`, id, v.UserID, store.At(s.now()))
		if err != nil {
			return fmt.Errorf("give 🔥 on %s: %w", id, err)
		}
		n, _ := res.RowsAffected()
		added = n == 1
		return nil
	})
	return thread, author, added, err
}

// ReactThread gives (on) or takes back v's "🔥" on a thread. The author
// is told of a new one (grouped per thread by the notification centre).
func (s *Service) ReactThread(ctx context.Context, v access.Viewer, id string, on bool) (*ThreadDetail, error) {
	_, author, added, err := s.react(ctx, v, threadReactions, id, on, func(tx *sql.Tx) (string, string, error) {
		author, err := s.openThread(ctx, tx, v, id)
		return id, author, err
	})
	if err != nil {
		return nil, err
	}
	d, err := s.Get(ctx, v, id)
	if err != nil {
		return nil, err
	}
	if added {
		s.noticeReaction(ctx, v, id, d.Title, author, "")
	}
	return d, nil
}

// ReactReply is ReactThread for a reply of a shown thread; a hidden reply
// takes none.
func (s *Service) ReactReply(ctx context.Context, v access.Viewer, id string, on bool) (*Reply, error) {
	thread, author, added, err := s.react(ctx, v, replyReactions, id, on, func(tx *sql.Tx) (string, string, error) {
		thread, author, hidden, err := s.lockReply(ctx, tx, id)
		if err != nil {
			return "", "", err
		}
		if hidden && !v.Admin && author != v.UserID {
			return "", "", notFound("Reply")
		}
		if _, err := s.openThread(ctx, tx, v, thread); err != nil {
			return "", "", err
		}
		if hidden {
			return "", "", ErrHidden
		}
		return thread, author, nil
	})
	if err != nil {
		return nil, err
	}
	r, err := s.reply(ctx, v, id)
	if err != nil {
		return nil, err
	}
	if added {
		if t, err := s.thread(ctx, v, thread); err == nil {
			s.noticeReaction(ctx, v, thread, t.Title, author, id)
		}
	}
	return r, nil
}

// Accept marks a reply of a question as its accepted answer (nil takes it
// back): the asker or an admin may. The reply's author is told.
func (s *Service) Accept(ctx context.Context, v access.Viewer, id string, in AcceptInput) (*ThreadDetail, error) {
	var replyAuthor string
	changed := false
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		author, category, hidden, err := s.lockThread(ctx, tx, id, "UPDATE")
		if err != nil {
			return err
		}
		if err := sees(v, author, category, hidden); err != nil {
			return err
		}
		if author != v.UserID && !v.Admin {
			return ErrNotAsker
		}
		if category != CategoryQuestion {
			return ErrNotQuestion
		}
		var reply any
		if in.ReplyID != nil && *in.ReplyID != "" {
			var rHidden bool
			var thread string
			err := tx.QueryRowContext(ctx, `SELECT thread_id, user_id, hidden_at IS NOT NULL FROM forum_replies WHERE id = $1`,
				*in.ReplyID).Scan(&thread, &replyAuthor, &rHidden)
			if errors.Is(err, sql.ErrNoRows) || (err == nil && (thread != id || rHidden)) {
				return errs.Field("reply_id", "Choose a shown reply of this thread.")
			}
			if err != nil {
				return fmt.Errorf("read reply %s: %w", *in.ReplyID, err)
			}
			reply = *in.ReplyID
		}
		var before sql.NullString
		if err := tx.QueryRowContext(ctx, `SELECT accepted_reply_id FROM forum_threads WHERE id = $1`, id).Scan(&before); err != nil {
			return fmt.Errorf("accept an answer of %s: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE forum_threads SET accepted_reply_id = $1 WHERE id = $2`, reply, id); err != nil {
			return fmt.Errorf("accept an answer of %s: %w", id, err)
		}
		changed = reply != nil && before.String != reply
		return nil
	})
	if err != nil {
		return nil, err
	}
	d, err := s.Get(ctx, v, id)
	if err != nil {
		return nil, err
	}
	if changed {
		s.noticeAccepted(ctx, v, d, *in.ReplyID, replyAuthor)
		s.suggestContribution(ctx, d, *in.ReplyID, replyAuthor)
	}
	return d, nil
}

// Mute stops (or restarts) notices of a thread v may see for v.
func (s *Service) Mute(ctx context.Context, v access.Viewer, id string, muted bool) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		author, category, hidden, err := s.lockThread(ctx, tx, id, "SHARE")
		if err != nil {
			return err
		}
		if err := sees(v, author, category, hidden); err != nil {
			return err
		}
		if muted {
			_, err = tx.ExecContext(ctx, `INSERT INTO forum_mutes (thread_id, user_id) VALUES ($1, $2)
				ON CONFLICT (thread_id, user_id) DO NOTHING`, id, v.UserID)
		} else {
			_, err = tx.ExecContext(ctx, `DELETE FROM forum_mutes WHERE thread_id = $1 AND user_id = $2`, id, v.UserID)
		}
		if err != nil {
			return fmt.Errorf("mute thread %s: %w", id, err)
		}
		return nil
	})
}

// Report records v's report of a thread or a reply v can see, for the
// admins. A second open report of the same post by the same member changes
// nothing.
func (s *Service) Report(ctx context.Context, v access.Viewer, in ReportInput) error {
	if (in.ThreadID == "") == (in.ReplyID == "") {
		return errs.Field("thread_id", "Report either a thread (thread_id) or a reply (reply_id).")
	}
	reason, err := community.CheckText("reason", "Reason", in.Reason, MaxReason, true)
	if err != nil {
		return err
	}
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		thread := in.ThreadID
		var reply any
		if in.ReplyID != "" {
			t, _, _, err := s.replyInReach(ctx, tx, v, in.ReplyID)
			if err != nil {
				return err
			}
			thread, reply = t, in.ReplyID
		} else {
			author, category, hidden, err := s.lockThread(ctx, tx, thread, "SHARE")
			if err != nil {
				return err
			}
			if err := sees(v, author, category, hidden); err != nil {
				return err
			}
		}
		var open bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM forum_reports WHERE user_id = $1 AND thread_id = $2
			AND COALESCE(reply_id, '') = $3 AND resolved_at IS NULL)`, v.UserID, thread, in.ReplyID).Scan(&open); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		if open {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO forum_reports (id, thread_id, reply_id, user_id, reason, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, store.NewID(), thread, reply, v.UserID, reason, store.At(s.now())); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		return nil
	})
}

// Reports is the open reports, oldest first, for admins.
func (s *Service) Reports(ctx context.Context, v access.Viewer) (*ReportList, error) {
	if !v.Admin {
		return nil, ErrForAdmins
	}
	rows, err := s.db.ReadRows(ctx, `SELECT f.id, f.thread_id, f.reply_id, t.title, COALESCE(r.body, t.body), f.reason,
		COALESCE(p.full_name, ''), f.created_at, COALESCE(r.hidden_at, t.hidden_at) IS NOT NULL
		FROM forum_reports f JOIN forum_threads t ON t.id = f.thread_id
		LEFT JOIN forum_replies r ON r.id = f.reply_id
		LEFT JOIN profiles p ON p.id = f.user_id
		WHERE f.resolved_at IS NULL ORDER BY f.created_at, f.id`)
	if err != nil {
		return nil, fmt.Errorf("list reports: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := &ReportList{Reports: []Report{}}
	for rows.Next() {
		var (
			r     Report
			reply sql.NullString
			body  string
			at    store.Time
		)
		if err := rows.Scan(&r.ID, &r.ThreadID, &reply, &r.ThreadTitle, &body, &r.Reason, &r.ReporterName, &at, &r.Hidden); err != nil {
			return nil, fmt.Errorf("list reports: %w", err)
		}
		r.Link = "/members/community/" + r.ThreadID
		if reply.Valid {
			r.ReplyID = &reply.String
			r.Link += "#reply-" + reply.String
		}
		r.Excerpt = excerpt(body, 200)
		r.CreatedAt = at.Time
		out.Reports = append(out.Reports, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list reports: %w", err)
	}
	return out, nil
}

// ResolveReport closes an open report (admins).
func (s *Service) ResolveReport(ctx context.Context, v access.Viewer, id string) error {
	if !v.Admin {
		return ErrForAdmins
	}
	res, err := s.db.Write.ExecContext(ctx, `UPDATE forum_reports SET resolved_at = $1, resolved_by = $2
		WHERE id = $3 AND resolved_at IS NULL`, store.At(s.now()), v.UserID, id)
	if err != nil {
		return fmt.Errorf("resolve report %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound("Open report")
	}
	return nil
}

// moderation checks an admin's change: hiding needs a reason.
func moderation(v access.Viewer, in Moderation, pinnable bool) (reason string, err error) {
	if !v.Admin {
		return "", ErrForAdmins
	}
	if in.Hidden == nil && (!pinnable || in.Pinned == nil) {
		return "", errNoChange
	}
	if in.Hidden != nil && *in.Hidden {
		r := ""
		if in.Reason != nil {
			r = *in.Reason
		}
		return community.CheckText("reason", "Reason", r, MaxReason, true)
	}
	return "", nil
}

// hideSets are the columns hiding or showing sets, and whether the post's
// open reports are resolved with it.
func hideSets(a *args, v access.Viewer, in Moderation, reason string, now store.Time) []string {
	if in.Hidden == nil {
		return nil
	}
	if *in.Hidden {
		return []string{`hidden_reason = ` + a.add(reason), `hidden_by = ` + a.add(v.UserID), `hidden_at = ` + a.add(now)}
	}
	return []string{`hidden_reason = NULL`, `hidden_by = NULL`, `hidden_at = NULL`}
}

// ModerateThread pins or unpins (until unpinned), hides (with a reason the
// author reads) or shows a thread: admins only. Hiding resolves the
// thread's open reports.
func (s *Service) ModerateThread(ctx context.Context, v access.Viewer, id string, in Moderation) (*ThreadDetail, error) {
	reason, err := moderation(v, in, true)
	if err != nil {
		return nil, err
	}
	now := store.At(s.now())
	var a args
	sets := hideSets(&a, v, in, reason, now)
	if in.Pinned != nil {
		sets = append(sets, `pinned = `+a.add(*in.Pinned), `pinned_until = NULL`)
	}
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, _, _, err := s.lockThread(ctx, tx, id, "UPDATE"); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE forum_threads SET `+strings.Join(sets, ", ")+` WHERE id = `+a.add(id), a...); err != nil {
			return fmt.Errorf("moderate thread %s: %w", id, err)
		}
		if in.Hidden != nil && *in.Hidden {
			if _, err := tx.ExecContext(ctx, `UPDATE forum_reports SET resolved_at = $1, resolved_by = $2
				WHERE thread_id = $3 AND reply_id IS NULL AND resolved_at IS NULL`, now, v.UserID, id); err != nil {
				return fmt.Errorf("resolve reports of %s: %w", id, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, v, id)
}

// ModerateReply hides (with a reason its author reads) or shows a reply:
// admins only. Hiding resolves the reply's open reports and takes it back
// as the accepted answer.
func (s *Service) ModerateReply(ctx context.Context, v access.Viewer, id string, in Moderation) (*Reply, error) {
	in.Pinned = nil
	reason, err := moderation(v, in, false)
	if err != nil {
		return nil, err
	}
	now := store.At(s.now())
	var a args
	sets := hideSets(&a, v, in, reason, now)
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, _, _, err := s.lockReply(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE forum_replies SET `+strings.Join(sets, ", ")+` WHERE id = `+a.add(id), a...); err != nil {
			return fmt.Errorf("moderate reply %s: %w", id, err)
		}
		if *in.Hidden {
			if _, err := tx.ExecContext(ctx, `UPDATE forum_threads SET accepted_reply_id = NULL WHERE accepted_reply_id = $1`, id); err != nil {
				return fmt.Errorf("moderate reply %s: %w", id, err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE forum_reports SET resolved_at = $1, resolved_by = $2
				WHERE reply_id = $3 AND resolved_at IS NULL`, now, v.UserID, id); err != nil {
				return fmt.Errorf("resolve reports of %s: %w", id, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.reply(ctx, v, id)
}

// suggestContribution puts a helpful answer forward for its author's level:
// an answer accepted on someone else's question is a contribution an admin
// may accept. Nothing is counted by itself, and a refusal (the member's
// suggestions waiting are at their cap) leaves the acceptance as it is.
func (s *Service) suggestContribution(ctx context.Context, d *ThreadDetail, replyID, author string) {
	if s.opts.SuggestContribution == nil || author == d.Author.ID {
		return
	}
	note := excerpt("Accepted answer to “"+d.Title, 180) + "” (" + replyLink(d.ID, replyID) + ")"
	if err := s.opts.SuggestContribution(ctx, author, note); err != nil {
		s.opts.Logger.Warn("community: accepted answer not suggested as a contribution", "member", author, "err", err)
	}
}
