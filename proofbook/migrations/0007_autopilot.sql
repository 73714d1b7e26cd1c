-- schema version 7 (the auto-pilot): what the expert's word over the
-- auto-pilot needs stored.
-- autopilot_move: the attacker moves the auto-pilot proposed (parent,
-- packed move in the parent's canonical frame, rank in its candidate list).
-- Every other stored move of a position was made by hand (or imported) and
-- is tried first.
CREATE TABLE autopilot_move (
	parent INTEGER NOT NULL REFERENCES position(id),
	move   INTEGER NOT NULL,
	rank   INTEGER NOT NULL,
	PRIMARY KEY (parent, move)
) WITHOUT ROWID;

-- hold: positions an expert keeps for themself ("leave to me") for an
-- attacker: the auto-pilot never works at or below them.
CREATE TABLE hold (
	pos        INTEGER NOT NULL REFERENCES position(id),
	attacker   INTEGER NOT NULL CHECK (attacker IN (1, 2)),
	created_at INTEGER NOT NULL,
	PRIMARY KEY (pos, attacker)
) WITHOUT ROWID;
