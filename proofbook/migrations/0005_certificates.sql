-- schema version 5: proofs rest on certificates.
-- verdict.cert: the verdict's certificate (proofcheck.Cert, compact binary),
-- everything needed to re-check it without search; NULL for verdicts stored
-- by older builds, which can no longer prove anything.
-- status.zone: the relevance zone of a proved position (packed squares, in
-- the position's canonical frame) at its tolerance, the defender's stone
-- deficit; NULL when not proved. Opening an older book re-derives every
-- status (Go code after this script): what rested on a verdict without a
-- certificate is open again.
ALTER TABLE verdict ADD COLUMN cert BLOB;
ALTER TABLE status ADD COLUMN zone BLOB;
