-- schema version 9: orders that are true. A verdict's order is the λ order
-- its argument needs (checked against its certificate), no longer the λ of
-- the run, and an open verdict keeps the order of what it refuted; a proved
-- position's order is derived from its verdict's and items' orders (AND)
-- or its best move's (OR). The Go code after this script raises every
-- stored verdict's order to what its certificate supports and re-derives
-- every proof's order. The index lets --min-order read only the rows it
-- lists (status_order, version 4, already does for the proved list).
CREATE INDEX IF NOT EXISTS verdict_order ON verdict(ord);
