package gaps

import "context"

type clientCtxKey struct{}

// WithClient names the client a search comes from (the web layer's
// clientKey: an IPv4 address or an IPv6 /64), so that Record can hold each
// client to PerClientPerHour questions. The key only counts; it is never
// stored.
func WithClient(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, clientCtxKey{}, key)
}

// clientOf is the client WithClient named; searches with none share one
// allowance, so a caller that forgets to name its client is capped, not free.
func clientOf(ctx context.Context) string {
	key, _ := ctx.Value(clientCtxKey{}).(string)
	return key
}
