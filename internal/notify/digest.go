package notify

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"time"

	"tribe/internal/billing"
	"tribe/internal/booking"
	"tribe/internal/community"
	"tribe/internal/forum"
	"tribe/internal/mail"
	"tribe/internal/plural"
	"tribe/internal/store"
)

// The weekly digest is a re-engagement mail, not noise: it goes only to a
// member away for AwayFor (no visit, RSVP or join), at most once per
// DigestEvery, and only when there is something to tell. Deciding and
// queueing happen under the member's activity row lock with an outbox key
// per member and week, so two instances queue it once between them.
const (
	AwayFor     = 7 * 24 * time.Hour
	DigestEvery = 7 * 24 * time.Hour
	// digestAhead is how far ahead the digest lists sessions.
	digestAhead = 14 * 24 * time.Hour
	// digestSessions is the most sessions one digest lists.
	digestSessions = 5
)

// digestProjects is the most new projects one digest lists.
const digestProjects = 5

// digestThreads is the most threads, and the most open questions, one
// digest lists.
const digestThreads = 3

// PlanDigests queues the weekly digests due and returns how many.
func (s *Service) PlanDigests(ctx context.Context) (int, error) {
	now := s.now()
	all, err := s.members(ctx)
	if err != nil {
		return 0, err
	}
	var due []*member
	for _, m := range all {
		if m.Confirmed && m.Settings.WeeklyDigest && digestDue(m, now) {
			due = append(due, m)
		}
	}
	if len(due) == 0 {
		return 0, nil
	}
	sessions, err := community.Sessions(ctx, s.db)
	if err != nil {
		return 0, err
	}
	queued := 0
	for _, m := range due {
		ok, err := s.digest(ctx, m, all, sessions, now)
		if err != nil {
			return queued, fmt.Errorf("plan digest of %s: %w", m.UserID, err)
		}
		if ok {
			queued++
		}
	}
	return queued, nil
}

// digestDue: away long enough, and no digest within the week.
func digestDue(m *member, now time.Time) bool {
	if now.Sub(m.awaySince()) < AwayFor {
		return false
	}
	return m.DigestAt == nil || now.Sub(*m.DigestAt) >= DigestEvery
}

// digest queues one member's digest if there is news for them.
func (s *Service) digest(ctx context.Context, m *member, all []*member, sessions []*community.Session, now time.Time) (bool, error) {
	since := m.awaySince()
	if m.DigestAt != nil && m.DigestAt.After(since) {
		since = *m.DigestAt
	}
	c, ok, err := s.digestContent(ctx, m, all, sessions, since, now)
	if err != nil || !ok {
		return false, err
	}
	msg, err := s.OptOut(ctx, m.UserID, KindWeeklyDigest, c)
	if err != nil {
		return false, err
	}
	queued := false
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		digestAt, _, err := s.lockActivity(ctx, tx, m.UserID)
		if err != nil {
			return err
		}
		if digestAt != nil && now.Sub(*digestAt) < DigestEvery {
			return nil // another instance sent it meanwhile
		}
		if _, err := tx.ExecContext(ctx, `UPDATE member_activity SET digest_at = $1 WHERE user_id = $2`, store.At(now), m.UserID); err != nil {
			return fmt.Errorf("record digest: %w", err)
		}
		week := now.Unix() / int64(DigestEvery/time.Second)
		queued, err = mail.EnqueueOnce(ctx, tx, fmt.Sprintf("weekly-digest-%s-%d", m.UserID, week), msg)
		return err
	})
	return queued, err
}

