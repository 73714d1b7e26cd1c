-- schema version 6: game statistics.
-- game is rebuilt with an integer id (game_pos refers to it), the game's
-- result (the winner of its last position: 0 unfinished, 1 Black, 2 White)
-- and its turns as played (varint-packed moves in the game's own
-- orientation; NULL for games stored before this version until the Go code
-- after this script has rebuilt them from the tree). rebuilt: 1 when that
-- code had to choose between transpositions (the turns may not be the
-- game's own); importing the game again then puts its real turns and
-- counts.
CREATE TABLE game_v6 (
	id     INTEGER PRIMARY KEY,
	source TEXT    NOT NULL,
	ext_id TEXT    NOT NULL,
	leaf   INTEGER NOT NULL REFERENCES position(id),
	nturns INTEGER NOT NULL,
	result INTEGER NOT NULL DEFAULT 0 CHECK (result IN (0, 1, 2)),
	turns  BLOB,
	rebuilt INTEGER NOT NULL DEFAULT 0,
	UNIQUE (source, ext_id)
);
INSERT INTO game_v6(source, ext_id, leaf, nturns, result)
	SELECT g.source, g.ext_id, g.leaf, g.nturns, COALESCE(p.winner, 0)
	FROM game g LEFT JOIN position p ON p.id = g.leaf
	ORDER BY g.source, length(g.ext_id), g.ext_id;
DROP TABLE game;
ALTER TABLE game_v6 RENAME TO game;

-- game_pos: the positions each game reached (once each, whatever the
-- transpositions and symmetries: positions are canonical), for the list of
-- the games through a position; ordered by game id within a position. No
-- foreign keys: a derived index written with its game (they would cost two
-- lookups per row at import, 800,000 rows for the LittleGolem file).
CREATE TABLE game_pos (
	pos  INTEGER NOT NULL,
	game INTEGER NOT NULL,
	PRIMARY KEY (pos, game)
) WITHOUT ROWID;

-- The counts of game_pos per position by result, kept with it by every
-- import: games through the position, of which Black won bwins and White
-- wwins (the rest are unfinished).
ALTER TABLE position ADD COLUMN games INTEGER NOT NULL DEFAULT 0;
ALTER TABLE position ADD COLUMN bwins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE position ADD COLUMN wwins INTEGER NOT NULL DEFAULT 0;
