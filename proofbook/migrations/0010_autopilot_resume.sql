-- schema version 10: what the auto-pilot knows survives a restart, so that
-- a run killed and started again continues with the numbers it had.
-- autopilot_move.score: the player's score of the move (the attacker's
-- side) when the auto-pilot stored it, the expected numbers of the
-- position it leads to (NULL: none recorded).
ALTER TABLE autopilot_move ADD COLUMN score REAL;

-- autopilot_exhausted: attacker-to-move positions where the auto-pilot
-- found no further candidate move among the first cands the player ranks.
CREATE TABLE autopilot_exhausted (
	pos   INTEGER PRIMARY KEY REFERENCES position(id),
	cands INTEGER NOT NULL
) WITHOUT ROWID;
