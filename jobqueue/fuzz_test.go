package jobqueue

import (
	"context"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/proofcheck"
	"c6book/proofcheck/enginecert"
)

// FuzzResult: a stored result, whatever its bytes, goes through the
// client's path (decodeResult, decodeVerdict, checkVerdict) without a
// panic, and checkVerdict never accepts a verdict the independent checker
// does not: an accepted verdict's certificate checks again, a proved one
// leaves no item, and every full defender move of the position (all pairs
// of empties, enumerated here by brute force) is refuted by the checked
// certificate or is one of the verdict's items.
func FuzzResult(f *testing.F) {
	cases := []testCase{smallCases[0], smallCases[3], smallCases[1]}
	type fuzzCase struct {
		b    *board.Board
		opts verify.VerifyOptions
	}
	var fcs []fuzzCase
	for i, tc := range cases {
		job, _ := newJob(tc.board(f), tc.withTol(f))
		jb, jo, err := job.board()
		if err != nil {
			f.Fatal(err)
		}
		fcs = append(fcs, fuzzCase{jb, jo})
		o := jo
		o.Workers = 1
		vd, err := verify.Verify(context.Background(), jb, o, nil)
		if err != nil {
			f.Fatal(err)
		}
		data, err := encodeVerdict(&vd)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), result{worker: "w", verdict: data}.encode())
		all := verify.Verdict{Status: verify.StatusOpen, Lambda: vd.Lambda, Attacker: vd.Attacker, Tolerance: vd.Tolerance, AllUnsolved: true, Engine: vd.Engine}
		data, _ = encodeVerdict(&all)
		f.Add(uint8(i), result{worker: "forger", verdict: data}.encode())
	}
	f.Add(uint8(0), result{worker: "w", err: "boom"}.encode())
	f.Add(uint8(1), []byte{resultVersion, 0, 0, verdictVersion})
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		fc := fcs[int(which)%len(fcs)]
		res, err := decodeResult(data)
		if err != nil || res.err != "" {
			return
		}
		vd, err := decodeVerdict(fc.b.Rules(), res.verdict)
		if err != nil {
			return
		}
		ctx := context.Background()
		if checkVerdict(ctx, fc.b, fc.opts, &vd) != nil {
			return
		}
		b := fc.b
		vr, err := proofcheck.CheckVerdict(ctx, b.Rules(), b.StoneList(game.Black), b.StoneList(game.White), b.ToMove(), fc.opts.Tolerance, enginecert.FromVerdict(&vd))
		if err != nil {
			t.Fatalf("accepted, but the certificate does not check: %v", err)
		}
		if vd.Status == verify.StatusProved && (vd.AllUnsolved || len(vd.Unsolved)+len(vd.OpenSeminull) > 0) {
			t.Fatal("accepted a proved verdict with items")
		}
		if vd.AllUnsolved {
			return // claims nothing
		}
		items := map[game.Move]bool{}
		for _, u := range vd.Unsolved {
			items[u.Move] = true
		}
		var empties []game.Square
		for s := 0; s < b.Rules().Squares(); s++ {
			if b.At(game.Square(s)) == game.Empty {
				empties = append(empties, game.Square(s))
			}
		}
		for i := range empties {
			for j := i + 1; j < len(empties); j++ {
				dm := game.NewMove(empties[i], empties[j])
				if vr.Refutes(dm) || items[dm] {
					continue
				}
				open := false
				for _, u := range vd.OpenSeminull {
					open = open || dm.Contains(u.Move.At(0))
				}
				if !open {
					t.Fatalf("accepted, but defender move %s is neither refuted nor an item", game.MoveName(b.Rules(), dm))
				}
			}
		}
	})
}
