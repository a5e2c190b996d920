package community

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// MaxDirectoryQuery is the longest search of the member directory, in
// characters.
const MaxDirectoryQuery = 100

// ErrDirectoryForMembers refuses the directory to those without tribe
// access.
var ErrDirectoryForMembers = errs.New(errs.Forbidden, "The member directory is for tribe members: subscribe to meet the other members.")

// Directory is the members who chose to be listed (Profile: "Show me in
// the member directory") and whose address is confirmed, by name, for
// those with tribe access. q keeps the members whose name, job title,
// company, location, bio, level, cohort or projects hold every word of it,
// ignoring case. levelOf names a member's level: levels are computed in
// internal/levels, which reads this package. Nothing of a member who did
// not opt in is read, and no e-mail address is.
func Directory(ctx context.Context, db *store.DB, v access.Viewer, q string, levelOf func(context.Context, string) (string, error)) ([]DirectoryEntry, error) {
	if !v.SeesPaidContent() {
		return nil, ErrDirectoryForMembers
	}
	q = strings.TrimSpace(q)
	if !utf8.ValidString(q) || utf8.RuneCountInString(q) > MaxDirectoryQuery {
		return nil, errs.Field("q", fmt.Sprintf("The search must be at most %d characters.", MaxDirectoryQuery))
	}
	terms := strings.Fields(strings.ToLower(q))

	rows, err := db.ReadRows(ctx,
		`SELECT p.id, p.full_name, p.avatar_url, p.job_title, p.company, p.location, p.bio, c.name
		 FROM profiles p JOIN users u ON u.id = p.id
		 LEFT JOIN cohort_members m ON m.user_id = p.id LEFT JOIN cohorts c ON c.id = m.cohort_id
		 WHERE p.in_directory AND u.email_confirmed_at IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("read directory: %w", err)
	}
	entries := []DirectoryEntry{}
	err = func() error {
		defer func() { _ = rows.Close() }()
		for rows.Next() {
			var e DirectoryEntry
			var avatar, cohort sql.NullString
			if err := rows.Scan(&e.ID, &e.FullName, &avatar, &e.JobTitle, &e.Company, &e.Location, &e.Bio, &cohort); err != nil {
				return err
			}
			if avatar.Valid {
				e.AvatarURL = &avatar.String
			}
			if cohort.Valid {
				e.Cohort = &cohort.String
			}
			entries = append(entries, e)
		}
		return rows.Err()
	}()
	if err != nil {
		return nil, fmt.Errorf("read directory: %w", err)
	}

	links, tags, err := directoryProjects(ctx, db)
	if err != nil {
		return nil, err
	}
	out := entries[:0]
	for _, e := range entries {
		if e.Level, err = levelOf(ctx, e.ID); err != nil {
			return nil, err
		}
		e.Projects = links[e.ID]
		if e.Projects == nil {
			e.Projects = []ProjectLink{}
		}
		if matches(e, tags[e.ID], terms) {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := strings.ToLower(out[i].FullName), strings.ToLower(out[j].FullName)
		if a != b {
			return a < b
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// matches reports whether every term appears in one of e's fields.
func matches(e DirectoryEntry, tags, terms []string) bool {
	if len(terms) == 0 {
		return true
	}
	fields := []string{e.FullName, e.JobTitle, e.Company, e.Location, e.Bio, e.Level}
	if e.Cohort != nil {
		fields = append(fields, *e.Cohort)
	}
	for _, p := range e.Projects {
		fields = append(fields, p.Title)
	}
	fields = append(fields, tags...)
	text := strings.ToLower(strings.Join(fields, "\n"))
	for _, t := range terms {
		if !strings.Contains(text, t) {
			return false
		}
	}
	return true
}
