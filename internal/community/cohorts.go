package community

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"

	"tribe/internal/auth"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// CohortSize is the number of seats of every new cohort.
const CohortSize = 5

// CohortIcons are the icons a cohort may show; the first is the default.
var CohortIcons = []string{"users", "sparkles", "target", "rocket", "zap", "heart", "star"}

// Cohort is a small working group as one caller sees it.
type Cohort struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Icon        string         `json:"icon"`
	GitHubURL   *string        `json:"github_url" tstype:"string | null,required"`
	HomepageURL *string        `json:"homepage_url" tstype:"string | null,required"`
	CreatedBy   *string        `json:"created_by" tstype:"string | null,required"`
	MaxMembers  int            `json:"max_members"`
	MemberCount int            `json:"member_count"`
	IsMember    bool           `json:"is_member"`
	IsCreator   bool           `json:"is_creator"`
	IsFull      bool           `json:"is_full"`
	Members     []CohortMember `json:"members"`
	CreatedAt   time.Time      `json:"created_at"`
	UpdatedAt   time.Time      `json:"updated_at"`
}

// CohortMember is what other members see of someone in a cohort.
type CohortMember struct {
	UserID    string    `json:"user_id"`
	FullName  string    `json:"full_name"`
	AvatarURL *string   `json:"avatar_url" tstype:"string | null,required"`
	JoinedAt  time.Time `json:"joined_at"`
}

// CohortInput is the creator-editable part of a cohort, as sent.
type CohortInput struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Icon        string `json:"icon"`
	GitHubURL   string `json:"github_url"`
	HomepageURL string `json:"homepage_url"`
}

// cleanCohort is a validated CohortInput ready to store.
type cleanCohort struct {
	name, description, icon string
	github, homepage        *string
}

// Validate trims the input and checks it, returning the first problem.
func (in CohortInput) validate() (cleanCohort, error) {
	c := cleanCohort{
		name:        strings.TrimSpace(in.Name),
		description: strings.TrimSpace(in.Description),
		icon:        strings.TrimSpace(in.Icon),
	}
	switch {
	case c.name == "":
		return c, errs.Field("name", "Please enter a cohort name")
	case !utf8.ValidString(c.name) || strings.ContainsRune(c.name, 0):
		return c, errs.Field("name", "Cohort name contains characters that cannot be stored.")
	case utf8.RuneCountInString(c.name) > 80:
		return c, errs.Field("name", "Cohort name must be at most 80 characters.")
	}
	// Members see the name on every card: the rules of people's names apply.
	if _, err := auth.CheckName("name", "Cohort name", 80, c.name); err != nil {
		return c, err
	}
	switch {
	case !utf8.ValidString(c.description) || strings.ContainsRune(c.description, 0):
		return c, errs.Field("description", "Description contains characters that cannot be stored.")
	case utf8.RuneCountInString(c.description) > 1000:
		return c, errs.Field("description", "Description must be at most 1000 characters.")
	}
	if c.icon == "" {
		c.icon = CohortIcons[0]
	}
	known := false
	for _, i := range CohortIcons {
		known = known || i == c.icon
	}
	if !known {
		return c, errs.Field("icon", "Choose one of the listed icons.")
	}
	var err error
	if c.github, err = optionalURL(in.GitHubURL, 500); errors.Is(err, errURLCredentials) {
		return c, errs.Field("github_url", urlCredentialsMessage)
	} else if err != nil {
		return c, errs.Field("github_url", "Invalid GitHub URL format")
	}
	if c.homepage, err = optionalURL(in.HomepageURL, 500); errors.Is(err, errURLCredentials) {
		return c, errs.Field("homepage_url", urlCredentialsMessage)
	} else if err != nil {
		return c, errs.Field("homepage_url", "Invalid homepage URL format")
	}
	return c, nil
}

// errURLCredentials: a link with user information. Every member sees cohort
// links, so https://user:password@host would show a password to all of them.
var errURLCredentials = errors.New("link holds user information")

// urlCredentialsMessage is the refusal of a link with user information.
const urlCredentialsMessage = "Links must not contain a user name or password (user:password@)."

// optionalURL trims raw; empty is nil, otherwise it must be an absolute
// http(s) URL with a host.
func optionalURL(raw string, maxLen int) (*string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, nil
	}
	if !validHTTPURL(raw, maxLen) {
		return nil, errors.New("not an http(s) URL")
	}
	if u, err := url.Parse(raw); err != nil || u.User != nil {
		return nil, errURLCredentials
	}
	return &raw, nil
}

func validHTTPURL(raw string, maxLen int) bool {
	if len(raw) > maxLen || strings.ContainsAny(raw, " \t\r\n\x00") {
		return false
	}
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Hostname() != ""
}

