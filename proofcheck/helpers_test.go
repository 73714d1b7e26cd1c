package proofcheck

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"c6book/engine"
)

// randomPosition places nA attacker and nD defender stones at random in a
// central box (so that threats occur), attacker to move, nobody having won,
// the attacker without a threat window and the defender with at most p
// threats (with a threat window only when defThreats).
func randomPosition(rng *rand.Rand, r engine.Rules, nA, nD int, defThreats bool) (*engine.Board, engine.Color) {
	for {
		a := engine.Black
		if rng.IntN(2) == 0 {
			a = engine.White
		}
		d := a.Opp()
		used := map[engine.Square]bool{}
		pick := func(n int) []engine.Square {
			var out []engine.Square
			for len(out) < n {
				x := r.M/4 + rng.IntN(r.M-r.M/2)
				y := r.N/4 + rng.IntN(r.N-r.N/2)
				s := r.Sq(x, y)
				if !used[s] {
					used[s] = true
					out = append(out, s)
				}
			}
			return out
		}
		as, ds := pick(nA), pick(nD)
		black, white := as, ds
		if a == engine.White {
			black, white = ds, as
		}
		b, err := engine.SetUp(r, black, white, a)
		if err != nil {
			continue
		}
		if b.Winner() != engine.Empty || b.Threats(d) > r.P || b.HasThreat(a) || (b.HasThreat(d) && !defThreats) {
			continue
		}
		return b, a
	}
}

// realCerts returns a few certificates made by the verifier (for the
// fuzzer's seeds).
func realCerts(tb testing.TB) []*Cert {
	rng := rand.New(rand.NewPCG(11, 12))
	r := engine.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	var out []*Cert
	for i := 0; i < 40 && len(out) < 3; i++ {
		b, _ := randomPosition(rng, r, 5, 5, false)
		// Verify the position with the attacker's opponent to move.
		b.SetToMove(b.ToMove().Opp())
		if b.HasThreat(b.ToMove()) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		v, err := engine.Verify(ctx, b, engine.VerifyOptions{Lambda: 3, Workers: 1, Limits: engine.Limits{MaxNodes: 3000}}, nil)
		cancel()
		if err != nil {
			continue
		}
		if v.NullTree != nil || len(v.Covered) > 0 {
			out = append(out, FromVerdict(&v))
		}
	}
	return out
}
