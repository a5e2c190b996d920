package notify

import (
	"context"
	"database/sql"
	"fmt"

	"tribe/internal/levels"
	"tribe/internal/mail"
)

// A level is computed, never stored (internal/levels), so a rise is seen by
// comparing the computed level with the last one the member was told about
// by mail (member_activity.level_announced). The comparison and the update
// happen under the member's activity row lock, with an outbox key per
// member and level, so the congratulation goes once across instances. A
// member who turned the mail off is still recorded as told, so turning it
// on later does not send old news; and a member who existed before level
// mail (member_activity.level_baseline, set by migration 0014) has the
// level they already had recorded silently. The in-app congratulation is the level
// dialog's own (levels.Progress.Reached).

// PlanLevelMails queues a congratulation to each member whose level rose
// since they were last told, and returns how many.
func (s *Service) PlanLevelMails(ctx context.Context) (int, error) {
	rows, err := s.db.ReadRows(ctx, `SELECT u.id, u.email, COALESCE(p.full_name, ''), u.email_confirmed_at IS NOT NULL, COALESCE(ma.level_announced, '')
		FROM users u JOIN profiles p ON p.id = u.id LEFT JOIN member_activity ma ON ma.user_id = u.id
		WHERE EXISTS (SELECT 1 FROM session_attendance a WHERE a.user_id = u.id)
		   OR EXISTS (SELECT 1 FROM awards w WHERE w.user_id = u.id AND w.status = 'accepted')
		   OR EXISTS (SELECT 1 FROM projects pr WHERE pr.user_id = u.id AND pr.hidden_at IS NULL)
		ORDER BY u.id`)
	if err != nil {
		return 0, fmt.Errorf("plan level mail: %w", err)
	}
	type candidate struct {
		recipient
		confirmed bool
		announced string
	}
	var cands []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.UserID, &c.Email, &c.Name, &c.confirmed, &c.announced); err != nil {
			_ = rows.Close()
			return 0, fmt.Errorf("plan level mail: %w", err)
		}
		cands = append(cands, c)
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("plan level mail: %w", err)
	}
	queued := 0
	for _, c := range cands {
		counts, err := s.levels.CountsOf(ctx, c.UserID)
		if err != nil {
			return queued, err
		}
		st := levels.Compute(counts)
		if st.Rank <= max(1, levels.RankOf(c.announced)) {
			continue
		}
		ok, err := s.announceLevel(ctx, c.recipient, c.confirmed, st)
		if err != nil {
			return queued, fmt.Errorf("plan level mail of %s: %w", c.UserID, err)
		}
		if ok {
			queued++
		}
	}
	return queued, nil
}

func (s *Service) announceLevel(ctx context.Context, rc recipient, confirmed bool, st levels.Standing) (bool, error) {
	settings, err := s.SettingsOf(ctx, rc.UserID)
	if err != nil {
		return false, err
	}
	var msg *mail.Message
	if confirmed && settings.LevelReached {
		paras := []string{rc.greeting(), "You reached " + st.Level + " in the tribe: the sessions you came to and what you gave made it happen."}
		if st.Next != nil {
			paras = append(paras, "Next up: "+st.Next.Level+". Your Tribe Level in the members area shows what it takes.")
		} else {
			paras = append(paras, "That is the highest level there is. Thank you for all you bring to the tribe.")
		}
		m, err := s.OptOut(ctx, rc.UserID, KindLevelReached, mail.Content{
			To: rc.Email, Subject: "You reached " + st.Level + "!", Heading: "Congratulations, you reached " + st.Level,
			Paragraphs: paras, Button: &mail.Link{Label: "See your progress", URL: s.baseURL + "/members"},
		})
		if err != nil {
			return false, err
		}
		msg = &m
	}
	queued, rose := false, false
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		_, announced, err := s.lockActivity(ctx, tx, rc.UserID)
		if err != nil {
			return err
		}
		if st.Rank <= max(1, levels.RankOf(announced)) {
			return nil
		}
		var baseline bool
		if err := tx.QueryRowContext(ctx, `SELECT level_baseline FROM member_activity WHERE user_id = $1`, rc.UserID).Scan(&baseline); err != nil {
			return fmt.Errorf("read level baseline: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE member_activity SET level_announced = $1, level_baseline = $2 WHERE user_id = $3`,
			st.Level, false, rc.UserID); err != nil {
			return fmt.Errorf("record level announced: %w", err)
		}
		rose = !baseline
		if msg == nil || baseline {
			return nil
		}
		queued, err = mail.EnqueueOnce(ctx, tx, "level-reached-"+rc.UserID+"-"+st.Level, *msg)
		return err
	})
	// The rise is recorded once between instances (the row lock above), so
	// the notification centre hears of it once too.
	if err == nil && rose && s.inApp != nil {
		if ierr := s.inApp(ctx, rc.UserID, "level", "You reached "+st.Level+"!",
			"The sessions you came to and what you gave made it happen.", "/members"); ierr != nil {
			s.logger.Warn("level notification not recorded", "user", rc.UserID, "err", ierr)
		}
	}
	return queued, err
}