// ListCohorts returns every cohort, oldest first, as viewerID sees it, and
// the id of the viewer's own cohort ("" when none).
func ListCohorts(ctx context.Context, db *store.DB, viewerID string) ([]Cohort, string, error) {
	rows, err := db.Read.QueryContext(ctx,
		`SELECT id, name, description, icon, github_url, homepage_url, created_by, max_members, created_at, updated_at
		   FROM cohorts ORDER BY created_at, id`)
	if err != nil {
		return nil, "", fmt.Errorf("list cohorts: %w", err)
	}
	defer func() { _ = rows.Close() }()
	cohorts := []Cohort{}
	index := map[string]int{}
	for rows.Next() {
		c, err := scanCohort(rows)
		if err != nil {
			return nil, "", fmt.Errorf("list cohorts: %w", err)
		}
		c.IsCreator = c.CreatedBy != nil && *c.CreatedBy == viewerID
		index[c.ID] = len(cohorts)
		cohorts = append(cohorts, *c)
	}
	if err := rows.Err(); err != nil {
		return nil, "", fmt.Errorf("list cohorts: %w", err)
	}
	// The creator comes first, then members in the order they joined (joins
	// within one millisecond share a time, so the creator is not left to a
	// random id).
	members, err := db.Read.QueryContext(ctx,
		`SELECT m.cohort_id, m.user_id, COALESCE(p.full_name, ''), p.avatar_url, m.joined_at
		   FROM cohort_members m
		   JOIN cohorts c ON c.id = m.cohort_id
		   LEFT JOIN profiles p ON p.id = m.user_id
		  ORDER BY CASE WHEN m.user_id = c.created_by THEN 0 ELSE 1 END, m.joined_at, m.id`)
	if err != nil {
		return nil, "", fmt.Errorf("list cohort members: %w", err)
	}
	defer func() { _ = members.Close() }()
	mine := ""
	for members.Next() {
		var (
			cohortID string
			m        CohortMember
			avatar   sql.NullString
			joined   store.Time
		)
		if err := members.Scan(&cohortID, &m.UserID, &m.FullName, &avatar, &joined); err != nil {
			return nil, "", fmt.Errorf("list cohort members: %w", err)
		}
		if avatar.Valid {
			m.AvatarURL = &avatar.String
		}
		m.JoinedAt = joined.Time
		i, ok := index[cohortID]
		if !ok {
			continue // created after the cohort list was read
		}
		c := &cohorts[i]
		c.Members = append(c.Members, m)
		if m.UserID == viewerID {
			c.IsMember = true
			mine = cohortID
		}
	}
	if err := members.Err(); err != nil {
		return nil, "", fmt.Errorf("list cohort members: %w", err)
	}
	for i := range cohorts {
		c := &cohorts[i]
		c.MemberCount = len(c.Members)
		c.IsFull = c.MemberCount >= c.MaxMembers
	}
	return cohorts, mine, nil
}

// GetCohort returns one cohort as viewerID sees it.
func GetCohort(ctx context.Context, db *store.DB, viewerID, id string) (*Cohort, error) {
	all, _, err := ListCohorts(ctx, db, viewerID)
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].ID == id {
			return &all[i], nil
		}
	}
	return nil, notFound("Cohort")
}

func scanCohort(row interface{ Scan(...any) error }) (*Cohort, error) {
	var (
		c                   Cohort
		gh, home, createdBy sql.NullString
		cre, upd            store.Time
	)
	if err := row.Scan(&c.ID, &c.Name, &c.Description, &c.Icon, &gh, &home, &createdBy, &c.MaxMembers, &cre, &upd); err != nil {
		return nil, err
	}
	if gh.Valid {
		c.GitHubURL = &gh.String
	}
	if home.Valid {
		c.HomepageURL = &home.String
	}
	if createdBy.Valid {
		c.CreatedBy = &createdBy.String
	}
	c.CreatedAt, c.UpdatedAt = cre.Time, upd.Time
	c.Members = []CohortMember{}
	return &c, nil
}

// CreateCohort creates a cohort with userID as its creator and first member,
// in one transaction; it is refused when the user is already in a cohort.
func CreateCohort(ctx context.Context, db *store.DB, userID string, in CohortInput) (*Cohort, error) {
	c, err := in.validate()
	if err != nil {
		return nil, err
	}
	id := store.NewID()
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		if err := requireNoCohort(ctx, tx, userID); err != nil {
			return err
		}
		now := store.Now()
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO cohorts (id, name, description, icon, github_url, homepage_url, created_by, max_members, created_at, updated_at)
			 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
			id, c.name, c.description, c.icon, c.github, c.homepage, userID, CohortSize, now); err != nil {
			return fmt.Errorf("create cohort: %w", err)
		}
		return addMember(ctx, tx, id, userID, now)
	})
	if err != nil {
		return nil, err
	}
	return GetCohort(ctx, db, userID, id)
}

