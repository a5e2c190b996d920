package notify

import (
	"context"
	"fmt"
	"sort"
	"time"

	"tribe/internal/community"
	"tribe/internal/levels"
)

// The at-risk rules: who an owner should write to before the cancellation
// arrives.
const (
	// NotSeenFor is how long without a visit, RSVP or join puts a member
	// at risk.
	NotSeenFor = 14 * 24 * time.Hour
	// MissedInARow is how many of the latest sessions a member must have
	// missed, counting only sessions since they subscribed.
	MissedInARow = 2
)

// Reasons a member is at risk, as the JSON names them.
const (
	ReasonMissedSessions = "missed_sessions"
	ReasonNotSeen        = "not_seen"
	ReasonPaymentFailed  = "payment_failed"
)

// AtRisk lists the members with a membership (or one whose payment
// failed) who missed the last MissedInARow sessions, have not been seen for
// NotSeenFor, or whose payment failed: longest away first.
func (s *Service) AtRisk(ctx context.Context) (AtRiskList, error) {
	now := s.now()
	out := AtRiskList{Members: []AtRiskMember{}, NotSeenDays: int(NotSeenFor / (24 * time.Hour)), MissedSessions: MissedInARow}
	all, err := s.members(ctx)
	if err != nil {
		return out, err
	}
	sessions, err := community.Sessions(ctx, s.db)
	if err != nil {
		return out, err
	}
	var ended []*community.Session // newest first
	for i := len(sessions) - 1; i >= 0; i-- {
		if x := sessions[i]; x.Status != "cancelled" && !x.EndsAt.After(now) {
			ended = append(ended, x)
		}
	}
	sort.SliceStable(ended, func(i, j int) bool { return ended[i].StartsAt.After(ended[j].StartsAt) })
	attended, err := s.attended(ctx)
	if err != nil {
		return out, err
	}
	for _, m := range all {
		var reasons []string
		switch m.Subscription {
		case "active", "trialing":
		case "past_due", "unpaid":
			reasons = append(reasons, ReasonPaymentFailed)
		default:
			continue // not a member: no subscription, or it ended
		}
		if missedLast(m, ended, attended) {
			reasons = append(reasons, ReasonMissedSessions)
		}
		if now.Sub(m.awaySince()) >= NotSeenFor {
			reasons = append(reasons, ReasonNotSeen)
		}
		if len(reasons) == 0 {
			continue
		}
		counts, err := s.levels.CountsOf(ctx, m.UserID)
		if err != nil {
			return out, err
		}
		row := AtRiskMember{
			UserID: m.UserID, FullName: m.Name, Email: m.Email, Reasons: reasons, LastSeenAt: m.LastSeen,
			LastActivityAt: m.lastActivity(), Level: levels.Compute(counts).Level, SubscriptionStatus: m.Subscription,
		}
		if m.Cohort != "" {
			name := m.Cohort
			row.Cohort = &name
		}
		out.Members = append(out.Members, row)
	}
	sort.SliceStable(out.Members, func(i, j int) bool {
		a, b := out.Members[i].LastActivityAt, out.Members[j].LastActivityAt
		switch {
		case a == nil || b == nil:
			return a == nil && b != nil
		default:
			return a.Before(*b)
		}
	})
	return out, nil
}

// missedLast: the member was not present at any of the latest MissedInARow
// sessions held since they subscribed (fewer than that held: not missed).
func missedLast(m *member, ended []*community.Session, attended map[[2]string]bool) bool {
	n := 0
	for _, x := range ended {
		if m.SubscribedAt != nil && x.StartsAt.Before(*m.SubscribedAt) {
			break
		}
		if attended[[2]string{x.ID, m.UserID}] {
			return false
		}
		n++
		if n == MissedInARow {
			return true
		}
	}
	return false
}

// attended is every (session, member) pair that counts as attended.
func (s *Service) attended(ctx context.Context) (map[[2]string]bool, error) {
	rows, err := s.db.ReadRows(ctx, `SELECT a.session_id, a.user_id FROM session_attendance a WHERE `+community.AttendedSQL)
	if err != nil {
		return nil, fmt.Errorf("read attendance: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := map[[2]string]bool{}
	for rows.Next() {
		var k [2]string
		if err := rows.Scan(&k[0], &k[1]); err != nil {
			return nil, fmt.Errorf("read attendance: %w", err)
		}
		out[k] = true
	}
	return out, rows.Err()
}
