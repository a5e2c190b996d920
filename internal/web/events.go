package web

import (
	"context"

	"tribe/internal/events"
)

// publish tells open browser tabs that something changed. It never fails the
// request that caused the change: a lost notice only delays a refresh.
func (s *server) publish(ctx context.Context, e events.Event) {}
