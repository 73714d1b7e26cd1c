package proofbook

import (
	"context"
	"math/rand/v2"
	"testing"

	"c6book/engine"
)

func TestZZFind(t *testing.T) {
	ctx := context.Background()
	r := engine.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	rng := rand.New(rand.NewPCG(99, 1))
	for try := 0; try < 3000; try++ {
		bk := newBook(t, r)
		line := randomLine(rng, r, 4+rng.IntN(2))
		b, _ := engine.Replay(r, line)
		a := b.ToMove()
		line = append(line, quietMove(ctx, rng, b, 0))
		l, err := bk.AddLine(ctx, line)
		if err != nil {
			t.Fatal(err)
		}
		d := l.IDs[len(l.IDs)-1]
		db, _ := bk.Board(ctx, d)
		for _, nodes := range []int64{300, 1000, 3000} {
			v, err := engine.Verify(ctx, db, engine.VerifyOptions{Lambda: 3, Workers: 1, Limits: engine.Limits{MaxNodes: nodes}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if v.AllUnsolved || len(v.OpenSeminull) == 0 || len(v.Unsolved) > 4 {
				continue
			}
			if err := bk.StoreVerdict(ctx, d, FromEngine(r, 0, v, 3)); err != nil {
				t.Fatal(err)
			}
			ok := true
			saw := false
			for round := 0; round < 6 && ok; round++ {
				items, _ := bk.Items(ctx, d, a)
				if len(items) == 0 {
					break
				}
				if round > 0 {
					for _, it := range items {
						if it.Move.Len() == 2 {
							saw = true
						}
					}
				}
				for _, it := range items {
					if !proveBelow(t, bk, rng, it.ID, a, 2) {
						ok = false
						break
					}
				}
			}
			if ok && saw && proofOf(t, bk, d, a).Status == StatusProved {
				t.Logf("FOUND try %d nodes %d line %q", try, nodes, engine.FormatTurns(r, line))
				return
			}
			break
		}
	}
}
