package proofcheck

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"

	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// FuzzCertCheck: a certificate decoded from arbitrary bytes and checked
// on small positions (defender to move, some with an attacker threat
// window, one stone a turn on some) never panics and allocates at most a
// bounded multiple of its decompressed payload; when it checks, Unrefuted
// yields exactly the legal defender moves (all of them, enumerated without
// the threat-window pruning) that Refutes does not account for.
func FuzzCertCheck(f *testing.F) {
	type pos struct {
		r            game.Rules
		black, white []game.Square
		defender     game.Color
	}
	var poss []pos
	ctx := context.Background()
	for ci, rc := range []struct {
		r      game.Rules
		nA, nD int
	}{
		{game.Rules{M: 6, N: 6, K: 4, P: 2, Q: 1}, 3, 3},
		{game.Rules{M: 7, N: 7, K: 4, P: 1, Q: 1}, 3, 3},
	} {
		rng := rand.New(rand.NewPCG(uint64(ci)+900, 7))
		for i := 0; i < 2; i++ {
			b, _ := randomPosition(rng, rc.r, rc.nD, rc.nA, i == 0)
			p := pos{rc.r, b.StoneList(game.Black), b.StoneList(game.White), b.ToMove()}
			for _, lambda := range []int{2, 3} {
				v, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: lambda, Workers: 1, Limits: threat.Limits{MaxNodes: 1500}}, nil)
				if err != nil {
					f.Fatal(err)
				}
				data, err := FromVerdict(&v).MarshalBinary()
				if err != nil {
					f.Fatal(err)
				}
				f.Add(uint8(len(poss)), data)
			}
			poss = append(poss, p)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		p := poss[int(which)%len(poss)]
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var c Cert
		if err := c.UnmarshalBinary(data); err != nil {
			return
		}
		res, err := CheckVerdict(ctx, p.r, p.black, p.white, p.defender, 0, &c)
		runtime.ReadMemStats(&after)
		payload, _ := decompress(certVersion, data)
		if alloc, limit := after.TotalAlloc-before.TotalAlloc, uint64(1<<20+1024*len(payload)); alloc > limit {
			t.Fatalf("decoding and checking %d bytes (%d decompressed) allocated %d bytes, over %d", len(data), len(payload), alloc, limit)
		}
		if err != nil {
			return
		}
		unrefuted := map[game.Move]bool{}
		res.Unrefuted(func(dm game.Move) bool {
			if unrefuted[dm] {
				t.Fatalf("Unrefuted yields %s twice", game.MoveName(p.r, dm))
			}
			unrefuted[dm] = true
			return true
		})
		n := 0
		allMoves(res, func(dm game.Move) bool {
			if res.Refutes(dm) {
				if unrefuted[dm] {
					t.Fatalf("Unrefuted yields %s, which Refutes accounts for", game.MoveName(p.r, dm))
				}
				return true
			}
			n++
			if !unrefuted[dm] {
				t.Fatalf("defender move %s is not refuted and Unrefuted leaves it out", game.MoveName(p.r, dm))
			}
			return true
		})
		if n != len(unrefuted) {
			t.Fatalf("Unrefuted yields %d moves, %d are unrefuted", len(unrefuted), n)
		}
	})
}
