// Package booking takes one-to-one calls on the site: the bookable types
// (from the content), the owner's availability settings, free slots, and
// bookings from hold to completion, with manage tokens, refunds owed and
// calendar invitations.
//
// The database is the lock. Held, requested and confirmed bookings never
// overlap, buffers included: PostgreSQL refuses the second row with an
// exclusion constraint, SQLite with a trigger that runs inside the single
// writer's transaction. Every write first marks lapsed holds expired in the
// same transaction, so the rule only ever sees live ones. docs/booking.md
// describes the rules.
package booking

import _ "time/tzdata" // owners' and visitors' time zones must resolve on hosts without zoneinfo
