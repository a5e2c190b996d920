package levels

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// Kinds of award. Each accepted award counts one towards the member's
// contributions, members mentored or workshops led.
const (
	KindContribution = "contribution"
	KindMentoring    = "mentoring"
	KindWorkshop     = "workshop"
)

// Award statuses: a member's suggestion waits for an admin; an award an
// admin gave, or a suggestion an admin accepted, counts.
const (
	StatusSuggested = "suggested"
	StatusAccepted  = "accepted"
)

// MaxNote is the longest note an award may carry, in characters.
const MaxNote = 500

// MaxPendingSuggestions is how many suggestions a member may have waiting
// for an admin at once.
const MaxPendingSuggestions = 5

var (
	errLevelName     = errs.Field("level", "Level must be one of Apprentice, Contributor, Builder, Expert or Master.")
	errNotReached    = errs.New(errs.Conflict, "You have not reached that level yet.")
	errKind          = errs.Field("kind", "Kind must be contribution, mentoring or workshop.")
	errNoNote        = errs.Field("note", "Please add a note saying what the award is for.")
	errLongNote      = errs.Field("note", fmt.Sprintf("The note must be at most %d characters.", MaxNote))
	errBadNote       = errs.Field("note", "The note contains characters that cannot be stored.")
	errNoMember      = errs.Field("user_id", "Choose the member to award.")
	errAwardNotFound = errs.New(errs.NotFound, "Award not found.")
	errMemberMissing = errs.New(errs.NotFound, "Member not found.")
	errAccepted      = errs.New(errs.Conflict, "This award was already accepted.")
	// ErrSuggestForMembers refuses a suggestion from a free member: levels
	// are earned in the tribe.
	ErrSuggestForMembers = errs.New(errs.Forbidden, "Suggestions are for tribe members: subscribe to take part in the sessions and earn levels.")
	errTooManyPending    = errs.New(errs.Conflict, fmt.Sprintf("You have %d suggestions waiting for an admin. Please wait until they are looked at.", MaxPendingSuggestions))
)

// checkAward trims and checks a kind and a note.
func checkAward(kind, note string) (string, string, error) {
	kind, note = strings.TrimSpace(kind), strings.TrimSpace(note)
	switch kind {
	case KindContribution, KindMentoring, KindWorkshop:
	default:
		return "", "", errKind
	}
	switch {
	case !utf8.ValidString(note) || strings.ContainsRune(note, 0):
		return "", "", errBadNote
	case note == "":
		return "", "", errNoNote
	case utf8.RuneCountInString(note) > MaxNote:
		return "", "", errLongNote
	}
	return kind, note, nil
}

