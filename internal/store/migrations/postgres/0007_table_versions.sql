-- A change count per table that a process may keep reads of in memory
-- (store.ReadThrough). Triggers count every insert, update and delete,
-- whoever makes it: another instance, a hand-written statement. A reader
-- compares one number instead of reading the table. The counter's row lock
-- orders a table's writers, which for these rarely written tables is free.
CREATE TABLE table_versions (
    name    TEXT PRIMARY KEY,
    version BIGINT NOT NULL DEFAULT 0
);

CREATE FUNCTION count_table_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE table_versions SET version = version + 1 WHERE name = TG_TABLE_NAME;
    RETURN NULL;
END
$$;

INSERT INTO table_versions (name) VALUES ('live_sessions');
CREATE TRIGGER live_sessions_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON live_sessions
FOR EACH STATEMENT EXECUTE FUNCTION count_table_change();
