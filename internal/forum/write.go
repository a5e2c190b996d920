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

// validateThread checks a thread's fields, in the order the form shows
// them, and returns them cleaned: all three of a new thread, the ones an
// edit names (nil keeps its value). Create and Update refuse alike.
func validateThread(v access.Viewer, in ThreadPatch) (ThreadPatch, error) {
	var out ThreadPatch
	if in.Category != nil {
		c := *in.Category
		if !validCategory(c) {
			return out, errs.Field("category", "Category must be one of "+strings.Join(Categories, ", ")+".")
		}
		if c == CategoryAnnouncement && !v.Admin {
			return out, ErrAnnouncementOnly
		}
		out.Category = &c
	}
	if in.Title != nil {
		t, err := community.CheckText("title", "Title", *in.Title, MaxTitle, false)
		if err != nil {
			return out, err
		}
		out.Title = &t
	}
	if in.Body != nil {
		b, err := community.CheckText("body", "Body", *in.Body, MaxBody, true)
		if err != nil {
			return out, err
		}
		out.Body = &b
	}
	return out, nil
}

// Create starts a thread of v's. An announcement (admins only) is pinned
// for AnnouncementPin and told to every member; members mentioned in the
// body are told. Nothing is written when it refuses.
func (s *Service) Create(ctx context.Context, v access.Viewer, in ThreadInput) (*ThreadDetail, error) {
	if !v.SeesPaidContent() {
		return nil, ErrForMembers
	}
	f, err := validateThread(v, ThreadPatch{Category: &in.Category, Title: &in.Title, Body: &in.Body})
	if err != nil {
		return nil, err
	}
	title, body := *f.Title, *f.Body
	if err := allow(s.threads, v.UserID, "threads"); err != nil {
		return nil, err
	}
	now := s.now()
	id := store.NewID()
	announce := in.Category == CategoryAnnouncement
	var until *store.Time
	if announce {
		u := store.At(now.Add(AnnouncementPin))
		until = &u
	}
	if _, err := s.db.Write.ExecContext(ctx,
		`INSERT INTO forum_threads (id, user_id, category, title, body, pinned, pinned_until, created_at, last_activity_at)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
		id, v.UserID, in.Category, title, body, announce, until, store.At(now)); err != nil {
		return nil, fmt.Errorf("create thread: %w", err)
	}
	d, err := s.Get(ctx, v, id)
	if err != nil {
		return nil, err
	}
	s.noticeThread(ctx, d)
	return d, nil
}

// lockThread reads a thread's author, category and whether it is hidden
// inside tx; on PostgreSQL the row stays locked (mode) until tx ends, so it
// cannot go between the check and the write that depends on it.
func (s *Service) lockThread(ctx context.Context, tx *sql.Tx, id, mode string) (author, category string, hidden bool, err error) {
	q := `SELECT user_id, category, hidden_at IS NOT NULL FROM forum_threads WHERE id = $1`
	if s.db.Dialect == store.Postgres {
		q += ` FOR ` + mode
	}
	err = tx.QueryRowContext(ctx, q, id).Scan(&author, &category, &hidden)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", false, notFound("Thread")
	}
	if err != nil {
		return "", "", false, fmt.Errorf("read thread %s: %w", id, err)
	}
	return author, category, hidden, nil
}

// sees reports whether v may see a thread of author and category that is
// hidden or not, and the refusal otherwise.
func sees(v access.Viewer, author, category string, hidden bool) error {
	if hidden && !v.Admin && author != v.UserID {
		return notFound("Thread")
	}
	if !v.SeesPaidContent() && category != CategoryAnnouncement {
		return ErrForMembers
	}
	return nil
}

// Update changes v's own thread: category, title or body; it says it was
// edited. Nothing is written when a field is refused.
func (s *Service) Update(ctx context.Context, v access.Viewer, id string, in ThreadPatch) (*ThreadDetail, error) {
	if in.Category == nil && in.Title == nil && in.Body == nil {
		return nil, errNoChange
	}
	f, err := validateThread(v, in)
	if err != nil {
		return nil, err
	}
	sets, a := []string{}, args{}
	if f.Category != nil {
		sets = append(sets, `category = `+a.add(*f.Category))
	}
	if f.Title != nil {
		sets = append(sets, `title = `+a.add(*f.Title))
	}
	if f.Body != nil {
		sets = append(sets, `body = `+a.add(*f.Body))
	}
	sets = append(sets, `edited_at = `+a.add(store.At(s.now())))
	var before string
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		author, category, hidden, err := s.lockThread(ctx, tx, id, "UPDATE")
		if err != nil {
			return err
		}
		if err := sees(v, author, category, hidden); err != nil {
			return err
		}
		if author != v.UserID {
			return ErrNotAuthor
		}
		if err := tx.QueryRowContext(ctx, `SELECT body FROM forum_threads WHERE id = $1`, id).Scan(&before); err != nil {
			return fmt.Errorf("update thread %s: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE forum_threads SET `+strings.Join(sets, ", ")+` WHERE id = `+a.add(id), a...); err != nil {
			return fmt.Errorf("update thread %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	d, err := s.Get(ctx, v, id)
	if err != nil {
		return nil, err
	}
	if in.Body != nil && d.Category != CategoryAnnouncement {
		s.noticeMentions(ctx, v, d.ID, d.Title, d.Body, before, threadLink(d.ID))
	}
	return d, nil
}

// Delete removes a thread with its replies, reactions and reports: its
// author or an admin may.
func (s *Service) Delete(ctx context.Context, v access.Viewer, id string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		author, category, hidden, err := s.lockThread(ctx, tx, id, "UPDATE")
		if err != nil {
			return err
		}
		if err := sees(v, author, category, hidden); err != nil {
			return err
		}
		if author != v.UserID && !v.Admin {
			return ErrNotAuthorOrAdmin
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM forum_threads WHERE id = $1`, id); err != nil {
			return fmt.Errorf("delete thread %s: %w", id, err)
		}
		return nil
	})
}

// openThread checks inside tx that v may reply to or react on thread id:
// v has tribe access and the thread is shown.
func (s *Service) openThread(ctx context.Context, tx *sql.Tx, v access.Viewer, id string) (author string, err error) {
	if !v.SeesPaidContent() {
		return "", ErrForMembers
	}
	author, category, hidden, err := s.lockThread(ctx, tx, id, "SHARE")
	if err != nil {
		return "", err
	}
	if err := sees(v, author, category, hidden); err != nil {
		return "", err
	}
	if hidden {
		return "", ErrHidden
	}
	return author, nil
}

// AddReply adds v's reply to a shown thread, which moves up the list;
// the asker, those who replied before and those mentioned are told.
func (s *Service) AddReply(ctx context.Context, v access.Viewer, threadID string, in ReplyInput) (*Reply, error) {
	if !v.SeesPaidContent() {
		return nil, ErrForMembers
	}
	body, err := community.CheckText("body", "Reply", in.Body, MaxReply, true)
	if err != nil {
		return nil, err
	}
	id := store.NewID()
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := s.openThread(ctx, tx, v, threadID); err != nil {
			return err
		}
		if err := allow(s.replies, v.UserID, "replies"); err != nil {
			return err
		}
		at := store.At(s.now())
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO forum_replies (id, thread_id, user_id, body, created_at) VALUES ($1, $2, $3, $4, $5)`,
			id, threadID, v.UserID, body, at); err != nil {
			return fmt.Errorf("reply to %s: %w", threadID, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE forum_threads SET last_activity_at = $1 WHERE id = $2`, at, threadID); err != nil {
			return fmt.Errorf("reply to %s: %w", threadID, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r, err := s.reply(ctx, v, id)
	if err != nil {
		return nil, err
	}
	s.noticeReply(ctx, r)
	return r, nil
}

// lockReply reads a reply's thread, author and whether it is hidden inside tx.
func (s *Service) lockReply(ctx context.Context, tx *sql.Tx, id string) (thread, author string, hidden bool, err error) {
	q := `SELECT thread_id, user_id, hidden_at IS NOT NULL FROM forum_replies WHERE id = $1`
	if s.db.Dialect == store.Postgres {
		q += ` FOR UPDATE`
	}
	err = tx.QueryRowContext(ctx, q, id).Scan(&thread, &author, &hidden)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", false, notFound("Reply")
	}
	if err != nil {
		return "", "", false, fmt.Errorf("read reply %s: %w", id, err)
	}
	return thread, author, hidden, nil
}

// replyInReach checks inside tx that v may see reply id and its thread,
// and returns them.
func (s *Service) replyInReach(ctx context.Context, tx *sql.Tx, v access.Viewer, id string) (thread, author string, hidden bool, err error) {
	thread, author, hidden, err = s.lockReply(ctx, tx, id)
	if err != nil {
		return "", "", false, err
	}
	if hidden && !v.Admin && author != v.UserID {
		return "", "", false, notFound("Reply")
	}
	tAuthor, category, tHidden, err := s.lockThread(ctx, tx, thread, "SHARE")
	if err != nil {
		return "", "", false, err
	}
	if err := sees(v, tAuthor, category, tHidden); err != nil {
		return "", "", false, err
	}
	return thread, author, hidden, nil
}

// UpdateReply changes v's own reply; it says it was edited.
func (s *Service) UpdateReply(ctx context.Context, v access.Viewer, id string, in ReplyInput) (*Reply, error) {
	body, err := community.CheckText("body", "Reply", in.Body, MaxReply, true)
	if err != nil {
		return nil, err
	}
	var before string
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		_, author, _, err := s.replyInReach(ctx, tx, v, id)
		if err != nil {
			return err
		}
		if author != v.UserID {
			return ErrNotAuthor
		}
		if err := tx.QueryRowContext(ctx, `SELECT body FROM forum_replies WHERE id = $1`, id).Scan(&before); err != nil {
			return fmt.Errorf("update reply %s: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE forum_replies SET body = $1, edited_at = $2 WHERE id = $3`,
			body, store.At(s.now()), id); err != nil {
			return fmt.Errorf("update reply %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r, err := s.reply(ctx, v, id)
	if err != nil {
		return nil, err
	}
	var title string
	if err := s.db.ReadRow(ctx, `SELECT title FROM forum_threads WHERE id = $1`, r.ThreadID).Scan(&title); err == nil {
		s.noticeMentions(ctx, v, r.ThreadID, title, r.Body, before, replyLink(r.ThreadID, r.ID))
	}
	return r, nil
}

// DeleteReply removes a reply (its author or an admin may); a thread whose
// accepted answer it was has none again.
func (s *Service) DeleteReply(ctx context.Context, v access.Viewer, id string) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		_, author, _, err := s.replyInReach(ctx, tx, v, id)
		if err != nil {
			return err
		}
		if author != v.UserID && !v.Admin {
			return ErrNotAuthorOrAdmin
		}
		if _, err := tx.ExecContext(ctx, `UPDATE forum_threads SET accepted_reply_id = NULL WHERE accepted_reply_id = $1`, id); err != nil {
			return fmt.Errorf("delete reply %s: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM forum_replies WHERE id = $1`, id); err != nil {
			return fmt.Errorf("delete reply %s: %w", id, err)
		}
		return nil
	})
}
