package proofcheck

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"c6book/engine/game"
)

// BenchmarkCheckLargeVerdict checks the certificate of a large real
// verdict on one goroutine, as the proof book stores it: proofbook's
// BenchmarkStoreLargeVerdict writes it to C6_BIG_CACHE.cert and its
// position to C6_BIG_CACHE.pos (the λ3 verdict of Mickey Mouse's j10 i9k9
// i7j9 at 200,000 nodes a solver call has 242,498 strategy nodes).
// Skipped without them.
func BenchmarkCheckLargeVerdict(b *testing.B) {
	cache := os.Getenv("C6_BIG_CACHE")
	data, err := os.ReadFile(cache + ".cert")
	if err != nil {
		b.Skip("no C6_BIG_CACHE certificate:", err)
	}
	var c Cert
	if err := c.UnmarshalBinary(data); err != nil {
		b.Fatal(err)
	}
	posData, err := os.ReadFile(cache + ".pos")
	if err != nil {
		b.Skip("no C6_BIG_CACHE position:", err)
	}
	var pos struct {
		Black, White []game.Square
		Defender     game.Color
		Tol          int
	}
	if err := json.Unmarshal(posData, &pos); err != nil {
		b.Fatal(err)
	}
	r := game.Connect6()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := checkVerdict(context.Background(), r, pos.Black, pos.White, pos.Defender, pos.Tol, &c, 1, true); err != nil {
			b.Fatal(err)
		}
	}
}
