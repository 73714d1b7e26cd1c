package proofbook

import (
	"testing"

	"c6book/proofcheck"
)

// checkedCerts answers for the bytes recorded only, forgets a dropped
// position, and never holds more than maxChecked certificates.
func TestCheckedCerts(t *testing.T) {
	var c checkedCerts
	res := new(proofcheck.VerdictResult)
	c.add(7, []byte("cert"), res)
	if c.lookup(7, []byte("cert")) != res {
		t.Fatal("the recorded bytes are not found")
	}
	if c.lookup(7, []byte("cert2")) != nil || c.lookup(8, []byte("cert")) != nil || c.lookup(7, nil) != nil {
		t.Fatal("other bytes or another position found")
	}
	var none *checkedCerts
	if none.lookup(7, []byte("cert")) != nil {
		t.Fatal("no cache found something")
	}
	c.drop(7)
	if c.lookup(7, []byte("cert")) != nil {
		t.Fatal("a dropped position found")
	}
	for i := 0; i < 3*maxChecked; i++ {
		c.add(PosID(i), []byte{byte(i), byte(i >> 8)}, res)
		if len(c.m) > maxChecked {
			t.Fatalf("%d certificates held, at most %d", len(c.m), maxChecked)
		}
	}
}
