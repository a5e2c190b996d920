package oauth

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"tribe/internal/errs"
	"tribe/internal/store"
)

// Assistants lists the clients userID has allowed and not revoked, most
// recently used first.
func (s *Service) Assistants(ctx context.Context, userID string) ([]Assistant, error) {
	rows, err := s.db.Read.QueryContext(ctx, `SELECT c.id, c.name, g.scopes, g.created_at, g.last_used_at
		FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
		WHERE g.user_id = $1 AND g.revoked_at IS NULL AND g.last_used_at IS NOT NULL
		ORDER BY g.created_at`, userID)
	if err != nil {
		return nil, fmt.Errorf("list assistants: %w", err)
	}
	defer rows.Close()
	byClient := map[string]*Assistant{}
	out := []Assistant{}
	var order []string
	for rows.Next() {
		var id, name, scopes string
		var created store.Time
		var used store.NullTime
		if err := rows.Scan(&id, &name, &scopes, &created, &used); err != nil {
			return nil, fmt.Errorf("read assistant: %w", err)
		}
		a, ok := byClient[id]
		if !ok {
			a = &Assistant{ClientID: id, Name: name, CreatedAt: created.Time, Scopes: []string{}}
			byClient[id] = a
			order = append(order, id)
		}
		for _, sc := range strings.Fields(scopes) {
			if !HasScope(a.Scopes, sc) {
				a.Scopes = append(a.Scopes, sc)
			}
		}
		if used.Valid && (a.LastUsedAt == nil || used.Time.Time.After(*a.LastUsedAt)) {
			t := used.Time.Time
			a.LastUsedAt = &t
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list assistants: %w", err)
	}
	for _, id := range order {
		a := byClient[id]
		a.Scopes, _ = parseScopes(strings.Join(a.Scopes, " "))
		out = append(out, *a)
	}
	return out, nil
}

// ErrNoAssistant is a revocation of a client the member never allowed.
var ErrNoAssistant = errs.New(errs.NotFound, "No connected assistant has this client id.")

// RevokeClient ends every grant userID gave clientID: its tokens stop
// working at once.
func (s *Service) RevokeClient(ctx context.Context, userID, clientID string) error {
	now := s.now()
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id FROM oauth_grants WHERE user_id = $1 AND client_id = $2 AND revoked_at IS NULL`, userID, clientID)
		if err != nil {
			return fmt.Errorf("find grants to revoke: %w", err)
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return fmt.Errorf("find grants to revoke: %w", err)
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("find grants to revoke: %w", err)
		}
		if len(ids) == 0 {
			return ErrNoAssistant
		}
		for _, id := range ids {
			if err := revokeGrant(ctx, tx, id, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// ClientCounts lists every client with live grants and how many members
// have one, most members first.
func (s *Service) ClientCounts(ctx context.Context) ([]ClientCount, error) {
	rows, err := s.db.Read.QueryContext(ctx, `SELECT c.id, c.name, COUNT(DISTINCT g.user_id), MAX(g.last_used_at)
		FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
		WHERE g.revoked_at IS NULL AND g.last_used_at IS NOT NULL
		GROUP BY c.id, c.name ORDER BY COUNT(DISTINCT g.user_id) DESC, c.name`)
	if err != nil {
		return nil, fmt.Errorf("count assistants: %w", err)
	}
	defer rows.Close()
	out := []ClientCount{}
	for rows.Next() {
		var c ClientCount
		var used store.NullTime
		if err := rows.Scan(&c.ClientID, &c.Name, &c.Members, &used); err != nil {
			return nil, fmt.Errorf("read assistant count: %w", err)
		}
		if used.Valid {
			t := used.Time.Time
			c.LastUsedAt = &t
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// sweepGrace keeps spent and expired secrets a while after they lapse, so a
// replayed code or refresh token is still recognised (and revokes its
// grant) rather than looking merely unknown.
const sweepGrace = 24 * time.Hour

// UnusedClientLife is how long a registered client that no member ever
// allowed is kept: anyone may register, so registrations that lead nowhere
// must not pile up. A client registers just before it asks a member; one
// that comes back later registers again.
const UnusedClientLife = 7 * 24 * time.Hour

// Sweep deletes codes and tokens that expired more than a day ago, grants
// revoked that long ago, and registered clients without a grant after
// UnusedClientLife, so the tables hold what can still matter. It is safe to
// run on every instance at once.
func (s *Service) Sweep(ctx context.Context) error {
	now := s.now()
	cut := store.At(now.Add(-sweepGrace))
	for _, q := range []string{
		`DELETE FROM oauth_codes WHERE expires_at < $1`,
		`DELETE FROM oauth_tokens WHERE expires_at < $1`,
		`DELETE FROM oauth_grants WHERE revoked_at < $1`,
	} {
		if _, err := s.db.Write.ExecContext(ctx, q, cut); err != nil {
			return fmt.Errorf("sweep oauth: %w", err)
		}
	}
	if _, err := s.db.Write.ExecContext(ctx, `DELETE FROM oauth_clients WHERE created_at < $1
		AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = oauth_clients.id)`,
		store.At(now.Add(-UnusedClientLife))); err != nil {
		return fmt.Errorf("sweep oauth clients: %w", err)
	}
	return nil
}
