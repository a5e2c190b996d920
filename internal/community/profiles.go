package community

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/auth"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// Profile is a member's public-facing details plus their (read-only) e-mail.
type Profile struct {
	ID        string  `json:"id"`
	Email     string  `json:"email"`
	FullName  string  `json:"full_name"`
	AvatarURL *string `json:"avatar_url" tstype:"string | null,required"`
	Bio       string  `json:"bio"`
	Phone     string  `json:"phone"`
	Location  string  `json:"location"`
	Company   string  `json:"company"`
	JobTitle  string  `json:"job_title"`
	// NameUnverified: the address is confirmed but FullName was set before
	// it was, maybe by someone who signed up with an address they did not
	// own; the owner should check it. Saving the name clears it.
	NameUnverified bool `json:"name_unverified"`
	// InDirectory says the member chose to be listed in the member
	// directory (off until they do).
	InDirectory bool      `json:"in_directory"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// ProfileUpdate carries the editable fields; a nil field keeps its value.
type ProfileUpdate struct {
	FullName *string `json:"full_name" tstype:"string | null"`
	Bio      *string `json:"bio" tstype:"string | null"`
	Phone    *string `json:"phone" tstype:"string | null"`
	Location *string `json:"location" tstype:"string | null"`
	Company  *string `json:"company" tstype:"string | null"`
	JobTitle *string `json:"job_title" tstype:"string | null"`
	// InDirectory lists the member in the member directory, or not.
	InDirectory *bool `json:"in_directory" tstype:"boolean | null"`
}

// profileField is one editable column with its label and the limit the
// schema's CHECK constraint also enforces.
type profileField struct {
	column string
	label  string
	max    int
	value  func(*ProfileUpdate) **string
}

var profileFields = []profileField{
	{"full_name", "Full name", 120, func(u *ProfileUpdate) **string { return &u.FullName }},
	{"bio", "Bio", 2000, func(u *ProfileUpdate) **string { return &u.Bio }},
	{"phone", "Phone", 40, func(u *ProfileUpdate) **string { return &u.Phone }},
	{"location", "Location", 120, func(u *ProfileUpdate) **string { return &u.Location }},
	{"company", "Company", 120, func(u *ProfileUpdate) **string { return &u.Company }},
	{"job_title", "Job title", 120, func(u *ProfileUpdate) **string { return &u.JobTitle }},
}

// profileColumns are read from profiles p joined to users u.
const profileColumns = `p.id, p.email, p.full_name, p.avatar_url, p.bio, p.phone, p.location, p.company, p.job_title,
	(u.email_confirmed_at IS NOT NULL AND NOT p.name_confirmed), p.in_directory, p.created_at, p.updated_at`

func scanProfile(row interface{ Scan(...any) error }) (*Profile, error) {
	var (
		p        Profile
		avatar   sql.NullString
		cre, upd store.Time
	)
	if err := row.Scan(&p.ID, &p.Email, &p.FullName, &avatar, &p.Bio, &p.Phone, &p.Location,
		&p.Company, &p.JobTitle, &p.NameUnverified, &p.InDirectory, &cre, &upd); err != nil {
		return nil, err
	}
	if avatar.Valid {
		p.AvatarURL = &avatar.String
	}
	p.CreatedAt, p.UpdatedAt = cre.Time, upd.Time
	return &p, nil
}

// GetProfile returns the profile of a user, not_found when there is none.
func GetProfile(ctx context.Context, db *store.DB, userID string) (*Profile, error) {
	p, err := scanProfile(db.Read.QueryRowContext(ctx,
		`SELECT `+profileColumns+` FROM profiles p JOIN users u ON u.id = p.id WHERE p.id = $1`, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Profile")
	}
	if err != nil {
		return nil, fmt.Errorf("read profile %s: %w", userID, err)
	}
	return p, nil
}

// UpdateProfile trims and checks the given fields, stores them and returns
// the saved profile. The e-mail is not editable here.
func UpdateProfile(ctx context.Context, db *store.DB, userID string, u ProfileUpdate) (*Profile, error) {
	sets := []string{}
	args := []any{}
	for _, f := range profileFields {
		ptr := f.value(&u)
		if *ptr == nil {
			continue
		}
		v := strings.TrimSpace(**ptr)
		if !utf8.ValidString(v) || strings.ContainsRune(v, 0) {
			return nil, errs.Field(f.column, f.label+" contains characters that cannot be stored.")
		}
		if utf8.RuneCountInString(v) > f.max {
			return nil, errs.Field(f.column, fmt.Sprintf("%s must be at most %d characters.", f.label, f.max))
		}
		if f.column == "full_name" {
			// Other members see the name: the sign-up rules apply (not blank,
			// not only invisible characters, no control characters).
			if _, err := auth.CheckName(f.column, f.label, f.max, v); err != nil {
				return nil, err
			}
		}
		args = append(args, v)
		sets = append(sets, fmt.Sprintf("%s = $%d", f.column, len(args)))
		if f.column == "full_name" {
			// A name saved while the address is proven is the owner's own.
			sets = append(sets, `name_confirmed = EXISTS (SELECT 1 FROM users u WHERE u.id = profiles.id AND u.email_confirmed_at IS NOT NULL)`)
		}
	}
	if u.InDirectory != nil {
		args = append(args, *u.InDirectory)
		sets = append(sets, fmt.Sprintf("in_directory = $%d", len(args)))
	}
	args = append(args, store.Now())
	sets = append(sets, fmt.Sprintf("updated_at = $%d", len(args)))
	args = append(args, userID)
	res, err := db.Write.ExecContext(ctx,
		`UPDATE profiles SET `+strings.Join(sets, ", ")+fmt.Sprintf(` WHERE id = $%d`, len(args)), args...)
	if err != nil {
		return nil, fmt.Errorf("update profile %s: %w", userID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, fmt.Errorf("update profile %s: %w", userID, err)
	} else if n == 0 {
		return nil, notFound("Profile")
	}
	return GetProfile(ctx, db, userID)
}

// setAvatarURL stores url (nil clears it) and returns the previous value.
func setAvatarURL(ctx context.Context, db *store.DB, userID string, url *string) (old *string, err error) {
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		var prev sql.NullString
		// On PostgreSQL the row lock makes a second upload wait, so each
		// upload removes exactly the file the previous one stored.
		q := `SELECT avatar_url FROM profiles WHERE id = $1`
		if db.Dialect == store.Postgres {
			q += ` FOR UPDATE`
		}
		err := tx.QueryRowContext(ctx, q, userID).Scan(&prev)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("Profile")
		}
		if err != nil {
			return fmt.Errorf("read avatar of %s: %w", userID, err)
		}
		if prev.Valid {
			old = &prev.String
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET avatar_url = $1, updated_at = $2 WHERE id = $3`,
			url, store.Now(), userID); err != nil {
			return fmt.Errorf("store avatar of %s: %w", userID, err)
		}
		return nil
	})
	return old, err
}