// Give records an award an admin gives to a member; it counts at once.
func (s *Service) Give(ctx context.Context, adminID string, in AwardInput) (*Award, error) {
	userID := strings.TrimSpace(in.UserID)
	if userID == "" {
		return nil, errNoMember
	}
	kind, note, err := checkAward(in.Kind, in.Note)
	if err != nil {
		return nil, err
	}
	now := store.At(s.now())
	id := store.NewID()
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := userExists(ctx, tx, userID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx,
			`INSERT INTO awards (id, user_id, kind, note, status, suggested, awarded_by, awarded_at, created_at)
			 VALUES ($1, $2, $3, $4, 'accepted', FALSE, $5, $6, $6)`,
			id, userID, kind, note, nullable(adminID), now)
		if err != nil {
			return fmt.Errorf("give award: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.award(ctx, id)
}

// Suggest records a member's suggestion of an award for themselves; it
// counts once an admin accepts it. Only those with tribe access suggest,
// with at most MaxPendingSuggestions waiting at once.
func (s *Service) Suggest(ctx context.Context, v access.Viewer, in SuggestionInput) (*Award, error) {
	if !v.SeesPaidContent() {
		return nil, ErrSuggestForMembers
	}
	kind, note, err := checkAward(in.Kind, in.Note)
	if err != nil {
		return nil, err
	}
	now := store.At(s.now())
	id := store.NewID()
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		// The member's row orders their suggestions on PostgreSQL, so two at
		// once cannot both pass the cap; SQLite's write lock already does.
		q := `SELECT 1 FROM users WHERE id = $1`
		if s.db.Dialect == store.Postgres {
			q += ` FOR UPDATE`
		}
		var one int
		if err := tx.QueryRowContext(ctx, q, v.UserID).Scan(&one); err != nil {
			return fmt.Errorf("lock member %s: %w", v.UserID, err)
		}
		var pending int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM awards WHERE user_id = $1 AND status = 'suggested'`, v.UserID).Scan(&pending); err != nil {
			return fmt.Errorf("count suggestions of %s: %w", v.UserID, err)
		}
		if pending >= MaxPendingSuggestions {
			return errTooManyPending
		}
		_, err := tx.ExecContext(ctx,
			`INSERT INTO awards (id, user_id, kind, note, status, suggested, created_at)
			 VALUES ($1, $2, $3, $4, 'suggested', TRUE, $5)`,
			id, v.UserID, kind, note, now)
		if err != nil {
			return fmt.Errorf("suggest award: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.award(ctx, id)
}

// Accept makes a member's suggestion count, recording the admin who
// accepted it.
func (s *Service) Accept(ctx context.Context, adminID, id string) (*Award, error) {
	res, err := s.db.Write.ExecContext(ctx,
		`UPDATE awards SET status = 'accepted', awarded_by = $1, awarded_at = $2 WHERE id = $3 AND status = 'suggested'`,
		nullable(adminID), store.At(s.now()), id)
	if err != nil {
		return nil, fmt.Errorf("accept award %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, fmt.Errorf("accept award %s: %w", id, err)
	} else if n == 0 {
		a, err := s.award(ctx, id)
		if err != nil {
			return nil, err
		}
		if a.Status == StatusAccepted {
			return nil, errAccepted
		}
		return nil, errAwardNotFound
	}
	return s.award(ctx, id)
}

// Remove deletes an award or declines a suggestion, and returns whose it
// was.
func (s *Service) Remove(ctx context.Context, id string) (userID string, err error) {
	err = s.db.Write.QueryRowContext(ctx, `DELETE FROM awards WHERE id = $1 RETURNING user_id`, id).Scan(&userID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errAwardNotFound
	}
	if err != nil {
		return "", fmt.Errorf("remove award %s: %w", id, err)
	}
	return userID, nil
}

// List is every award, suggestions waiting first, then newest first.
func (s *Service) List(ctx context.Context) ([]Award, error) {
	return s.awards(ctx, `ORDER BY CASE WHEN a.status = 'suggested' THEN 0 ELSE 1 END, a.created_at DESC, a.id`)
}

// Mine is the user's own awards and suggestions, newest first.
func (s *Service) Mine(ctx context.Context, userID string) ([]Award, error) {
	return s.awards(ctx, `WHERE a.user_id = $1 ORDER BY a.created_at DESC, a.id`, userID)
}

const awardColumns = `a.id, a.user_id, COALESCE(p.full_name, ''), a.kind, a.note, a.status, a.suggested, ap.full_name, a.awarded_at, a.created_at
	FROM awards a LEFT JOIN profiles p ON p.id = a.user_id LEFT JOIN profiles ap ON ap.id = a.awarded_by `

func (s *Service) awards(ctx context.Context, tail string, args ...any) ([]Award, error) {
	rows, err := s.db.Read.QueryContext(ctx, `SELECT `+awardColumns+tail, args...)
	if err != nil {
		return nil, fmt.Errorf("list awards: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []Award{}
	for rows.Next() {
		a, err := scanAward(rows)
		if err != nil {
			return nil, fmt.Errorf("list awards: %w", err)
		}
		out = append(out, *a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list awards: %w", err)
	}
	return out, nil
}

func (s *Service) award(ctx context.Context, id string) (*Award, error) {
	a, err := scanAward(s.db.Read.QueryRowContext(ctx, `SELECT `+awardColumns+`WHERE a.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errAwardNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read award %s: %w", id, err)
	}
	return a, nil
}

func scanAward(row interface{ Scan(...any) error }) (*Award, error) {
	var (
		a       Award
		by      sql.NullString
		awarded store.NullTime
		created store.Time
	)
	if err := row.Scan(&a.ID, &a.UserID, &a.MemberName, &a.Kind, &a.Note, &a.Status, &a.Suggested, &by, &awarded, &created); err != nil {
		return nil, err
	}
	if by.Valid && a.Status == StatusAccepted {
		name := by.String
		a.AwardedBy = &name
	}
	if awarded.Valid {
		t := awarded.Time.Time
		a.AwardedAt = &t
	}
	a.CreatedAt = created.Time
	return &a, nil
}

func userExists(ctx context.Context, tx *sql.Tx, userID string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM users WHERE id = $1`, userID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return errMemberMissing
	}
	if err != nil {
		return fmt.Errorf("read member %s: %w", userID, err)
	}
	return nil
}

// nullable is NULL for an empty id (an operator tool rather than a
// signed-in admin).
func nullable(id string) any {
	if id == "" {
		return nil
	}
	return id
}
