-- A change count per table that a process may keep reads of in memory
-- (store.ReadThrough). Triggers count every insert, update and delete,
-- whoever makes it: another process, another instance, a hand-written
-- statement. A reader compares one number instead of reading the table.
CREATE TABLE table_versions (
    name    TEXT PRIMARY KEY,
    version INTEGER NOT NULL DEFAULT 0
);

INSERT INTO table_versions (name) VALUES ('live_sessions');
CREATE TRIGGER live_sessions_inserted AFTER INSERT ON live_sessions
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'live_sessions'; END;
CREATE TRIGGER live_sessions_updated AFTER UPDATE ON live_sessions
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'live_sessions'; END;
CREATE TRIGGER live_sessions_deleted AFTER DELETE ON live_sessions
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'live_sessions'; END;
