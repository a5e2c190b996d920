// Package community holds the members area's domain: profiles and avatars,
// cohorts, live sessions with their time-zone math, iCalendar files, the
// private calendar feeds, RSVPs and attendance, the projects board and the
// member directory. It owns the tables profiles (member-editable fields),
// cohorts, cohort_members, live_sessions, calendar_feeds, session_rsvps,
// session_attendance, projects, project_reactions and project_comments.
package community

import (
	_ "time/tzdata" // session time zones must resolve on hosts without zoneinfo

	"tribe/internal/errs"
)

// Refusals a member reads as they are.
var (
	ErrNotCreator      = errs.New(errs.Forbidden, "Only the cohort's creator can do that.")
	ErrAlreadyInCohort = errs.New(errs.AlreadyInCohort, "You are already in a cohort. Leave it first.")
	ErrCohortFull      = errs.New(errs.CohortFull, "This cohort is full.")
	ErrNotMember       = errs.New(errs.NotMember, "You are not a member of this cohort.")
)

// notFound names the missing thing: "Cohort not found.".
func notFound(what string) error { return errs.New(errs.NotFound, what+" not found.") }
