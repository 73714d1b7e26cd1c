-- schema version 4: the proved list filtered by λ order (the browsable
-- josekis without the game ends an import marks proved at order 0) reads
-- only the rows it returns.
CREATE INDEX status_order ON status(attacker, status, ord, pos);
