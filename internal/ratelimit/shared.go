package ratelimit

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"tribe/internal/store"
)

// Several instances of the site on one PostgreSQL database must allow
// together exactly what one instance allows, so there a Limiter or Backoff
// made with Shared keeps its state in the database (migration 0024:
// rate_buckets and rate_failures), one row per limit and key, updated in
// one statement under the row's lock. SQLite means one instance, which
// keeps its counters in memory. Times are seconds since the Unix epoch
// (double precision) from the limiter's clock: the arithmetic stays in the
// statement, and instances' clocks agree to NTP's precision, well within
// the limits' seconds.

// sharedTimeout bounds one statement: a slow database must not hold a
// request for long, and then the process's own counters decide.
const sharedTimeout = 2 * time.Second

// Shared makes the Limiter or Backoff count in db under name (unique per
// limit: "signin-ip", "billing-refresh") when db is PostgreSQL, so every
// instance on db shares one count. On SQLite, or with db nil, the counters
// stay in the process. When a statement fails the process's own counters
// decide, so a database outage never locks anyone out.
func Shared(db *store.DB, name string) Option {
	return func(o *options) {
		if db != nil && db.Dialect == store.Postgres {
			o.db, o.name = db.Write, name
		}
	}
}

func unix(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

func seconds(d time.Duration) float64 { return d.Seconds() }

func fromSeconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// refill is the tokens of bucket row b refilled up to now ($3 burst, $5
// now, $6 the interval in seconds).
const refill = `LEAST($3, b.tokens + GREATEST(0, $5 - b.at) / $6)`

// spendSQL spends $4 tokens of the bucket ($1 name, $2 key) when it has
// them; allowed says whether it did. full_at is when the bucket is full
// again, after which the row is worth nothing (Prune deletes it).
var spendSQL = `INSERT INTO rate_buckets AS b (name, key, tokens, at, allowed, full_at)
VALUES ($1::text, $2::text, $3::float8 - $4::float8, $5::float8, TRUE, $5::float8 + $4::float8 * $6::float8)
ON CONFLICT (name, key) DO UPDATE SET
  tokens = CASE WHEN ` + refill + ` >= $4 THEN ` + refill + ` - $4 ELSE ` + refill + ` END,
  allowed = ` + refill + ` >= $4,
  at = GREATEST(b.at, $5),
  full_at = GREATEST(b.at, $5) + ($3 - CASE WHEN ` + refill + ` >= $4 THEN ` + refill + ` - $4 ELSE ` + refill + ` END) * $6
RETURNING tokens, allowed`

// allowShared is AllowN counted in the database; ok is false when the
// statement failed.
func (l *Limiter) allowShared(key string, n int, now time.Time) (allowed bool, wait time.Duration, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
	defer cancel()
	var tokens float64
	err := l.db.QueryRowContext(ctx, spendSQL, l.name, key, l.burst, float64(n), unix(now), seconds(l.interval)).Scan(&tokens, &allowed)
	if err != nil {
		return false, 0, false
	}
	if allowed {
		return true, 0, true
	}
	return false, time.Duration((float64(n) - tokens) * float64(l.interval)), true
}

// delaySQL is Backoff.delay of failure count c in seconds ($free, $base,
// $max given as the numbered parameters named), the exponent capped so
// that power never overflows.
func delaySQL(c, free, base, maxp string) string {
	return `(CASE WHEN ` + c + ` < ` + free + ` THEN 0 ELSE LEAST(` + maxp + `, ` + base + ` * power(2, LEAST(` + c + ` - ` + free + `, 60))) END)`
}

// newCount is the failure count after one more failure at $3 ($4 the
// forget time in seconds).
const newCount = `(CASE WHEN $3 - f.last >= $4 THEN 1 ELSE f.count + 1 END)`

// failSQL counts one failure of ($1 name, $2 key) at $3; $5 free, $6 base,
// $7 max in seconds.
var failSQL = `INSERT INTO rate_failures AS f (name, key, count, last, not_before, forget_at)
VALUES ($1::text, $2::text, 1, $3::float8, $3::float8 + ` + delaySQL("1", "$5::int", "$6::float8", "$7::float8") + `, $3::float8 + $4::float8)
ON CONFLICT (name, key) DO UPDATE SET
  count = ` + newCount + `,
  last = GREATEST(f.last, $3),
  not_before = $3 + ` + delaySQL(newCount, "$5", "$6", "$7") + `,
  forget_at = GREATEST(f.last, $3) + $4
RETURNING count, not_before`

// failShared is Fail counted in the database.
func (b *Backoff) failShared(key string, now time.Time) (time.Duration, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
	defer cancel()
	var count int
	var notBefore float64
	err := b.db.QueryRowContext(ctx, failSQL, b.name, key, unix(now), seconds(b.Forget),
		b.Free, seconds(b.Base), seconds(b.Max)).Scan(&count, &notBefore)
	if err != nil {
		return 0, false
	}
	return max(0, fromSeconds(notBefore-unix(now))), true
}

// stateShared reads key's failures: their count and the wait still
// required (none once forgotten).
func (b *Backoff) stateShared(key string, now time.Time) (count int, wait time.Duration, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
	defer cancel()
	var last, notBefore float64
	err := b.db.QueryRowContext(ctx, `SELECT count, last, not_before FROM rate_failures WHERE name = $1 AND key = $2`,
		b.name, key).Scan(&count, &last, &notBefore)
	if err == sql.ErrNoRows {
		return 0, 0, true
	}
	if err != nil {
		return 0, 0, false
	}
	t := unix(now)
	if t-last >= seconds(b.Forget) {
		return 0, 0, true
	}
	return count, max(0, fromSeconds(notBefore-t)), true
}

// resetShared forgets key, or with prefix every key starting with it.
func (b *Backoff) resetShared(key string, prefix bool) bool {
	ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
	defer cancel()
	q := `DELETE FROM rate_failures WHERE name = $1 AND key = $2`
	if prefix {
		q = `DELETE FROM rate_failures WHERE name = $1 AND starts_with(key, $2)`
	}
	_, err := b.db.ExecContext(ctx, q, b.name, key)
	return err == nil
}

// Prune deletes the rows of shared limits that no longer hold anything:
// buckets full again and failures forgotten. Every instance's sweeper may
// run it; it reports how many rows it deleted. On SQLite it does nothing.
func Prune(ctx context.Context, db *store.DB, now time.Time) (int64, error) {
	if db.Dialect != store.Postgres {
		return 0, nil
	}
	var total int64
	for _, q := range []string{
		`DELETE FROM rate_buckets WHERE full_at < $1::float8`,
		`DELETE FROM rate_failures WHERE forget_at < $1::float8`,
	} {
		res, err := db.Write.ExecContext(ctx, q, unix(now))
		if err != nil {
			return total, fmt.Errorf("prune rate limits: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
	}
	return total, nil
}

// suffixed names one of several limits made from the same options.
func suffixed(o options, suffix string) Option {
	return func(p *options) {
		if o.db != nil {
			p.db, p.name = o.db, o.name+"/"+suffix
		}
	}
}
