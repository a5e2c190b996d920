-- The membership ledger (SQLite): every change to a membership that was
-- applied, one row each, never changed or removed. Keep the PostgreSQL twin
-- of this file in step. internal/insights replays it forward; docs/architecture.md
-- ("Membership ledger") says why.
CREATE TABLE membership_ledger (
    -- The change's own id: the Stripe event's id for a webhook, else one
    -- made for the grant, end, refresh, reconcile or backfill. Replaying
    -- takes each id once.
    id                   TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 200),
    -- No foreign key: the history of a membership outlives its account.
    user_id              TEXT NOT NULL,
    -- The order the member's changes were applied in (1, 2, ...): replay
    -- follows it for one member, whatever clocks the times came from.
    user_seq             INTEGER NOT NULL CHECK (user_seq > 0),
    -- When the change happened: the event's own time on Stripe's clock, or
    -- the site's clock for a grant or end made here.
    occurred_at          TEXT NOT NULL,
    recorded_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    source               TEXT NOT NULL CHECK (source IN ('webhook', 'refresh', 'reconcile', 'comp_grant', 'comp_end', 'backfill')),
    -- The membership's state after the change.
    status               TEXT NOT NULL CHECK (status IN ('active', 'trialing', 'past_due', 'canceled', 'unpaid',
                             'incomplete', 'incomplete_expired', 'paused')),
    subscription_id      TEXT NOT NULL DEFAULT '',
    complimentary        INTEGER NOT NULL DEFAULT 0 CHECK (complimentary IN (0, 1)),
    comp_until           TEXT,
    cancel_at_period_end INTEGER NOT NULL DEFAULT 0 CHECK (cancel_at_period_end IN (0, 1)),
    -- What one billing interval costs, in the currency's smallest unit
    -- (cents), every item of STRIPE_PRICE_ID times its quantity; 0 when
    -- unknown (a backfilled row) or free.
    amount               INTEGER NOT NULL DEFAULT 0 CHECK (amount >= 0),
    currency             TEXT NOT NULL DEFAULT '' CHECK (currency = '' OR (length(currency) = 3 AND currency = lower(currency))),
    billing_interval     TEXT NOT NULL DEFAULT '' CHECK (billing_interval IN ('', 'day', 'week', 'month', 'year')),
    interval_count       INTEGER NOT NULL DEFAULT 1 CHECK (interval_count > 0)
);
CREATE INDEX membership_ledger_time ON membership_ledger(occurred_at, id);
-- Insights read the rows recorded since their last read (see insights.timeline).
CREATE INDEX membership_ledger_recorded ON membership_ledger(recorded_at);
CREATE UNIQUE INDEX membership_ledger_user ON membership_ledger(user_id, user_seq);

CREATE TRIGGER membership_ledger_no_update BEFORE UPDATE ON membership_ledger
BEGIN SELECT RAISE(ABORT, 'membership_ledger is append-only'); END;
CREATE TRIGGER membership_ledger_no_delete BEFORE DELETE ON membership_ledger
BEGIN SELECT RAISE(ABORT, 'membership_ledger is append-only'); END;

-- Memberships from before the ledger: one row each, their state now, dated
-- when they began. Their amounts are unknown here (0) until
-- `tribe billing reconcile --apply` reads them from Stripe and records them.
INSERT INTO membership_ledger (id, user_id, user_seq, occurred_at, source, status, subscription_id, complimentary, comp_until,
                               cancel_at_period_end)
SELECT 'backfill_' || user_id, user_id, 1, created_at, 'backfill', status, COALESCE(stripe_subscription_id, ''),
       complimentary, comp_until, cancel_at_period_end
  FROM subscriptions;

-- Insights keep the replayed ledger in memory until a row is added
-- (store.ReadThrough); rows are never changed or removed.
INSERT INTO table_versions (name) VALUES ('membership_ledger');
CREATE TRIGGER membership_ledger_inserted AFTER INSERT ON membership_ledger
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'membership_ledger'; END;

-- Insights keep the accounts' creation times until an account is added or
-- removed (a creation time never changes).
INSERT INTO table_versions (name) VALUES ('users_created');
CREATE TRIGGER users_created_inserted AFTER INSERT ON users
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'users_created'; END;
CREATE TRIGGER users_created_deleted AFTER DELETE ON users
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'users_created'; END;
