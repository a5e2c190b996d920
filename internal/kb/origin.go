package kb

import (
	"context"
	"database/sql"
	"fmt"

	"tribe/internal/store"
)

// CategoryReplay marks the passages of a library recording's transcript:
// their Source is the link that plays the recording at the passage
// ("/members/library/{id}?t=754"). They are paid content, so the search
// tools hand them only to viewers who see it (agent.Search).
const CategoryReplay = "replay"

// OriginDoc is one document kept in step with a row elsewhere.
type OriginDoc struct {
	Content  string
	Metadata Metadata
}

// ReplaceOrigin makes docs the documents of origin (such as
// "library:{item id}"), replacing whatever it had, in one transaction.
func (s *Service) ReplaceOrigin(ctx context.Context, origin string, docs []OriginDoc) error {
	if origin == "" {
		return fmt.Errorf("replace documents: no origin")
	}
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM documents WHERE origin = $1`, origin); err != nil {
			return err
		}
		now := store.Now()
		for _, d := range docs {
			md := d.Metadata
			if md.Tags == nil {
				md.Tags = []string{}
			}
			id := store.NewID()
			if err := insertDocument(ctx, s.db.Dialect, tx, id, "", d.Content, md, now); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE documents SET origin = $1 WHERE id = $2`, origin, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("replace documents of %s: %w", origin, err)
	}
	s.changed(ctx)
	return nil
}

// RemoveOrigin deletes the documents of origin (and their chunks).
func (s *Service) RemoveOrigin(ctx context.Context, origin string) error {
	res, err := s.db.Write.ExecContext(ctx, `DELETE FROM documents WHERE origin = $1`, origin)
	if err != nil {
		return fmt.Errorf("remove documents of %s: %w", origin, err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		s.changed(ctx)
	}
	return nil
}

// HasOrigin reports whether origin has any document.
func (s *Service) HasOrigin(ctx context.Context, origin string) (bool, error) {
	var n int
	if err := s.db.Read.QueryRowContext(ctx, `SELECT COUNT(*) FROM documents WHERE origin = $1`, origin).Scan(&n); err != nil {
		return false, fmt.Errorf("documents of %s: %w", origin, err)
	}
	return n > 0, nil
}
