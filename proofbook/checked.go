package proofbook

import (
	"crypto/sha256"
	"sync"

	"c6book/proofcheck"
)

// maxChecked bounds the certificates checkedCerts remembers: when full, it
// forgets them all (their verdicts are then checked again, as any other).
const maxChecked = 128

// checkedCerts remembers the certificates StoreVerdict checked in this
// process and stored, by position: the digest of the bytes stored and
// proofcheck's result. Prove's confirmProof hands a result to
// proofcheck.CheckBook (Node.Checked) when the verdict row still holds
// those bytes, so that the proof's closing check does not re-check a
// certificate this process checked on its way into the book; every other
// check (Book.Check, `c6 book check`, another process) checks it anew.
type checkedCerts struct {
	mu sync.Mutex
	m  map[PosID]checkedCert
}

type checkedCert struct {
	digest [sha256.Size]byte
	res    *proofcheck.VerdictResult
}

// add records that cert, the bytes stored as position id's verdict, was
// checked with result res.
func (c *checkedCerts) add(id PosID, cert []byte, res *proofcheck.VerdictResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxChecked {
		c.m = make(map[PosID]checkedCert)
	}
	c.m[id] = checkedCert{sha256.Sum256(cert), res}
}

// drop forgets position id's certificate (its verdict row changed).
func (c *checkedCerts) drop(id PosID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
}

// lookup returns the result recorded for position id when cert is the
// bytes it was recorded for (nil otherwise).
func (c *checkedCerts) lookup(id PosID, cert []byte) *proofcheck.VerdictResult {
	if c == nil || cert == nil {
		return nil
	}
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if !ok || e.digest != sha256.Sum256(cert) {
		return nil
	}
	return e.res
}
