package notify

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// Defaults is what a member gets before choosing: every mail, since each
// is about their own participation and the digest waits for 7 days away.
var Defaults = Settings{SessionReminders: true, WeeklyDigest: true, CohortProjects: true, LevelReached: true}

// The kinds of mail a member may turn off, as the settings' JSON names them.
const (
	KindSessionReminders = "session_reminders"
	KindWeeklyDigest     = "weekly_digest"
	KindCohortProjects   = "cohort_projects"
	KindLevelReached     = "level_reached"
)

// kindLabels name each kind for people, on the unsubscribe page and in mail.
var kindLabels = map[string]string{
	KindSessionReminders: "session reminders",
	KindWeeklyDigest:     "the weekly digest",
	KindCohortProjects:   "new projects in your cohort",
	KindLevelReached:     "level congratulations",
}

// KindLabel names a kind of mail for people; empty for an unknown kind.
func KindLabel(kind string) string { return kindLabels[kind] }

var errZone = errs.Field("time_zone", "Choose a time zone from the list (for example Europe/Paris).")

const settingsColumns = `session_reminders, weekly_digest, cohort_projects, level_reached, time_zone`

// SettingsOf is the member's settings, the defaults where they chose none.
func (s *Service) SettingsOf(ctx context.Context, userID string) (Settings, error) {
	return readSettings(ctx, s.db.Read, userID)
}

func readSettings(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, userID string) (Settings, error) {
	st := Defaults
	err := q.QueryRowContext(ctx, `SELECT `+settingsColumns+` FROM notification_settings WHERE user_id = $1`, userID).
		Scan(&st.SessionReminders, &st.WeeklyDigest, &st.CohortProjects, &st.LevelReached, &st.TimeZone)
	if errors.Is(err, sql.ErrNoRows) {
		return Defaults, nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("read notification settings of %s: %w", userID, err)
	}
	return st, nil
}

// UpdateSettings changes the fields in given and returns the result. A
// zone must be one the server knows (IANA names); empty clears it.
func (s *Service) UpdateSettings(ctx context.Context, userID string, in SettingsInput) (Settings, error) {
	if in.TimeZone != nil {
		z := strings.TrimSpace(*in.TimeZone)
		if z != "" {
			if len(z) > 64 {
				return Settings{}, errZone
			}
			if _, err := content.LoadZone(z); err != nil {
				return Settings{}, errZone
			}
		}
		in.TimeZone = &z
	}
	var out Settings
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		st, err := readSettings(ctx, tx, userID)
		if err != nil {
			return err
		}
		set := func(dst *bool, v *bool) {
			if v != nil {
				*dst = *v
			}
		}
		set(&st.SessionReminders, in.SessionReminders)
		set(&st.WeeklyDigest, in.WeeklyDigest)
		set(&st.CohortProjects, in.CohortProjects)
		set(&st.LevelReached, in.LevelReached)
		if in.TimeZone != nil {
			st.TimeZone = *in.TimeZone
		}
		if err := writeSettings(ctx, tx, userID, st, store.At(s.now())); err != nil {
			return err
		}
		out = st
		return nil
	})
	return out, err
}

// AdoptTimeZone saves zone as the member's reminder time zone unless they
// already have one: the browser's zone, sent at sign-in and on the first
// visit of the members area, so a member who never opens Profile is not
// reminded in UTC. A zone the server does not know is left out, not an
// error: the browser's guess must never fail a sign-in. Reports whether
// it was saved.
func (s *Service) AdoptTimeZone(ctx context.Context, userID, zone string) (bool, error) {
	z := strings.TrimSpace(zone)
	if z == "" || len(z) > 64 {
		return false, nil
	}
	if _, err := content.LoadZone(z); err != nil {
		return false, nil
	}
	saved := false
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		st, err := readSettings(ctx, tx, userID)
		if err != nil || st.TimeZone != "" {
			return err
		}
		st.TimeZone = z
		saved = true
		return writeSettings(ctx, tx, userID, st, store.At(s.now()))
	})
	if err != nil {
		return false, fmt.Errorf("adopt the time zone of %s: %w", userID, err)
	}
	return saved, nil
}

func writeSettings(ctx context.Context, tx *sql.Tx, userID string, st Settings, at store.Time) error {
	_, err := tx.ExecContext(ctx,
		`INSERT INTO notification_settings (user_id, `+settingsColumns+`, updated_at)
		 SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM users WHERE id = $1)
		 ON CONFLICT (user_id) DO UPDATE SET session_reminders = excluded.session_reminders,
		     weekly_digest = excluded.weekly_digest, cohort_projects = excluded.cohort_projects,
		     level_reached = excluded.level_reached, time_zone = excluded.time_zone, updated_at = excluded.updated_at`,
		userID, st.SessionReminders, st.WeeklyDigest, st.CohortProjects, st.LevelReached, st.TimeZone, at)
	if err != nil {
		return fmt.Errorf("save notification settings of %s: %w", userID, err)
	}
	return nil
}

// optOutKind is a kind of mail another package sends and lets members stop
// with the same one-click links (AddOptOut).
type optOutKind struct {
	label string
	off   func(ctx context.Context, userID string) error
}

// AddOptOut lets kind of mail, sent by another package through OptOut, be
// stopped with the one-click unsubscribe links: label names it for people
// (plural: "mentions"), off turns it off for a member. Call it while
// building the services, before any request.
func (s *Service) AddOptOut(kind, label string, off func(ctx context.Context, userID string) error) {
	s.extraMu.Lock()
	defer s.extraMu.Unlock()
	if s.extra == nil {
		s.extra = map[string]optOutKind{}
	}
	s.extra[kind] = optOutKind{label: label, off: off}
}

// Label names a kind of mail for people, the settings' kinds and those
// added with AddOptOut; empty for an unknown kind.
func (s *Service) Label(kind string) string {
	if l := KindLabel(kind); l != "" {
		return l
	}
	s.extraMu.Lock()
	defer s.extraMu.Unlock()
	return s.extra[kind].label
}

// turnOff sets one kind of mail off for the member.
func (s *Service) turnOff(ctx context.Context, userID, kind string) error {
	s.extraMu.Lock()
	extra, ok := s.extra[kind]
	s.extraMu.Unlock()
	if ok {
		return extra.off(ctx, userID)
	}
	f := false
	in := SettingsInput{}
	switch kind {
	case KindSessionReminders:
		in.SessionReminders = &f
	case KindWeeklyDigest:
		in.WeeklyDigest = &f
	case KindCohortProjects:
		in.CohortProjects = &f
	case KindLevelReached:
		in.LevelReached = &f
	default:
		return errBadToken
	}
	_, err := s.UpdateSettings(ctx, userID, in)
	return err
}
