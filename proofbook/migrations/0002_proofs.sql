-- schema version 2: proof status per attacker with proof/disproof numbers,
-- the latest verifier verdict per position, named proofs, comment search.

-- status: 0 unknown, 1 open, 2 proved, 3 disproved. expert: 1 when an
-- expert marked the position disproved (sticky, survives propagation).
CREATE TABLE status (
	pos        INTEGER NOT NULL REFERENCES position(id),
	attacker   INTEGER NOT NULL CHECK (attacker IN (1, 2)),
	status     INTEGER NOT NULL CHECK (status BETWEEN 0 AND 3),
	ord        INTEGER NOT NULL DEFAULT 0,
	how        TEXT    NOT NULL DEFAULT '',
	expert     INTEGER NOT NULL DEFAULT 0,
	pn         INTEGER NOT NULL,
	dn         INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (pos, attacker)
) WITHOUT ROWID;
CREATE INDEX status_rank ON status(attacker, status, pn, pos);

-- data: the verdict as JSON (moves in the position's canonical frame).
CREATE TABLE verdict (
	pos        INTEGER PRIMARY KEY REFERENCES position(id),
	attacker   INTEGER NOT NULL CHECK (attacker IN (1, 2)),
	status     TEXT    NOT NULL,
	ord        INTEGER NOT NULL,
	engine     TEXT    NOT NULL,
	data       TEXT    NOT NULL,
	created_at INTEGER NOT NULL
);

CREATE TABLE proof (
	id         INTEGER PRIMARY KEY,
	name       TEXT    NOT NULL,
	root       INTEGER NOT NULL REFERENCES position(id),
	attacker   INTEGER NOT NULL CHECK (attacker IN (1, 2)),
	created_at INTEGER NOT NULL,
	UNIQUE (root, attacker)
);

-- Full-text search in comments: FTS4 is built into go-sqlite3 by default
-- (FTS5 would need a build tag everywhere).
CREATE VIRTUAL TABLE note_fts USING fts4(content="note", comment, tokenize=unicode61);
CREATE TRIGGER note_fts_bu BEFORE UPDATE ON note BEGIN
	DELETE FROM note_fts WHERE docid = old.rowid;
END;
CREATE TRIGGER note_fts_bd BEFORE DELETE ON note BEGIN
	DELETE FROM note_fts WHERE docid = old.rowid;
END;
CREATE TRIGGER note_fts_au AFTER UPDATE ON note BEGIN
	INSERT INTO note_fts(docid, comment) VALUES (new.rowid, new.comment);
END;
CREATE TRIGGER note_fts_ai AFTER INSERT ON note BEGIN
	INSERT INTO note_fts(docid, comment) VALUES (new.rowid, new.comment);
END;
INSERT INTO note_fts(docid, comment) SELECT rowid, comment FROM note;
