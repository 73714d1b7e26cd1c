-- schema version 3: one position per canonical key, enforced by SQLite (a
-- second position with the same key would be a hash collision, which the
-- book refuses), so that a new position is stored with one upsert.
DROP INDEX position_key;
CREATE UNIQUE INDEX position_key ON position(key);
