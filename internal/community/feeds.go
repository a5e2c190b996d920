package community

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"tribe/internal/access"
	"tribe/internal/store"
)

// Feed is a member's private calendar-feed subscription.
type Feed struct {
	UserID    string
	CreatedAt time.Time
}

func hashFeedToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// CreateFeed makes a new feed token for the user, replacing any earlier one,
// and returns the token. Only its hash is stored, so it is shown once.
func CreateFeed(ctx context.Context, db *store.DB, userID string) (token string, created time.Time, err error) {
	var rnd [32]byte
	_, _ = rand.Read(rnd[:]) // crypto/rand.Read never fails on supported platforms
	token = base64.RawURLEncoding.EncodeToString(rnd[:])
	now := store.Now()
	_, err = db.Write.ExecContext(ctx,
		`INSERT INTO calendar_feeds (user_id, token_hash, created_at) VALUES ($1, $2, $3)
		 ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at`,
		userID, hashFeedToken(token), now)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("create calendar feed for %s: %w", userID, err)
	}
	return token, now.Time, nil
}

// GetFeed returns the user's feed, or nil when there is none.
func GetFeed(ctx context.Context, db *store.DB, userID string) (*Feed, error) {
	var created store.Time
	err := db.Read.QueryRowContext(ctx, `SELECT created_at FROM calendar_feeds WHERE user_id = $1`, userID).Scan(&created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read calendar feed of %s: %w", userID, err)
	}
	return &Feed{UserID: userID, CreatedAt: created.Time}, nil
}

// DeleteFeed revokes the user's feed; revoking none is not an error.
func DeleteFeed(ctx context.Context, db *store.DB, userID string) error {
	if _, err := db.Write.ExecContext(ctx, `DELETE FROM calendar_feeds WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("revoke calendar feed of %s: %w", userID, err)
	}
	return nil
}

// LookupFeed returns the id of the member a feed token belongs to,
// not_found for an unknown or revoked token.
func LookupFeed(ctx context.Context, db *store.DB, token string) (string, error) {
	if len(token) < 16 || len(token) > 128 {
		return "", notFound("Calendar")
	}
	var userID string
	err := db.Read.QueryRowContext(ctx,
		`SELECT user_id FROM calendar_feeds WHERE token_hash = $1`, hashFeedToken(token)).Scan(&userID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", notFound("Calendar")
	}
	if err != nil {
		return "", fmt.Errorf("look up calendar feed: %w", err)
	}
	return userID, nil
}

// FeedCalendar is the calendar a member's private feed serves, as its owner
// v may see it: every session not cancelled.
func FeedCalendar(ctx context.Context, db *store.DB, v access.Viewer, baseURL string) ([]byte, error) {
	all, err := loadSessions(ctx, db)
	if err != nil {
		return nil, err
	}
	listed := make([]*Session, 0, len(all))
	for _, s := range all {
		if s.Status != "cancelled" {
			listed = append(listed, s)
		}
	}
	return Calendar{Name: "Tribe live sessions", BaseURL: baseURL, WithMeeting: v.SeesPaidContent()}.ICS(listed), nil
}
