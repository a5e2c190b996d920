package notify

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"tribe/internal/community"
	"tribe/internal/mail"
)

// projectMailWindow is how far back a sweep looks for projects to announce:
// a project shared longer ago than that is the digest's, not news, which
// also keeps a first sweep after an upgrade from mailing old projects.
const projectMailWindow = 24 * time.Hour

// PlanProjectMails tells each cohort member who keeps "new projects in my
// cohort" on, with a confirmed address, about a project another member of
// their cohort shared, and returns how many mails it queued. The outbox
// key (project and reader) makes it once across sweeps and instances; a
// project hidden before the sweep is never announced.
func (s *Service) PlanProjectMails(ctx context.Context) (int, error) {
	projects, err := community.ProjectsSince(ctx, s.db, s.now().Add(-projectMailWindow))
	if err != nil || len(projects) == 0 {
		return 0, err
	}
	all, err := s.members(ctx)
	if err != nil {
		return 0, err
	}
	byID := make(map[string]*member, len(all))
	for _, m := range all {
		byID[m.UserID] = m
	}
	queued := 0
	for _, p := range projects {
		author := byID[p.AuthorID]
		if author == nil || author.CohortID == "" {
			continue
		}
		for _, m := range all {
			if m.UserID == p.AuthorID || m.CohortID != author.CohortID || !m.Confirmed || !m.Settings.CohortProjects {
				continue
			}
			ok, err := s.announceProject(ctx, m, author.Cohort, p)
			if err != nil {
				return queued, fmt.Errorf("plan project mail of %s: %w", p.ID, err)
			}
			if ok {
				queued++
			}
		}
	}
	return queued, nil
}

func (s *Service) announceProject(ctx context.Context, m *member, cohort string, p community.Project) (bool, error) {
	paras := []string{m.greeting(), p.AuthorName + " from your cohort " + cohort + " shared a project: " + p.Title + "."}
	if d := strings.TrimSpace(p.Description); d != "" {
		paras = append(paras, d)
	}
	paras = append(paras, "See it: "+p.Link, "React and comment on the projects board.")
	msg, err := s.OptOut(ctx, m.UserID, KindCohortProjects, mail.Content{
		To: m.Email, Subject: p.AuthorName + " shared " + p.Title, Heading: "New in your cohort: " + p.Title,
		Paragraphs: paras, Button: &mail.Link{Label: "Open the projects board", URL: s.baseURL + "/members"},
	})
	if err != nil {
		return false, err
	}
	queued := false
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		// Hidden or deleted since the list was read: not news any more.
		var shown bool
		err := tx.QueryRowContext(ctx, `SELECT hidden_at IS NULL FROM projects WHERE id = $1`, p.ID).Scan(&shown)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && !shown) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read project %s: %w", p.ID, err)
		}
		queued, err = mail.EnqueueOnce(ctx, tx, "cohort-project-"+p.ID+"-"+m.UserID, msg)
		return err
	})
	return queued, err
}
