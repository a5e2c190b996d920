// Package community holds the members area's domain: profiles and avatars,
// cohorts, live sessions with their time-zone math, iCalendar files and the
// private calendar feeds. It owns the tables profiles (member-editable
// fields), cohorts, cohort_members, live_sessions and calendar_feeds.
package community

import (
	"errors"

	_ "time/tzdata" // session time zones must resolve on hosts without zoneinfo
)

// ErrNotFound is a missing cohort, session, profile or feed.
var ErrNotFound = errors.New("not found")

// Problem is a refusal whose text is written for the member and shown as is.
type Problem string

func (p Problem) Error() string { return string(p) }

// Refusals the HTTP layer turns into statuses.
const (
	ErrNotCreator      Problem = "Only the cohort's creator can do that."
	ErrAlreadyInCohort Problem = "You are already in a cohort. Leave it first."
	ErrCohortFull      Problem = "This cohort is full."
	ErrNotMember       Problem = "You are not a member of this cohort."
)

// ValidationError is bad input; Message names the field and is shown as is.
type ValidationError struct {
	Field   string
	Message string
}

func (e *ValidationError) Error() string { return e.Message }

func invalid(field, message string) error { return &ValidationError{Field: field, Message: message} }
