-- schema version 11: twins. twin(pos, stone, twin): the attacker-to-move
-- position pos (a full position: no defender stone missing) with its
-- defender stone `stone` (pos's canonical frame) taken off is the stored
-- position twin (same side to move). A twin proved with a zone that misses
-- the stone proves pos (c6book's proof rules, HowTwin; proofcheck checks
-- the same rule on its own). Rows are added when the auto-pilot's verdicts
-- add positions; a twin's status change is propagated to pos.
CREATE TABLE twin (
	pos   INTEGER NOT NULL REFERENCES position(id),
	stone INTEGER NOT NULL,
	twin  INTEGER NOT NULL REFERENCES position(id),
	PRIMARY KEY (pos, stone)
) WITHOUT ROWID;
CREATE INDEX twin_by_twin ON twin(twin);
