-- The membership ledger (PostgreSQL): every change to a membership that was
-- applied, one row each, never changed or removed. Keep the SQLite twin of
-- this file in step. internal/insights replays it forward; docs/architecture.md
-- ("Membership ledger") says why.
CREATE TABLE membership_ledger (
    -- The change's own id: the Stripe event's id for a webhook, else one
    -- made for the grant, end, refresh, reconcile or backfill. Replaying
    -- takes each id once.
    id                   TEXT PRIMARY KEY CHECK (char_length(id) BETWEEN 1 AND 200),
    -- No foreign key: the history of a membership outlives its account.
    user_id              TEXT NOT NULL,
    -- The order the member's changes were applied in (1, 2, ...): replay
    -- follows it for one member, whatever clocks the times came from.
    user_seq             INTEGER NOT NULL CHECK (user_seq > 0),
    -- When the change happened: the event's own time on Stripe's clock, or
    -- the site's clock for a grant or end made here.
    occurred_at          TIMESTAMPTZ NOT NULL,
    recorded_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    source               TEXT NOT NULL CHECK (source IN ('webhook', 'refresh', 'reconcile', 'comp_grant', 'comp_end', 'backfill')),
    -- The membership's state after the change.
    status               TEXT NOT NULL CHECK (status IN ('active', 'trialing', 'past_due', 'canceled', 'unpaid',
                             'incomplete', 'incomplete_expired', 'paused')),
    subscription_id      TEXT NOT NULL DEFAULT '',
    complimentary        BOOLEAN NOT NULL DEFAULT FALSE,
    comp_until           TIMESTAMPTZ,
    cancel_at_period_end BOOLEAN NOT NULL DEFAULT FALSE,
    -- What one billing interval costs, in the currency's smallest unit
    -- (cents), every item of STRIPE_PRICE_ID times its quantity; 0 when
    -- unknown (a backfilled row) or free.
    amount               BIGINT NOT NULL DEFAULT 0 CHECK (amount >= 0),
    currency             TEXT NOT NULL DEFAULT '' CHECK (currency = '' OR currency ~ '^[a-z]{3}$'),
    billing_interval     TEXT NOT NULL DEFAULT '' CHECK (billing_interval IN ('', 'day', 'week', 'month', 'year')),
    interval_count       INTEGER NOT NULL DEFAULT 1 CHECK (interval_count > 0)
);
CREATE INDEX membership_ledger_time ON membership_ledger(occurred_at, id);
-- Insights read the rows recorded since their last read (see insights.timeline).
CREATE INDEX membership_ledger_recorded ON membership_ledger(recorded_at);
CREATE UNIQUE INDEX membership_ledger_user ON membership_ledger(user_id, user_seq);

CREATE FUNCTION membership_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'membership_ledger is append-only';
END
$$;
CREATE TRIGGER membership_ledger_append_only BEFORE UPDATE OR DELETE ON membership_ledger
FOR EACH ROW EXECUTE FUNCTION membership_ledger_append_only();

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
CREATE TRIGGER membership_ledger_changed AFTER INSERT ON membership_ledger
FOR EACH STATEMENT EXECUTE FUNCTION count_table_change();

-- Insights keep the accounts' creation times until an account is added or
-- removed (a creation time never changes).
INSERT INTO table_versions (name) VALUES ('users_created');
CREATE FUNCTION count_users_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE table_versions SET version = version + 1 WHERE name = 'users_created';
    RETURN NULL;
END
$$;
CREATE TRIGGER users_created_changed AFTER INSERT OR DELETE OR TRUNCATE ON users
FOR EACH STATEMENT EXECUTE FUNCTION count_users_created();
