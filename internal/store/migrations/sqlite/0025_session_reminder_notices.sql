-- The session reminders put in members' notification centres
-- (internal/notify/reminders.go). A member keeps the in-app reminder when
-- they turn reminder mail off, so its "once" cannot ride on the mail
-- outbox's key: a row per session, reminder ("24h", "1h"), start (seconds
-- since the Unix epoch: a moved session is reminded again at its new time)
-- and member, inserted by whichever instance's sweep gets there first; the
-- instance whose insert took tells the member. Rows of sessions long past
-- are deleted by the sweep.
CREATE TABLE session_reminder_notices (
    session_id  TEXT NOT NULL REFERENCES live_sessions(id) ON DELETE CASCADE,
    reminder    TEXT NOT NULL CHECK (reminder IN ('24h', '1h')),
    starts_unix INTEGER NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (session_id, reminder, starts_unix, user_id)
);
CREATE INDEX session_reminder_notices_starts ON session_reminder_notices (starts_unix);
