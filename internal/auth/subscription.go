package auth

import (
	"context"

	"tribe/internal/billing"
	"tribe/internal/store"
)

// Subscription is the membership status of a user, as billing keeps it.
// billing owns the subscriptions table and decides access; auth only reads
// through it, so the user object and the paywall always agree. (billing
// never imports auth, so this import cannot form a cycle.)
type Subscription = billing.Subscription

func subscriptionOf(ctx context.Context, db *store.DB, userID string) (*Subscription, error) {
	return billing.SubscriptionOf(ctx, db, userID)
}
