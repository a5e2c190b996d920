package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"tribe/internal/mailaddr"
	"tribe/internal/store"
)

// AdminEntry is one account with admin rights or a pending admin grant.
type AdminEntry struct {
	Email     string
	Confirmed bool
	// Sources says why: "operator grant", "TRIBE_ADMIN_EMAILS",
	// "TRIBE_ADMIN_DOMAIN".
	Sources []string
	// Active is whether the rights apply now (they need a confirmed address).
	Active    bool
	GrantedAt *time.Time
}

func (s *Service) userIDByEmail(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, email string) (string, string, error) {
	a, err := mailaddr.Parse(email)
	if err != nil {
		return "", "", fmt.Errorf("%q: %w", strings.TrimSpace(email), err)
	}
	var id, addr string
	err = q.QueryRowContext(ctx, `SELECT id, email FROM users WHERE email_normalized = $1`, a.Key).Scan(&id, &addr)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", fmt.Errorf("%w: %s", ErrNoSuchUser, strings.TrimSpace(email))
	}
	if err != nil {
		return "", "", fmt.Errorf("look up %s: %w", email, err)
	}
	return id, addr, nil
}

// LookupEmail returns the id and the address as written of the account with
// this e-mail address, or an error wrapping ErrNoSuchUser (operator tools).
func (s *Service) LookupEmail(ctx context.Context, email string) (id, addr string, err error) {
	return s.userIDByEmail(ctx, s.db.Read, email)
}

// GrantAdmin gives the account with this address the admin role (an operator
// grant). It reports false when the account already had it.
func (s *Service) GrantAdmin(ctx context.Context, email string) (bool, error) {
	var added bool
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		id, _, err := s.userIDByEmail(ctx, tx, email)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx,
			`INSERT INTO user_roles (user_id, role, granted_at) VALUES ($1, 'admin', $2) ON CONFLICT (user_id, role) DO NOTHING`,
			id, s.clock())
		if err != nil {
			return fmt.Errorf("grant admin: %w", err)
		}
		n, _ := res.RowsAffected()
		added = n == 1
		return nil
	})
	return added, err
}

// RevokeAdmin removes an operator grant. It reports false when there was none.
// Configuration (TRIBE_ADMIN_EMAILS, TRIBE_ADMIN_DOMAIN) may still make the
// account an admin; IsConfiguredAdmin tells.
func (s *Service) RevokeAdmin(ctx context.Context, email string) (bool, error) {
	id, _, err := s.userIDByEmail(ctx, s.db.Write, email)
	if err != nil {
		return false, err
	}
	res, err := s.db.Write.ExecContext(ctx, `DELETE FROM user_roles WHERE user_id = $1 AND role = 'admin'`, id)
	if err != nil {
		return false, fmt.Errorf("revoke admin: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// IsConfiguredAdmin reports whether configuration names this address (by
// itself or by its domain) as an admin.
func (s *Service) IsConfiguredAdmin(email string) bool {
	key, ok := mailaddr.Key(email)
	return ok && s.isAdmin(key, true, false)
}

// ListAdmins lists every account that holds an operator grant or that
// configuration names, confirmed or not, ordered by address.
func (s *Service) ListAdmins(ctx context.Context) ([]AdminEntry, error) {
	var args []any
	conds := []string{"r.user_id IS NOT NULL"}
	for _, e := range s.cfg.AdminEmails {
		args = append(args, e)
		conds = append(conds, fmt.Sprintf("u.email_normalized = $%d", len(args)))
	}
	if s.cfg.AdminDomain != "" {
		args = append(args, "%@"+s.cfg.AdminDomain)
		conds = append(conds, fmt.Sprintf("u.email_normalized LIKE $%d", len(args)))
	}
	rows, err := s.db.Read.QueryContext(ctx,
		`SELECT u.email, u.email_normalized, u.email_confirmed_at, r.granted_at
		 FROM users u LEFT JOIN user_roles r ON r.user_id = u.id AND r.role = 'admin'
		 WHERE `+strings.Join(conds, " OR "), args...)
	if err != nil {
		return nil, fmt.Errorf("list admins: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []AdminEntry
	for rows.Next() {
		var e AdminEntry
		var norm string
		var confirmed, granted store.NullTime
		if err := rows.Scan(&e.Email, &norm, &confirmed, &granted); err != nil {
			return nil, fmt.Errorf("list admins: %w", err)
		}
		e.Confirmed = confirmed.Valid
		if granted.Valid {
			t := granted.Time.Time
			e.GrantedAt = &t
			e.Sources = append(e.Sources, "operator grant")
		}
		for _, a := range s.cfg.AdminEmails {
			if a == norm {
				e.Sources = append(e.Sources, "TRIBE_ADMIN_EMAILS")
			}
		}
		if s.cfg.AdminDomain != "" && strings.HasSuffix(norm, "@"+s.cfg.AdminDomain) {
			e.Sources = append(e.Sources, "TRIBE_ADMIN_DOMAIN")
		}
		if len(e.Sources) == 0 {
			continue // a LIKE match that the exact domain rule rejects
		}
		e.Active = s.isAdmin(norm, e.Confirmed, granted.Valid)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list admins: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Email < out[j].Email })
	return out, nil
}
