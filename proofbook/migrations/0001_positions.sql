-- c6book book, schema version 1: the rule set, positions keyed by their
-- canonical Zobrist key, moves as edges, imported games, annotations.

CREATE TABLE meta (
	id         INTEGER PRIMARY KEY CHECK (id = 1),
	m          INTEGER NOT NULL,
	n          INTEGER NOT NULL,
	k          INTEGER NOT NULL,
	p          INTEGER NOT NULL,
	q          INTEGER NOT NULL,
	root       INTEGER REFERENCES position(id),
	created_at INTEGER NOT NULL
);

-- key: canonical Zobrist key (side to move included) as a signed 64-bit
-- integer; stones: the canonical stone set (2 bytes a stone: square*2 +
-- colour-1, sorted), compared on every lookup to detect key collisions.
CREATE TABLE position (
	id         INTEGER PRIMARY KEY,
	key        INTEGER NOT NULL,
	stones     BLOB    NOT NULL,
	to_move    INTEGER NOT NULL CHECK (to_move IN (1, 2)),
	nstones    INTEGER NOT NULL,
	winner     INTEGER NOT NULL DEFAULT 0 CHECK (winner IN (0, 1, 2)),
	created_at INTEGER NOT NULL
);
CREATE INDEX position_key ON position(key);

-- move: the turn in the parent's canonical frame, packed (see codec.go),
-- the smallest image under the parent's own symmetries; 0 is the null move.
CREATE TABLE edge (
	parent INTEGER NOT NULL REFERENCES position(id),
	move   INTEGER NOT NULL,
	child  INTEGER NOT NULL REFERENCES position(id),
	PRIMARY KEY (parent, move)
) WITHOUT ROWID;
CREATE INDEX edge_child ON edge(child);

CREATE TABLE game (
	source TEXT    NOT NULL,
	ext_id TEXT    NOT NULL,
	leaf   INTEGER NOT NULL REFERENCES position(id),
	nturns INTEGER NOT NULL,
	PRIMARY KEY (source, ext_id)
) WITHOUT ROWID;

-- Annotations live apart from positions so that imported games stay small.
CREATE TABLE note (
	pos        INTEGER PRIMARY KEY REFERENCES position(id),
	comment    TEXT    NOT NULL DEFAULT '',
	label      TEXT    NOT NULL DEFAULT '',
	marks      TEXT    NOT NULL DEFAULT '',
	updated_at INTEGER NOT NULL
);
CREATE INDEX note_label ON note(label) WHERE label <> '';