// digestContent writes the digest: upcoming sessions, new projects, new
// members and the cohort's news since the member was last active. ok is
// false when there is nothing to tell.
func (s *Service) digestContent(ctx context.Context, m *member, all []*member, sessions []*community.Session, since, now time.Time) (mail.Content, bool, error) {
	var paras []string
	zone := m.Zone
	var upcoming []string
	for _, sess := range sessions {
		if sess.Status == "cancelled" || !sess.StartsAt.After(now) || sess.StartsAt.After(now.Add(digestAhead)) {
			continue
		}
		z := zone
		if z == "" {
			z = sess.Timezone
		}
		upcoming = append(upcoming, "• "+sess.Title+": "+booking.When(sess.StartsAt, z))
		if len(upcoming) == digestSessions {
			break
		}
	}
	if len(upcoming) > 0 {
		paras = append(paras, "Coming up (say whether you are going on each one, your place is kept for you): "+
			s.baseURL+"/members\n"+strings.Join(upcoming, "\n"))
	}
	if m.Settings.CohortProjects {
		lines, err := s.newProjects(ctx, m, all, since)
		if err != nil {
			return mail.Content{}, false, err
		}
		if len(lines) > 0 {
			paras = append(paras, "New projects on the board ("+s.baseURL+"/members):\n"+strings.Join(lines, "\n"))
		}
	}
	// The week's community, for those who may read it: its busiest threads
	// and the questions waiting for an answer (internal/forum decides what
	// everyone may see; billing, who has access).
	var top, open []forum.Highlight
	member, err := billing.HasAccess(ctx, s.db, m.UserID)
	if err != nil {
		return mail.Content{}, false, err
	}
	if member {
		from := since
		if week := now.Add(-7 * 24 * time.Hour); week.After(from) {
			from = week
		}
		if top, open, err = forum.Highlights(ctx, s.db, from, digestThreads); err != nil {
			return mail.Content{}, false, err
		}
	}
	if len(top) > 0 {
		lines := make([]string, 0, len(top))
		for _, h := range top {
			lines = append(lines, "• "+h.Title+" ("+plural.Count(h.Replies, "reply", "replies")+"): "+s.baseURL+h.Link)
		}
		paras = append(paras, "This week's top threads in the community:\n"+strings.Join(lines, "\n"))
	}
	if len(open) > 0 {
		lines := make([]string, 0, len(open))
		for _, h := range open {
			lines = append(lines, "• "+h.Title+": "+s.baseURL+h.Link)
		}
		paras = append(paras, "Questions waiting for an answer:\n"+strings.Join(lines, "\n"))
	}
	newMembers, cohortNews := 0, []string{}
	for _, o := range all {
		if o.UserID == m.UserID || !o.CreatedAt.After(since) {
			continue
		}
		newMembers++
	}
	if m.CohortID != "" {
		for _, o := range all {
			if o.UserID != m.UserID && o.CohortID == m.CohortID && o.CohortJoined != nil && o.CohortJoined.After(since) && o.Name != "" {
				cohortNews = append(cohortNews, o.Name)
			}
		}
	}
	if newMembers > 0 {
		paras = append(paras, plural.Count(newMembers, "new member", "new members")+" joined the tribe since your last visit.")
	}
	if len(cohortNews) > 0 {
		sort.Strings(cohortNews)
		paras = append(paras, "In your cohort "+m.Cohort+": "+strings.Join(cohortNews, ", ")+" joined.")
	}
	if len(paras) == 0 {
		return mail.Content{}, false, nil
	}
	days := int(now.Sub(since) / (24 * time.Hour))
	intro := "Here is what happened in the tribe in the " + plural.Count(days, "day", "days") + " since you were last here."
	return mail.Content{
		To:         m.Email,
		Subject:    "What you missed in the tribe",
		Heading:    "What you missed in the tribe",
		Paragraphs: append([]string{m.greeting(), intro}, paras...),
		Button:     &mail.Link{Label: "Open the members area", URL: s.baseURL + "/members"},
	}, true, nil
}

// newProjects lists the projects others shared since a time, those of the
// member's cohort first, as digest lines.
func (s *Service) newProjects(ctx context.Context, m *member, all []*member, since time.Time) ([]string, error) {
	projects, err := community.ProjectsSince(ctx, s.db, since)
	if err != nil {
		return nil, err
	}
	cohortOf := make(map[string]string, len(all))
	for _, o := range all {
		cohortOf[o.UserID] = o.CohortID
	}
	mine := func(p community.Project) bool { return m.CohortID != "" && cohortOf[p.AuthorID] == m.CohortID }
	sort.SliceStable(projects, func(i, j int) bool { return mine(projects[i]) && !mine(projects[j]) })
	var lines []string
	for _, p := range projects {
		if p.AuthorID == m.UserID {
			continue
		}
		line := "• " + p.Title + " by " + p.AuthorName + ": " + p.Link
		if mine(p) {
			line += " (your cohort)"
		}
		lines = append(lines, line)
		if len(lines) == digestProjects {
			break
		}
	}
	return lines, nil
}