// UpdateCohort changes a cohort's details; only its creator may.
func UpdateCohort(ctx context.Context, db *store.DB, userID, id string, in CohortInput) (*Cohort, error) {
	c, err := in.validate()
	if err != nil {
		return nil, err
	}
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		if err := requireCreator(ctx, db, tx, userID, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx,
			`UPDATE cohorts SET name = $1, description = $2, icon = $3, github_url = $4, homepage_url = $5, updated_at = $6
			  WHERE id = $7`, c.name, c.description, c.icon, c.github, c.homepage, store.Now(), id)
		if err != nil {
			return fmt.Errorf("update cohort %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return GetCohort(ctx, db, userID, id)
}

// DeleteCohort removes a cohort and every membership in it; only its creator may.
func DeleteCohort(ctx context.Context, db *store.DB, userID, id string) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		if err := requireCreator(ctx, db, tx, userID, id); err != nil {
			return err
		}
		// The foreign key cascades too; deleting explicitly keeps the rule
		// visible here and independent of the engine's foreign-key setting.
		if _, err := tx.ExecContext(ctx, `DELETE FROM cohort_members WHERE cohort_id = $1`, id); err != nil {
			return fmt.Errorf("delete members of cohort %s: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM cohorts WHERE id = $1`, id); err != nil {
			return fmt.Errorf("delete cohort %s: %w", id, err)
		}
		return nil
	})
}

// JoinCohort adds userID to a cohort. The cohort row is locked before its
// members are counted, so concurrent joins never pass max_members; the
// unique user_id keeps a user in one cohort even when two joins race.
func JoinCohort(ctx context.Context, db *store.DB, userID, id string) (*Cohort, error) {
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		maxMembers, _, err := lockCohort(ctx, db, tx, id)
		if err != nil {
			return err
		}
		if err := requireNoCohort(ctx, tx, userID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM cohort_members WHERE cohort_id = $1`, id).Scan(&n); err != nil {
			return fmt.Errorf("count members of cohort %s: %w", id, err)
		}
		if n >= maxMembers {
			return ErrCohortFull
		}
		if pause, ok := ctx.Value(afterCountKey{}).(func()); ok {
			pause()
		}
		return addMember(ctx, tx, id, userID, store.Now())
	})
	if err != nil {
		return nil, err
	}
	return GetCohort(ctx, db, userID, id)
}

// afterCountKey carries a function JoinCohort calls between counting and
// inserting; tests use it to widen the window in which joins could race.
type afterCountKey struct{}

// LeaveCohort removes userID from a cohort.
func LeaveCohort(ctx context.Context, db *store.DB, userID, id string) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		if _, _, err := lockCohort(ctx, db, tx, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM cohort_members WHERE cohort_id = $1 AND user_id = $2`, id, userID)
		if err != nil {
			return fmt.Errorf("leave cohort %s: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("leave cohort %s: %w", id, err)
		} else if n == 0 {
			return ErrNotMember
		}
		return nil
	})
}

// lockCohort reads a cohort's capacity and creator inside tx. On PostgreSQL
// the row stays locked until tx ends; SQLite transactions here already hold
// the database's single write lock from BEGIN.
func lockCohort(ctx context.Context, db *store.DB, tx *sql.Tx, id string) (maxMembers int, createdBy sql.NullString, err error) {
	q := `SELECT max_members, created_by FROM cohorts WHERE id = $1`
	if db.Dialect == store.Postgres {
		q += ` FOR UPDATE`
	}
	err = tx.QueryRowContext(ctx, q, id).Scan(&maxMembers, &createdBy)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, createdBy, notFound("Cohort")
	}
	if err != nil {
		return 0, createdBy, fmt.Errorf("read cohort %s: %w", id, err)
	}
	return maxMembers, createdBy, nil
}

func requireCreator(ctx context.Context, db *store.DB, tx *sql.Tx, userID, id string) error {
	_, createdBy, err := lockCohort(ctx, db, tx, id)
	if err != nil {
		return err
	}
	if !createdBy.Valid || createdBy.String != userID {
		return ErrNotCreator
	}
	return nil
}

func requireNoCohort(ctx context.Context, tx *sql.Tx, userID string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM cohort_members WHERE user_id = $1`, userID).Scan(&n); err != nil {
		return fmt.Errorf("check cohort membership of %s: %w", userID, err)
	}
	if n > 0 {
		return ErrAlreadyInCohort
	}
	return nil
}

func addMember(ctx context.Context, tx *sql.Tx, cohortID, userID string, at store.Time) error {
	_, err := tx.ExecContext(ctx,
		`INSERT INTO cohort_members (id, cohort_id, user_id, joined_at) VALUES ($1, $2, $3, $4)`,
		store.NewID(), cohortID, userID, at)
	if isUniqueViolation(err) {
		return ErrAlreadyInCohort
	}
	if err != nil {
		return fmt.Errorf("add member to cohort %s: %w", cohortID, err)
	}
	return nil
}

// isUniqueViolation reports a duplicate key on either engine.
func isUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23505"
	}
	return strings.Contains(err.Error(), "UNIQUE constraint failed")
}
