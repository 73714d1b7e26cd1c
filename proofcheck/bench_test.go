package proofcheck

import (
	"context"
	"os"
	"testing"

	"c6book/engine"
)

// BenchmarkCheckLargeVerdict checks the certificate of a large real
// verdict on one goroutine: the λ3 verdict of Mickey Mouse's j10 i9k9
// i7j9 (White to move) in the position's canonical frame, as the proof
// book stores it, read from C6_BIG_CACHE.cert (proofbook's
// BenchmarkStoreLargeVerdict writes it; at 200,000 nodes a solver call
// it has 242,498 strategy nodes). Skipped without it.
func BenchmarkCheckLargeVerdict(b *testing.B) {
	data, err := os.ReadFile(os.Getenv("C6_BIG_CACHE") + ".cert")
	if err != nil {
		b.Skip("no C6_BIG_CACHE certificate:", err)
	}
	var c Cert
	if err := c.UnmarshalBinary(data); err != nil {
		b.Fatal(err)
	}
	r := engine.Rules{M: 19, N: 19, K: 6, P: 2, Q: 1}
	board, err := engine.ReplayText(r, "j10 i9k9 i7j9")
	if err != nil {
		b.Fatal(err)
	}
	_, sym := board.CanonicalKey()
	var stones [3][]engine.Square
	for col := engine.Black; col <= engine.White; col++ {
		for _, s := range board.StoneList(col) {
			stones[col] = append(stones[col], r.Transform(sym, s))
		}
	}
	tol, ok := board.DefenderDeficit(board.ToMove().Opp())
	if !ok {
		b.Fatal("no deficit")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := checkVerdict(context.Background(), r, stones[engine.Black], stones[engine.White], board.ToMove(), tol, &c, 1, true); err != nil {
			b.Fatal(err)
		}
	}
}
