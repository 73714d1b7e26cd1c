-- schema version 8: the book knows whether its proofs were changed outside
-- the program. proof_digest holds the sum (mod 2^64, stored as a signed
-- integer) of a hash of every proof-bearing row, and their count: every
-- status row that says proved (position, attacker, status, order, how,
-- zone) and every verdict row (position, attacker, status, order, engine,
-- data, certificate). Every write of the program keeps it in the same
-- transaction; a row changed by another program (an sqlite3 session by
-- hand) makes the rows' sum differ from it, and the book then shows its
-- proofs as unchecked until `check` has re-checked every one and recorded
-- the sum again. The Go code after this script records the sum of the rows
-- of an upgraded book.
CREATE TABLE proof_digest (
	id     INTEGER PRIMARY KEY CHECK (id = 1),
	digest INTEGER NOT NULL,
	nrows  INTEGER NOT NULL
);
INSERT INTO proof_digest(id, digest, nrows) VALUES (1, 0, 0);
