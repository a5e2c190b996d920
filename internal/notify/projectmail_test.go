package notify

import (
	"context"
	"strings"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/community"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// "New projects in my cohort" was a setting with no mail behind it: a
// project shared in a cohort now reaches its other members who keep it on,
// once across two instances; not the author, not another cohort, not a
// member who turned it off, never a project hidden first or an old one.
func TestCohortProjectMailOnceToTheCohortOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2027, time.March, 3, 9, 0, 0, 0, time.UTC)
		f := newFixture(t, db, now)
		other := instance(db, f.clock)
		ada := f.user("ada", "active")
		bob := f.user("bob", "active")
		cy := f.user("cy", "active")
		f.user("dan", "active") // in no cohort: gets nothing
		off := false
		if _, err := f.svc.UpdateSettings(ctx, cy, SettingsInput{CohortProjects: &off}); err != nil {
			t.Fatal(err)
		}
		cohort, err := community.CreateCohort(ctx, db, ada, community.CohortInput{Name: "Builders"})
		if err != nil {
			t.Fatal(err)
		}
		for _, who := range []string{bob, cy} {
			f.exec(`INSERT INTO cohort_members (id, cohort_id, user_id, joined_at) VALUES ($1, $2, $3, $4)`,
				store.NewID(), cohort.ID, who, store.At(now.Add(-24*time.Hour)))
		}
		share := func(title string, at time.Time) *community.Project {
			p, err := community.CreateProject(ctx, db, access.Viewer{UserID: ada, Member: true},
				community.ProjectInput{Title: title, Link: "https://" + strings.ToLower(strings.ReplaceAll(title, " ", "-")) + ".example",
					Description: "An agent that plans."}, at)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		share("Planner agent", now.Add(-time.Hour))
		share("Old notebook", now.Add(-3*24*time.Hour))
		hidden := share("Draft", now.Add(-time.Minute))
		f.exec(`UPDATE projects SET hidden_at = $1, hidden_reason = 'spam' WHERE id = $2`, store.At(now), hidden.ID)
		sweep := func() {
			t.Helper()
			atOnce(t, []*Service{f.svc, other}, func(s *Service) error { _, err := s.PlanProjectMails(ctx); return err })
		}
		sweep()
		sweep()
		got := f.queued("cohort-project-")
		if want := "bob@example.com | Ada shared Planner agent"; strings.Join(got, "\n") != want {
			t.Fatalf("project mails:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
		}
	})
}
